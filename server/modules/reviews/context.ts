import type { z } from 'zod';
import type { ScoreChangeCause } from '../../../shared/schemas/results.js';
import { DEFAULT_MARK_STEP, isInStep, type MarkInput } from '../../../shared/schemas/reviews.js';
import type { Db } from '../../db/client.js';
import { appendAudit } from '../../lib/audit.js';
import type { Actor } from '../../lib/auth-guard.js';
import type { Clock } from '../../lib/clock.js';
import { AppError, fieldError, notFound, validationFailed, zodIssues } from '../../lib/errors.js';
import type { FileStorage } from '../../lib/files/storage.js';
import type { MailOutbox } from '../../lib/mail/outbox.js';
import type { PhaseIds } from '../../lib/route-params.js';
import { type IdMask, idMask } from '../../lib/server-keys.js';
import { canManageExam, findPhasePath, loadExamAccess, seesWholeExam } from '../exams/index.js';
import type { ResourceMgmt } from '../questions/index.js';
import { findTestResults, type MarkedAnswer, recordMarkedScore } from '../results/index.js';
import { decides, decidingOf } from './deciders.js';
import * as repo from './reviews.repo.js';
import { appealView, entryView, type PhaseSettings, type Viewer } from './reviews.view.js';

// What every use case of the test-review service shares: who the caller is on a phase, what
// they are shown of an entry or an appeal, the checks of a mark, and how a final score is
// recorded and told to the student. The use cases (start-review.ts, marking.ts, appeals.ts,
// student.ts, staff.ts, key-fix.ts) build on it; reviews.service.ts puts them together.

export type ReviewsDeps = {
  db: Db;
  clock: Clock;
  storage: FileStorage;
  outbox: MailOutbox;
  /** The question bank's public functions (teachers of a question, the key fix). */
  questions: ResourceMgmt['questions'];
  /** Where links in mails point (the configured public origin). */
  origin: string;
  /** The key of the stand-ins for answer and page ids markers are shown (server-keys.ts). */
  idKey: () => Promise<Buffer>;
};

type PhasePath = NonNullable<Awaited<ReturnType<typeof findPhasePath>>>;
/** A phase and how the caller stands on it; `maskId` makes the stand-ins a marker is shown. */
export type Scope = PhasePath & { viewer: Viewer; settings: PhaseSettings; maskId: IdMask };

export const REVIEWERS_PER_ANSWER = 2;

/** The uses of `maskId`: an answer's id, and each of its pages'. */
export const MASKED = { answer: 'review-answer', page: 'review-page' } as const;
export const DEFAULT_LIMIT = 10;

/** A JSON query parameter (`filter`, `where`) read with its schema; bad JSON is a 400. */
export function parseJson<S extends z.ZodType>(text: string | undefined, schema: S, name: string) {
  let value: unknown = {};
  if (text !== undefined && text !== '') {
    try {
      value = JSON.parse(text);
    } catch {
      throw validationFailed([{ code: 'invalid', path: [name] }]);
    }
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    throw validationFailed(zodIssues(parsed.error).map((i) => ({ ...i, path: [name, ...i.path] })));
  }
  return parsed.data as z.infer<S>;
}

const settingsOf = (phase: PhasePath['phase']): PhaseSettings => ({
  markStep: phase.markStep > 0 ? phase.markStep : DEFAULT_MARK_STEP,
  threshold: phase.mediationThreshold,
  appealMinPoints: Number(phase.appealMinPoints),
});

/** The mark's checks: in range, in the phase's step, criteria of the rubric adding up. */
export function checkMark(
  input: MarkInput,
  maxScore: number,
  step: number,
  rubric: { id: string; points: number }[],
) {
  const score = input.reviewerScore;
  if (score > maxScore + 1e-9) throw fieldError({ reviewerScore: ['out_of_range'] });
  if (!isInStep(score, step)) throw fieldError({ reviewerScore: ['not_in_step'] });
  const criteria = input.criteria ?? [];
  if (criteria.length > 0) {
    const byId = new Map(rubric.map((c) => [c.id, c.points]));
    if (new Set(criteria).size !== criteria.length || criteria.some((c) => !byId.has(c))) {
      throw fieldError({ criteria: ['invalid'] });
    }
    const sum = criteria.reduce((s, c) => s + Math.round((byId.get(c) ?? 0) * 100), 0);
    if (sum !== Math.round(score * 100)) throw fieldError({ criteria: ['score_sum'] });
  }
  return { score: Math.round(score * 100) / 100, criteria, note: input.note ?? null };
}
export type CheckedMark = ReturnType<typeof checkMark>;

export const stale = () => new AppError('REVIEW_CHANGED', 'The entry changed since it was read');
export const closed = () => new AppError('REVIEW_CLOSED', 'The entry no longer takes this write');

export const answerOf = (row: repo.EntryRow | repo.AppealRow): MarkedAnswer => ({
  answerId: row.answerId ?? '',
  testId: row.testId,
  studentId: row.studentId,
  itemId: row.itemId,
});

/**
 * Where an appeal's marking comes to, alone on its paper: the re-marked score stands when the
 * paper moves by at least `minPoints`, else the original stays. Compared in hundredths, as marks
 * are kept. A paper with several re-marked items is settled by `paperAppealOutcome`.
 */
export function appealOutcome(original: number, result: number, minPoints: number) {
  const [only] = paperAppealOutcome([{ id: '', original, result }], minPoints);
  return { outcome: only?.outcome ?? ('kept' as const), final: only?.final ?? original };
}

export type RemarkedItem = { id: string; original: number; result: number };

/**
 * The threshold is on the whole paper (shared/GLOSSARY.md, "Appeals with a threshold"): the
 * re-marked items of one student's test move the paper by the sum of their changes. When that
 * sum is at least `minPoints` either way, every re-marked item takes its new score; under it,
 * every one keeps its original (two changes that cancel out leave the paper as it was). With no
 * threshold (0) each item takes its new score. Compared in hundredths, as marks are kept.
 */
export function paperAppealOutcome(items: readonly RemarkedItem[], minPoints: number) {
  const cents = (n: number) => Math.round(n * 100);
  const minCents = cents(minPoints);
  const moved = items.reduce((sum, i) => sum + cents(i.result) - cents(i.original), 0);
  const stands = minCents <= 0 || Math.abs(moved) >= minCents;
  return items.map((i) => {
    const final = stands ? i.result : i.original;
    const outcome = cents(final) === cents(i.original) ? ('kept' as const) : ('changed' as const);
    return { id: i.id, outcome, final };
  });
}

/** The pieces the use cases share, bound to the service's dependencies. */
export function reviewsContext(deps: ReviewsDeps) {
  const { db, outbox, origin, idKey } = deps;

  // Answer and page ids are UUIDv7, whose first bits are the time the student handed the
  // answer in: a marker gets stand-ins, staff (who see the student anyway) the ids.
  const answerIdFor = <V extends { answerId: string; myRole: string }>(scope: Scope, view: V): V =>
    view.myRole === 'staff' || view.answerId === ''
      ? view
      : { ...view, answerId: scope.maskId(MASKED.answer, view.answerId) };

  /** The phase and how the caller stands on it: its markers and staff, anyone else 404. */
  async function requireScope(actor: Actor, ids: PhaseIds): Promise<Scope> {
    if (actor.type === 'student') throw notFound('phase');
    const path = await findPhasePath(db, ids.examId, ids.editionId, ids.phaseId);
    if (!path) throw notFound('phase');
    const access = await loadExamAccess(db, actor, path.exam.id);
    const whole = seesWholeExam(access);
    if (!whole && !(await repo.isPhaseMarker(db, path.phase.id, actor.id))) {
      throw notFound('phase');
    }
    return {
      ...path,
      viewer: { id: actor.id, whole, manage: canManageExam(access) },
      settings: settingsOf(path.phase),
      // Read here, outside any transaction, where the key is first drawn (server-keys.ts).
      maskId: idMask(await idKey()),
    };
  }

  async function entriesAsSeen(tx: Db, scope: Scope, rows: repo.EntryRow[]) {
    const ids = rows.map((r) => r.id);
    // One after another: `tx` may be a transaction, whose one connection runs a query at a time.
    const marks = await repo.findMarks(tx, ids);
    const appealed = await repo.entriesWithAppeal(tx, ids);
    const deciding = await decidingOf(tx, rows, [scope.viewer.id]);
    return rows.flatMap((r) => {
      const d = deciding.get(r.id);
      const view = entryView(
        r,
        marks.get(r.id) ?? [],
        d?.mediatorId ?? null,
        decides(d, scope.viewer),
        appealed.has(r.id),
        scope.settings,
        scope.viewer,
      );
      return view ? [answerIdFor(scope, view)] : [];
    });
  }

  async function appealsAsSeen(tx: Db, scope: Scope, rows: repo.AppealRow[]) {
    const marks = await repo.findMarks(
      tx,
      rows.map((r) => r.id),
    );
    const deciding = await decidingOf(tx, rows, [scope.viewer.id]);
    return rows.flatMap((r) => {
      const d = deciding.get(r.id);
      const view = appealView(
        r,
        marks.get(r.id) ?? [],
        d?.mediatorId ?? null,
        decides(d, scope.viewer),
        scope.settings,
        scope.viewer,
      );
      return view ? [answerIdFor(scope, view)] : [];
    });
  }

  async function requireEntryView(tx: Db, scope: Scope, reviewId: string) {
    const row = await repo.findEntry(tx, scope.phase.id, reviewId);
    if (!row) throw notFound('review');
    const [view] = await entriesAsSeen(tx, scope, [row]);
    if (!view) throw notFound('review');
    return { row, view };
  }

  async function requireAppealView(tx: Db, scope: Scope, reviewId: string) {
    const row = await repo.findAppeal(tx, scope.phase.id, reviewId);
    if (!row) throw notFound('appeal');
    const [view] = await appealsAsSeen(tx, scope, [row]);
    if (!view) throw notFound('appeal');
    return { row, view };
  }

  async function rubricCriteria(tx: Db, itemId: string) {
    return (await repo.findRubric(tx, itemId))?.criteria ?? [];
  }

  /**
   * Tells the student, after the change commits with the mail, that their test's result is
   * ready (`change` absent: first published) or that one item's points moved: which item, from
   * what to what, and why (never who).
   */
  async function mailStudent(
    tx: Db,
    studentId: string,
    testId: string,
    testName: string,
    change?: { itemId: string; before: number; after: number; cause: ScoreChangeCause },
  ) {
    const [student] = [...(await repo.findPeople(tx, [studentId])).values()];
    if (!student || student.deletedAt) return;
    const link = `${origin}/teste/${testId}/rezultat`;
    const position = change
      ? (await repo.findTestItems(tx, testId)).find((i) => i.itemId === change.itemId)?.position
      : undefined;
    await outbox.enqueue(tx, {
      template: change ? 'score-changed' : 'score-published',
      to: student.email,
      userId: student.id,
      locale: student.uiLocale ?? student.locale,
      params: change
        ? {
            test: testName,
            link,
            item: String(position ?? '?'),
            before: String(change.before),
            after: String(change.after),
            cause: change.cause,
          }
        : { test: testName, link },
    });
  }

  async function testName(tx: Db, testId: string) {
    return (await repo.findTestWithPhase(tx, testId))?.test.name ?? '';
  }

  const CAUSE_OF = { marked: 'marking', mediated: 'mediation', appealed: 'appeal' } as const;

  /** Records an answer's final score through the results module and tells the student. */
  async function recordFinal(
    tx: Db,
    answer: MarkedAnswer,
    score: number,
    from: 'marked' | 'mediated' | 'appealed',
    at: Date,
  ) {
    const { before } = await recordMarkedScore(tx, answer, score, from, at);
    // A first score tells the student once their whole test is marked; a change, at once.
    const complete =
      before !== null ||
      (await findTestResults(tx, answer.studentId, [answer.testId], at)).get(answer.testId)
        ?.awaitingItems === 0;
    if (before !== score && complete) {
      const name = await testName(tx, answer.testId);
      await mailStudent(
        tx,
        answer.studentId,
        answer.testId,
        name,
        before === null
          ? undefined
          : { itemId: answer.itemId, before, after: score, cause: CAUSE_OF[from] },
      );
    }
    return before;
  }

  /**
   * An appeal's marking settled at `result`. The threshold is on the paper: this item and the
   * student's other re-marked items of the same test, settled before, are weighed together
   * (paperAppealOutcome), and any of those whose final score that turns is rewritten with it.
   * One paper at a time (an advisory lock), so two appeals settling together both count.
   */
  async function resolveRemark(
    tx: Db,
    row: repo.AppealRow,
    scope: Scope,
    result: number,
    by: string,
    at: Date,
  ) {
    await repo.lockPaperAppeals(tx, row.testId, row.studentId);
    const others = (await repo.findStudentAppeals(tx, row.testId, row.studentId)).filter(
      (a) =>
        a.id !== row.id && a.kind === 'remark' && a.status === 'resolved' && a.resultScore !== null,
    );
    const original = Number(row.originalScore ?? 0);
    const paper = paperAppealOutcome(
      [
        { id: row.id, original, result },
        ...others.map((a) => ({
          id: a.id,
          original: Number(a.originalScore ?? 0),
          result: Number(a.resultScore),
        })),
      ],
      scope.settings.appealMinPoints,
    );
    const [mine, ...theirs] = paper;
    const { outcome, final } = mine ?? { outcome: 'kept' as const, final: original };
    if (outcome === 'changed') await recordFinal(tx, answerOf(row), final, 'appealed', at);
    for (const [i, other] of others.entries()) {
      const next = theirs[i];
      if (!next || Number(other.finalScore) === next.final) continue;
      // The paper's sum turned: the earlier appeal's item takes its new final score.
      await recordFinal(tx, answerOf(other), next.final, 'appealed', at);
      await repo.updateAppeal(tx, other.id, { finalScore: next.final, outcome: next.outcome });
      await appendAudit(tx, {
        actorId: by,
        action: 'appeal.resolved',
        entityType: 'review_appeal',
        entityId: other.id,
        before: { score: Number(other.finalScore) },
        after: { score: next.final, result: Number(other.resultScore), outcome: next.outcome },
      });
    }
    await appendAudit(tx, {
      actorId: by,
      action: 'appeal.resolved',
      entityType: 'review_appeal',
      entityId: row.id,
      before: { score: original },
      after: { score: final, result, outcome },
    });
    return {
      resultScore: result,
      finalScore: final,
      outcome,
      status: 'resolved' as const,
      resolvedAt: at,
    };
  }

  return {
    ...deps,
    requireScope,
    entriesAsSeen,
    appealsAsSeen,
    requireEntryView,
    requireAppealView,
    rubricCriteria,
    mailStudent,
    testName,
    recordFinal,
    resolveRemark,
  };
}

export type ReviewsContext = ReturnType<typeof reviewsContext>;
