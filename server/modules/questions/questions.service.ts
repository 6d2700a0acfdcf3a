import type {
  BulkDeleteResult,
  Question,
  QuestionCreate,
  QuestionListItem,
  QuestionPatch,
} from '../../../shared/schemas/questions.js';
import {
  checkAnswers,
  MAX_QUESTION_IMAGES,
  QUESTION_PAGE_SIZE,
} from '../../../shared/schemas/questions.js';
import type { Db } from '../../db/client.js';
import { appendAudit } from '../../lib/audit.js';
import type { Actor } from '../../lib/auth-guard.js';
import { AppError, fieldError, forbidden, notFound } from '../../lib/errors.js';
import { parseFilter, parseWhere } from '../../lib/filter/index.js';
import { uuidv7 } from '../../lib/ids.js';
import type { PhaseIds } from '../../lib/route-params.js';
import { type PhaseContext, requirePhase } from '../exams/index.js';
import type { FilesService } from './files.service.js';
import {
  type ImageFields,
  imagesByField,
  pickQuestionFields,
  type QuestionScope,
  type QuestionView,
  questionImageIds,
  toQuestionDto,
} from './questions.dto.js';
import { preparse } from './questions.filter.js';
import { canManageQuestions, canSeeCorrectAnswers, canViewQuestions } from './questions.policy.js';
import * as repo from './questions.repo.js';

export type PhaseParams = PhaseIds;
export type QuestionsDeps = { db: Db; files: FilesService };
/** A phase in the actor's scope, with what they may see of its bank. */
export type BankContext = PhaseContext & { view: QuestionView };

/**
 * A question as other modules (test player, reviews, test papers) read it: everything,
 * correct answers included. The caller decides what leaves the server.
 */
export type BankItem = {
  id: string;
  phaseId: string;
  itemQ: string;
  itemCategory: string | null;
  itemDiscipline: string;
  itemGrade: number;
  difficulty: repo.QuestionRow['difficulty'];
  itemType: repo.QuestionRow['itemType'];
  itemAnswers: string[];
  itemCorrectAnswers: number[] | string | null;
  imageFileId: string | null;
  /** Stored files the statement and options show (for data URLs on the printed paper). */
  images: string[];
  isDeleted: boolean;
};

export type QuestionTeachers = { mediatorTeacher: string | null; gradingTeachers: string[] };
export type MissingQuestionTeacher = {
  itemId: string;
  field: 'mediatorTeacher' | 'gradingTeachers';
};

/** Reviewers each question needs before a hybrid review starts (SPEC.md §4). */
export const REVIEWERS_NEEDED = 2;

const scopeOf = (ctx: PhaseContext): QuestionScope => ({
  examId: ctx.exam.id,
  editionId: ctx.edition.id,
});

const toBankItem = (row: repo.QuestionRow): BankItem => ({
  id: row.id,
  phaseId: row.phaseId,
  itemQ: row.itemQ,
  itemCategory: row.itemCategory,
  itemDiscipline: row.itemDiscipline,
  itemGrade: row.itemGrade,
  difficulty: row.difficulty,
  itemType: row.itemType,
  itemAnswers: row.itemAnswers,
  itemCorrectAnswers: row.itemCorrectAnswers ?? null,
  imageFileId: row.imageFileId,
  images: questionImageIds(row),
  isDeleted: row.deletedAt !== null,
});

export function questionsService({ db, files }: QuestionsDeps) {
  /**
   * The phase's bank if the actor may read it (404 otherwise: out of scope) and, for
   * `manage`, change it (403 for the exam's staff, who only read).
   */
  async function requireBank(
    actor: Actor,
    p: PhaseParams,
    need: 'view' | 'manage',
  ): Promise<BankContext> {
    const ctx = await requirePhase(db, actor, p.examId, p.editionId, p.phaseId);
    if (!canViewQuestions(ctx.access)) throw notFound('phase');
    if (need === 'manage' && !canManageQuestions(ctx.access)) throw forbidden();
    return { ...ctx, view: { withAnswers: canSeeCorrectAnswers(ctx.access) } };
  }

  async function toDtos(tx: Db, rows: repo.QuestionRow[], ctx: BankContext) {
    const ids = rows.map((r) => r.id);
    const [reviewers, inTests] = await Promise.all([
      repo.findReviewers(tx, ids),
      repo.findQuestionsInTests(tx, ids),
    ]);
    return rows.map((r) =>
      toQuestionDto(r, scopeOf(ctx), reviewers.get(r.id) ?? [], inTests.has(r.id), ctx.view),
    );
  }

  /** Opens a bank change: the phase shared (no test drawn meanwhile) and still open. */
  async function openPhaseForChange(tx: Db, phaseId: string) {
    const state = await repo.sharePhase(tx, phaseId);
    if (!state) throw notFound('phase');
    if (state === 'closed') throw new AppError('PHASE_CLOSED', 'The phase is closed');
  }

  /**
   * The images a question is about to show: at most MAX_QUESTION_IMAGES, each (unless already
   * shown before the edit) a stored image the actor may read. A refusal lands on the field
   * the image came from.
   */
  async function checkImages(
    actor: Actor,
    q: ImageFields,
    alreadyShown: ReadonlySet<string> = new Set(),
    tx: Db = db,
  ) {
    const images = imagesByField(q);
    if (images.size > MAX_QUESTION_IMAGES) throw fieldError({ itemQ: ['too_long'] });
    for (const [fileId, field] of images) {
      if (!alreadyShown.has(fileId)) await files.assertUsableImages(actor, [fileId], field, tx);
    }
  }

  async function getOne(tx: Db, ctx: BankContext, questionId: string): Promise<Question> {
    const rows = await repo.findQuestions(tx, ctx.phase.id, questionId);
    const [row] = rows;
    // Valid only if exactly one record returns (SPEC.md §5).
    if (rows.length !== 1 || !row) throw notFound('question');
    const [dto] = await toDtos(tx, [row], ctx);
    if (!dto) throw notFound('question');
    return dto;
  }

  return {
    requireBank,
    openPhaseForChange,
    checkImages,

    /** A page of the bank (default `itemQ ASC`, 10 a page) for its managers and staff. */
    async listQuestions(
      actor: Actor,
      p: PhaseParams,
      rawFilter: string | undefined,
    ): Promise<QuestionListItem[]> {
      const ctx = await requireBank(actor, p, 'view');
      const filter = parseFilter(preparse(rawFilter, 'filter'), repo.questionsResource, {
        defaultLimit: QUESTION_PAGE_SIZE,
      });
      const rows = await repo.listQuestions(db, ctx.phase.id, filter);
      const dtos = await toDtos(db, rows, ctx);
      return dtos.map((dto) => pickQuestionFields(dto, filter.fields));
    },

    /** `{count}` of the bank's questions matching `where`. */
    async countQuestions(actor: Actor, p: PhaseParams, rawWhere: string | undefined) {
      const ctx = await requireBank(actor, p, 'view');
      const where = parseWhere(preparse(rawWhere, 'where'), repo.questionsResource);
      return { count: await repo.countQuestions(db, ctx.phase.id, where) };
    },

    /** One question of this phase; 404 unless exactly one matches. */
    async getQuestion(actor: Actor, p: PhaseParams, questionId: string): Promise<Question> {
      const ctx = await requireBank(actor, p, 'view');
      return getOne(db, ctx, questionId);
    },

    /** Adds a question whose answers fit its type and whose images the actor may show. */
    async createQuestion(actor: Actor, p: PhaseParams, input: QuestionCreate): Promise<Question> {
      const ctx = await requireBank(actor, p, 'manage');
      const imageFileId = input.imageFileId ?? null;
      await checkImages(actor, { ...input, imageFileId });
      return db.transaction(async (tx) => {
        await openPhaseForChange(tx, ctx.phase.id);
        const [row] = await repo.insertQuestions(tx, [
          {
            id: uuidv7(),
            phaseId: ctx.phase.id,
            itemQ: input.itemQ,
            itemCategory: input.itemCategory ?? null,
            itemDiscipline: input.itemDiscipline,
            itemGrade: input.itemGrade,
            difficulty: input.difficulty,
            itemType: input.itemType,
            itemAnswers: input.itemAnswers,
            itemCorrectAnswers: input.itemCorrectAnswers ?? null,
            imageFileId,
            createdBy: actor.id,
          },
        ]);
        if (!row) throw new Error('question not inserted');
        const [dto] = await toDtos(tx, [row], ctx);
        if (!dto) throw new Error('question not read back');
        return dto;
      });
    },

    /**
     * Changes what was sent; the result must still fit its type. A question a student has
     * already met (an attempt on a test that drew it, or an answer) no longer changes
     * (TEST_HAS_ATTEMPTS): its scores would silently change under them.
     */
    async updateQuestion(
      actor: Actor,
      p: PhaseParams,
      questionId: string,
      patch: QuestionPatch,
    ): Promise<Question> {
      const ctx = await requireBank(actor, p, 'manage');
      return db.transaction(async (tx) => {
        await openPhaseForChange(tx, ctx.phase.id);
        const row = await repo.lockQuestion(tx, ctx.phase.id, questionId);
        if (!row) throw notFound('question');
        const merged = {
          itemType: patch.itemType ?? row.itemType,
          itemAnswers: patch.itemAnswers ?? row.itemAnswers,
          itemCorrectAnswers:
            patch.itemCorrectAnswers === undefined
              ? row.itemCorrectAnswers
              : patch.itemCorrectAnswers,
        };
        const issues = checkAnswers(merged);
        if (issues.length > 0) {
          throw fieldError(Object.fromEntries(issues.map((i) => [i.field, [i.code]])));
        }
        await checkImages(
          actor,
          {
            itemQ: patch.itemQ ?? row.itemQ,
            itemAnswers: merged.itemAnswers,
            imageFileId: patch.imageFileId === undefined ? row.imageFileId : patch.imageFileId,
          },
          new Set(questionImageIds(row)),
          tx,
        );
        if (await repo.isQuestionAnswered(tx, questionId)) {
          throw new AppError('TEST_HAS_ATTEMPTS', 'A student has already met this question');
        }
        const updated = await repo.updateQuestion(tx, questionId, {
          ...patch,
          itemCorrectAnswers: merged.itemCorrectAnswers ?? null,
        });
        if (!updated) throw notFound('question');
        const [dto] = await toDtos(tx, [updated], ctx);
        if (!dto) throw notFound('question');
        return dto;
      });
    },

    /** Deletes (soft) a question that no test drew (QUESTION_IN_TEST otherwise). Audited. */
    async deleteQuestion(actor: Actor, p: PhaseParams, questionId: string): Promise<void> {
      const ctx = await requireBank(actor, p, 'manage');
      await db.transaction(async (tx) => {
        await openPhaseForChange(tx, ctx.phase.id);
        const row = await repo.lockQuestion(tx, ctx.phase.id, questionId);
        if (!row) throw notFound('question');
        if ((await repo.findQuestionsInTests(tx, [questionId])).size > 0) {
          throw new AppError('QUESTION_IN_TEST', 'The question belongs to a test');
        }
        await repo.softDeleteQuestions(tx, ctx.phase.id, [questionId]);
        await auditDeletion(tx, actor, row);
      });
    },

    /**
     * Deletes every listed question of the phase that no test drew; answers the ids that were
     * not deleted (in a test, unknown, already deleted, or of another phase). Audited.
     */
    async deleteQuestions(actor: Actor, p: PhaseParams, ids: string[]): Promise<BulkDeleteResult> {
      const ctx = await requireBank(actor, p, 'manage');
      const unique = [...new Set(ids.map((id) => id.toLowerCase()))];
      return db.transaction(async (tx) => {
        await openPhaseForChange(tx, ctx.phase.id);
        const inTests = await repo.findQuestionsInTests(tx, unique);
        const deletable = unique.filter((id) => !inTests.has(id));
        const rows = await repo.findQuestionsByIds(tx, deletable);
        const deleted = new Set(await repo.softDeleteQuestions(tx, ctx.phase.id, deletable));
        for (const row of rows) {
          if (deleted.has(row.id)) await auditDeletion(tx, actor, row);
        }
        return { ids: unique.filter((id) => !deleted.has(id)) };
      });
    },

    // What other modules read of the bank (they enforce their own rights first).

    /** These questions with their correct answers, deleted ones too, in the order asked. */
    async questionsByIds(ids: readonly string[], tx: Db = db): Promise<BankItem[]> {
      const byId = new Map(
        (await repo.findQuestionsByIds(tx, [...new Set(ids)])).map((r) => [r.id, toBankItem(r)]),
      );
      return ids.flatMap((id) => byId.get(id) ?? []);
    },

    /** The mediator and grading teachers of each of these questions. */
    async questionTeachersOf(
      ids: readonly string[],
      tx: Db = db,
    ): Promise<Map<string, QuestionTeachers>> {
      // One after another: `tx` may be a transaction (one connection, one query at a time).
      const rows = await repo.findQuestionsByIds(tx, ids);
      const reviewers = await repo.findReviewers(tx, ids);
      return new Map(
        rows.map((r) => [
          r.id,
          { mediatorTeacher: r.mediatorTeacherId, gradingTeachers: reviewers.get(r.id) ?? [] },
        ]),
      );
    },

    /**
     * Corrects a question's answer key in the caller's transaction (the review committee; it
     * checks rights and rescores through the results module). Audited with the key before.
     */
    async setAnswerKey(
      tx: Db,
      actorId: string,
      questionId: string,
      key: number[] | string,
      reason: string | null,
    ): Promise<void> {
      const [row] = await repo.findQuestionsByIds(tx, [questionId]);
      if (!row) throw notFound('question');
      await repo.setAnswerKey(tx, questionId, key);
      await appendAudit(tx, {
        actorId,
        action: 'question.key_fix',
        entityType: 'question',
        entityId: questionId,
        before: { itemCorrectAnswers: row.itemCorrectAnswers },
        after: { itemCorrectAnswers: key },
        reason,
      });
    },

    /**
     * Questions drawn into the phase's tests that lack a mediator or two grading teachers,
     * one entry per missing field (INSUFFICIENT_TEACHERS_FOR_TEST_ITEMS details, SPEC.md §4).
     */
    async missingQuestionTeachers(
      phaseId: string,
      tx: Db = db,
      openOnly = false,
    ): Promise<MissingQuestionTeacher[]> {
      const rows = await repo.findQuestionsMissingTeachers(tx, phaseId, openOnly);
      return rows.flatMap((r) => [
        ...(r.hasMediator ? [] : [{ itemId: r.id, field: 'mediatorTeacher' as const }]),
        ...(r.reviewers < REVIEWERS_NEEDED
          ? [{ itemId: r.id, field: 'gradingTeachers' as const }]
          : []),
      ]);
    },
  };
}

/** One event per deleted question, so each question's history can be found by its id. */
async function auditDeletion(tx: Db, actor: Actor, row: repo.QuestionRow) {
  await appendAudit(tx, {
    actorId: actor.id,
    action: 'question.delete',
    entityType: 'question',
    entityId: row.id,
    before: {
      phaseId: row.phaseId,
      itemQ: row.itemQ.slice(0, 500),
      itemGrade: row.itemGrade,
      itemDiscipline: row.itemDiscipline,
      difficulty: row.difficulty,
    },
  });
}

export type QuestionsService = ReturnType<typeof questionsService>;
