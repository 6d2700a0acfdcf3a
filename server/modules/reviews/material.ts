import type { HistoryEvent, MarkerRole, Rubric } from '../../../shared/schemas/reviews.js';
import { STATEMENT_FILE_PREFIX } from '../../../shared/statement.js';
import type { Db } from '../../db/client.js';
import { notFound } from '../../lib/errors.js';
import { cleanForServing } from '../../lib/files/strip.js';
import { buildZip } from '../../lib/files/zip.js';
import { MASKED, type ReviewsContext, type Scope } from './context.js';
import * as repo from './reviews.repo.js';
import { type AuditRow, historyView, seesAll } from './reviews.view.js';

// What a marker reads beside the mark form, in both rounds: the question, the answer's pages
// (named by their place only) or its text, the rubric, the zip of the pages, a page or a
// statement image, and the entry's history as the marker may know it.

export async function rubricOf(db: Db, itemId: string): Promise<Rubric> {
  const row = await repo.findRubric(db, itemId);
  return {
    itemId,
    criteria: row?.criteria ?? [],
    updatedAt: row?.updatedAt.toISOString() ?? null,
  };
}

/** The date every entry of a marker's zip carries, whenever its page was uploaded. */
export const NEUTRAL_ZIP_DATE = new Date(Date.UTC(1980, 0, 1));

/** `page-01.png`: an answer's page named by its place only. */
function pageName(index: number, mime: string) {
  return `page-${String(index + 1).padStart(2, '0')}${extensionOf(mime)}`;
}

function extensionOf(mime: string) {
  switch (mime) {
    case 'application/pdf':
      return '.pdf';
    case 'image/png':
      return '.png';
    case 'image/jpeg':
      return '.jpg';
    default:
      return '';
  }
}

const asAudit = (rows: Awaited<ReturnType<typeof repo.findHistory>>): AuditRow[] =>
  rows.map((r) => ({
    id: r.id,
    actorId: r.actorId,
    action: r.action,
    before: r.before,
    after: r.after,
    reason: r.reason,
    at: r.at,
  }));

export function markingMaterial(ctx: ReviewsContext) {
  const { db, storage } = ctx;
  /**
   * A page's bytes without metadata, however old the page (strip.ts). One the library cannot
   * read is not served at all: its bytes might name the student.
   */
  const pageBytes = async (f: {
    storageKey: string;
    mime: string;
    strippedVersion: number | null;
  }) => {
    const clean = await cleanForServing(await storage.get(f.storageKey), f.mime, f.strippedVersion);
    if (!clean) throw notFound('file');
    return clean;
  };
  /** The id a page is shown by: its own to staff, a stand-in to markers (context.ts). */
  const pageIdFor = (scope: Scope, role: MarkerRole, fileId: string) =>
    role === 'staff' ? fileId : scope.maskId(MASKED.page, fileId);
  return {
    /**
     * The question, the answer's pages (named by place only, and by a stand-in id for a marker)
     * or text, and the rubric.
     */
    async material(
      scope: Scope,
      role: MarkerRole,
      itemId: string,
      answerId: string | null,
      maxScore: number,
    ) {
      const question = await repo.findQuestion(db, itemId);
      if (!question) throw notFound('question');
      const answer = answerId ? await repo.findAnswerById(db, answerId) : undefined;
      const fileRows = new Map(
        (await repo.findFiles(db, answer?.fileIds ?? [])).map((f) => [f.id, f]),
      );
      const pages = (answer?.fileIds ?? []).flatMap((id, i) => {
        const f = fileRows.get(id);
        return f
          ? [
              {
                _id: pageIdFor(scope, role, f.id),
                name: pageName(i, f.mime),
                mime: f.mime,
                size: Number(f.size),
              },
            ]
          : [];
      });
      const submitted = answer?.submittedAnswer;
      return {
        question: {
          itemId,
          itemQ: question.itemQ,
          itemType: question.itemType,
          itemAnswers: question.itemAnswers,
          itemCorrectAnswers: question.itemCorrectAnswers ?? null,
          imageFileId: question.imageFileId,
          maxScore,
        },
        answer: {
          pages,
          text: question.itemType === 'open' && typeof submitted === 'string' ? submitted : null,
        },
        rubric: await rubricOf(db, itemId),
      };
    },

    /**
     * Every page of the answer, in order, as `response_{code}.zip` (the anonymous code: an
     * answer's id is time-ordered, so it would tell when the paper was handed in). Every entry
     * is dated 1980-01-01, the earliest date a zip header holds: the upload time stays out.
     */
    async answerZip(answerId: string, code: string) {
      const answer = await repo.findAnswerById(db, answerId);
      const ids = answer?.fileIds ?? [];
      if (ids.length === 0) throw notFound('file');
      const rows = new Map((await repo.findFiles(db, ids)).map((f) => [f.id, f]));
      const entries = [];
      for (const [i, id] of ids.entries()) {
        const f = rows.get(id);
        if (!f) continue;
        entries.push({
          name: pageName(i, f.mime),
          data: await pageBytes(f),
          modifiedAt: NEUTRAL_ZIP_DATE,
        });
      }
      return {
        name: `response_${code}.zip`,
        mime: 'application/zip',
        data: buildZip(entries),
      };
    },

    /** A page of the answer by the id `material` showed, or an image of the question's statement. */
    async file(
      scope: Scope,
      role: MarkerRole,
      itemId: string,
      answerId: string | null,
      shownId: string,
    ) {
      const answer = answerId ? await repo.findAnswerById(db, answerId) : undefined;
      const question = await repo.findQuestion(db, itemId);
      const pageIndex = (answer?.fileIds ?? []).findIndex(
        (id) => pageIdFor(scope, role, id) === shownId,
      );
      const fileId = pageIndex >= 0 ? (answer?.fileIds[pageIndex] ?? shownId) : shownId;
      const inStatement =
        question !== undefined &&
        (question.imageFileId === fileId ||
          `${question.itemQ}\n${question.itemAnswers.join('\n')}`.includes(
            `${STATEMENT_FILE_PREFIX}${fileId}`,
          ));
      if (pageIndex < 0 && !inStatement) throw notFound('file');
      const [f] = await repo.findFiles(db, [fileId]);
      if (!f) throw notFound('file');
      return {
        name: pageIndex >= 0 ? pageName(pageIndex, f.mime) : `image${extensionOf(f.mime)}`,
        mime: f.mime,
        data: pageIndex >= 0 ? await pageBytes(f) : await storage.get(f.storageKey),
      };
    },

    /** The audit trail of an entry or appeal as the caller may know it. */
    async history(
      scope: Scope,
      entity: 'review_entry' | 'review_appeal',
      id: string,
      role: MarkerRole,
    ): Promise<HistoryEvent[]> {
      const marks = (await repo.findMarks(db, [id])).get(id) ?? [];
      const mine = marks.find((m) => m.reviewerId === scope.viewer.id);
      const events = asAudit(await repo.findHistory(db, entity, id));
      return historyView(
        events,
        role,
        seesAll(role, marks, scope.viewer.id),
        mine?.slot ?? null,
        scope.viewer,
      );
    },
  };
}
