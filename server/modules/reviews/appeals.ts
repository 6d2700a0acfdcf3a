import {
  type AppealCountWhere,
  type AppealDecisionInput,
  type AppealDetail,
  appealCountWhereSchema,
  appealListFilterSchema,
  type ContestationEntry,
  type HistoryEvent,
  type MarkInput,
} from '../../../shared/schemas/reviews.js';
import type { Db } from '../../db/client.js';
import { appendAudit } from '../../lib/audit.js';
import type { Actor } from '../../lib/auth-guard.js';
import { forbidden, notFound } from '../../lib/errors.js';
import { uuidv7 } from '../../lib/ids.js';
import type { PhaseIds } from '../../lib/route-params.js';
import { holdOpenPhase } from '../exams/index.js';
import { conflictsOf, pickReviewers } from './assign.js';
import {
  closed,
  DEFAULT_LIMIT,
  parseJson,
  REVIEWERS_PER_ANSWER,
  type ReviewsContext,
  stale,
} from './context.js';
import { conflictedAmong, conflictOfInterest, decidableBy, listedByDeciding } from './deciders.js';
import { markingMaterial } from './material.js';
import * as repo from './reviews.repo.js';
import { APPEAL_ROUND, markingFlow } from './rounds.js';

// Appeals, the markers' side: the lists, an appealed item with what to read beside it, the
// re-marking and its mediation (the same flow as first marking, rounds.ts), the committee's
// decision, the history and files; and who re-marks an appeal when a student files it.

/**
 * Gives an appeal two teachers of the question who neither marked nor mediated the answer before
 * and do not coordinate the student (nor are of their team); the question's mediator only when
 * no one else is left. Fewer than two when the question has no more such teachers.
 */
export async function assignAppeal(
  ctx: ReviewsContext,
  tx: Db,
  appeal: repo.AppealRow,
  entry: repo.EntryRow,
  actorId: string,
  at: Date,
) {
  const teachers = (await ctx.questions.questionTeachersOf([appeal.itemId], tx)).get(appeal.itemId);
  const pool = teachers?.gradingTeachers ?? [];
  const before = ((await repo.findMarks(tx, [entry.id])).get(entry.id) ?? []).map(
    (m) => m.reviewerId,
  );
  const codes = await repo.findTeacherCodes(tx, pool);
  const teams = await repo.findStudentTeams(tx, [appeal.studentId]);
  const exclude = new Set([
    ...before,
    ...(entry.mediatorId ? [entry.mediatorId] : []),
    ...conflictsOf(teams.get(appeal.studentId), codes, pool),
  ]);
  const avoid = new Set(teachers?.mediatorTeacher ? [teachers.mediatorTeacher] : []);
  const picked = pickReviewers(
    pool,
    await repo.loadOfQuestion(tx, appeal.itemId),
    exclude,
    avoid,
    REVIEWERS_PER_ANSWER,
  );
  const marks = picked.map((reviewerId, i) => ({
    id: uuidv7(at.getTime()),
    parentId: appeal.id,
    round: 'appeal' as const,
    slot: i + 1,
    reviewerId,
  }));
  await repo.insertMarks(tx, marks);
  for (const m of marks) {
    await appendAudit(tx, {
      actorId,
      action: 'appeal.assigned',
      entityType: 'review_appeal',
      entityId: appeal.id,
      after: { slot: m.slot, reviewerId: m.reviewerId },
    });
  }
}

export function appeals(ctx: ReviewsContext) {
  const { db, clock } = ctx;
  const flow = markingFlow(ctx);
  const read = markingMaterial(ctx);

  return {
    async listAppeals(actor: Actor, ids: PhaseIds, filterText: string | undefined) {
      const scope = await ctx.requireScope(actor, ids);
      const filter = parseJson(filterText, appealListFilterSchema, 'filter');
      const type = filter.type ?? 'REVIEW_ITEMS';
      const page = { limit: filter.limit ?? DEFAULT_LIMIT, skip: filter.skip ?? 0 };
      const where = filter.where ?? {};
      const rows = listedByDeciding(type, scope.viewer)
        ? (
            await decidableBy(
              db,
              await repo.listAppeals(db, scope.phase.id, type, scope.viewer, where),
              scope.viewer,
            )
          ).slice(page.skip, page.skip + page.limit)
        : await repo.listAppeals(db, scope.phase.id, type, scope.viewer, where, page);
      return ctx.appealsAsSeen(db, scope, rows);
    },

    async countAppeals(actor: Actor, ids: PhaseIds, whereText: string | undefined) {
      const scope = await ctx.requireScope(actor, ids);
      const { type = 'REVIEW_ITEMS', ...where }: AppealCountWhere = parseJson(
        whereText,
        appealCountWhereSchema,
        'where',
      );
      if (listedByDeciding(type, scope.viewer)) {
        const rows = await repo.listAppeals(db, scope.phase.id, type, scope.viewer, where);
        return { count: (await decidableBy(db, rows, scope.viewer)).length };
      }
      return { count: await repo.countAppeals(db, scope.phase.id, type, scope.viewer, where) };
    },

    async getAppeal(actor: Actor, ids: PhaseIds, reviewId: string): Promise<AppealDetail> {
      const scope = await ctx.requireScope(actor, ids);
      const { row, view } = await ctx.requireAppealView(db, scope, reviewId);
      const material = await read.material(
        scope,
        view.myRole,
        row.itemId,
        row.answerId,
        Number(row.maxScore),
      );
      const answer = row.answerId ? await repo.findAnswerById(db, row.answerId) : undefined;
      const submitted = answer?.submittedAnswer;
      return {
        entry: view,
        question: material.question,
        rubric: material.rubric,
        answer: {
          ...material.answer,
          submittedAnswer:
            row.kind === 'committee' && (typeof submitted === 'string' || Array.isArray(submitted))
              ? (submitted as number[] | string)
              : null,
        },
      };
    },

    /** An appeal reviewer's mark; the second mark settles the appeal or sends it to mediation. */
    markAppeal: (
      actor: Actor,
      ids: PhaseIds,
      reviewId: string,
      input: MarkInput,
    ): Promise<ContestationEntry> => flow.saveMark(APPEAL_ROUND, actor, ids, reviewId, input),

    /** The appeal's mediator (who neither marked nor mediated the answer before) settles it. */
    mediateAppeal: (
      actor: Actor,
      ids: PhaseIds,
      reviewId: string,
      input: MarkInput,
    ): Promise<ContestationEntry> => flow.saveMediation(APPEAL_ROUND, actor, ids, reviewId, input),

    /** The exam's admins close a committee appeal, the score kept. */
    async decideAppeal(
      actor: Actor,
      ids: PhaseIds,
      reviewId: string,
      input: AppealDecisionInput,
    ): Promise<ContestationEntry> {
      const scope = await ctx.requireScope(actor, ids);
      await ctx.requireAppealView(db, scope, reviewId);
      if (!scope.viewer.manage) throw forbidden();
      return db.transaction(async (tx) => {
        await holdOpenPhase(tx, scope.phase.id);
        const row = await repo.lockAppeal(tx, scope.phase.id, reviewId);
        if (!row) throw notFound('appeal');
        if (row.kind !== 'committee') throw forbidden();
        if ((await conflictedAmong(tx, row.studentId, [actor.id])).size > 0) {
          throw conflictOfInterest();
        }
        if (input.version !== undefined && input.version !== row.version) throw stale();
        if (row.status !== 'pending') throw closed();
        const now = clock.now();
        const original = row.originalScore === null ? null : Number(row.originalScore);
        await appendAudit(tx, {
          actorId: actor.id,
          action: 'appeal.decided',
          entityType: 'review_appeal',
          entityId: row.id,
          before: { score: original },
          after: { score: original, outcome: 'kept' },
          reason: input.note,
        });
        const updated = await repo.updateAppeal(tx, row.id, {
          status: 'resolved',
          outcome: 'kept',
          finalScore: original,
          resultScore: original,
          decisionNote: input.note,
          resolvedAt: now,
        });
        const [view] = await ctx.appealsAsSeen(tx, scope, [updated]);
        if (!view) throw notFound('appeal');
        return view;
      });
    },

    async appealHistory(actor: Actor, ids: PhaseIds, reviewId: string): Promise<HistoryEvent[]> {
      const scope = await ctx.requireScope(actor, ids);
      const { row, view } = await ctx.requireAppealView(db, scope, reviewId);
      return read.history(scope, 'review_appeal', row.id, view.myRole);
    },

    async appealAnswerZip(actor: Actor, ids: PhaseIds, reviewId: string) {
      const scope = await ctx.requireScope(actor, ids);
      const { row } = await ctx.requireAppealView(db, scope, reviewId);
      if (!row.answerId) throw notFound('file');
      return read.answerZip(row.answerId, row.code);
    },

    async appealFile(actor: Actor, ids: PhaseIds, reviewId: string, fileId: string) {
      const scope = await ctx.requireScope(actor, ids);
      const { row, view } = await ctx.requireAppealView(db, scope, reviewId);
      return read.file(scope, view.myRole, row.itemId, row.answerId, fileId);
    },
  };
}
