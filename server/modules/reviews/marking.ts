import {
  type AdminDecisionPhase,
  type HistoryEvent,
  type MarkerPhase,
  type MarkInput,
  type ReviewDetail,
  type ReviewEntry,
  type ReviewScope,
  reviewCountWhereSchema,
  reviewListFilterSchema,
} from '../../../shared/schemas/reviews.js';
import type { Actor } from '../../lib/auth-guard.js';
import type { PhaseIds } from '../../lib/route-params.js';
import { DEFAULT_LIMIT, parseJson, type ReviewsContext } from './context.js';
import { conflictedStudents, decidableBy, listedByDeciding } from './deciders.js';
import { markingMaterial } from './material.js';
import * as repo from './reviews.repo.js';
import { markingFlow, REVIEW_ROUND } from './rounds.js';

// First marking, the markers' side: where a teacher marks, the lists, a paper with what to
// read beside it, the mark and the mediation, the paper's history and files.

export function marking(ctx: ReviewsContext) {
  const { db } = ctx;
  const flow = markingFlow(ctx);
  const read = markingMaterial(ctx);

  return {
    /** The phases where the caller marks or mediates, with their work still open in each. */
    async myPhases(actor: Actor): Promise<MarkerPhase[]> {
      const rows = await repo.findMarkerPhases(db, actor.id);
      // Mediations count where the rules let the teacher decide them, as their lists show them.
      const asked = await repo.findMediationsAskedOf(db, actor.id);
      const viewer = { id: actor.id, whole: false, manage: false };
      const perPhase = (decidable: { phaseId: string }[]) =>
        decidable.reduce(
          (m, r) => m.set(r.phaseId, (m.get(r.phaseId) ?? 0) + 1),
          new Map<string, number>(),
        );
      const mediations = perPhase(await decidableBy(db, asked.entries, viewer));
      const appealMediations = perPhase(await decidableBy(db, asked.appeals, viewer));
      // Marks count while the teacher may still give them: not for a student who named them
      // (or their team) coordinator after they were assigned, as saving such a mark refuses.
      const open = await repo.findOpenMarksOf(db, actor.id);
      const barred = await conflictedStudents(
        db,
        actor.id,
        open.map((m) => m.student_id),
      );
      const counting = open.filter((m) => !barred.has(m.student_id));
      const reviews = perPhase(
        counting.filter((m) => m.round === 'review').map((m) => ({ phaseId: m.phase_id })),
      );
      const appeals = perPhase(
        counting.filter((m) => m.round === 'appeal').map((m) => ({ phaseId: m.phase_id })),
      );
      return rows.map((r) => ({
        examId: r.exam_id,
        examName: r.exam_name,
        editionId: r.edition_id,
        editionName: r.edition_name,
        phaseId: r.phase_id,
        phaseName: r.phase_name,
        phaseType: r.phase_type,
        reviewStarted: r.review_started,
        roles: [
          ...(r.is_reviewer ? (['reviewer'] as const) : []),
          ...(r.is_mediator ? (['mediator'] as const) : []),
        ],
        open: {
          reviews: reviews.get(r.phase_id) ?? 0,
          mediations: mediations.get(r.phase_id) ?? 0,
          appeals: appeals.get(r.phase_id) ?? 0,
          appealMediations: appealMediations.get(r.phase_id) ?? 0,
        },
      }));
    },

    /**
     * Where appeals wait for the caller as an exam admin (the menu's badge): per phase, the
     * appeals the rules give to the exam's admins and let the caller decide.
     */
    async adminDecisions(actor: Actor): Promise<AdminDecisionPhase[]> {
      const asked = await repo.findAppealsAskedOfAdmin(db, actor.id, actor.type === 'admin');
      const viewer = { id: actor.id, whole: true, manage: true };
      const perPhase = new Map<string, AdminDecisionPhase>();
      for (const r of await decidableBy(db, asked, viewer)) {
        const phase = perPhase.get(r.phaseId) ?? {
          examId: r.examId,
          examName: r.examName,
          editionId: r.editionId,
          phaseId: r.phaseId,
          phaseName: r.phaseName,
          appeals: 0,
        };
        phase.appeals += 1;
        perPhase.set(r.phaseId, phase);
      }
      return [...perPhase.values()];
    },

    /** The phase as the marking screens show it, and what the caller may do there. */
    async reviewScope(actor: Actor, ids: PhaseIds): Promise<ReviewScope> {
      const scope = await ctx.requireScope(actor, ids);
      return {
        examId: scope.exam.id,
        examName: scope.exam.name,
        editionId: scope.edition.id,
        editionName: scope.edition.name,
        phaseId: scope.phase.id,
        phaseName: scope.phase.name,
        phaseType: scope.phase.type,
        reviewStarted: scope.phase.reviewStarted,
        seesWholePhase: scope.viewer.whole,
        managesExam: scope.viewer.manage,
      };
    },

    async listReviews(actor: Actor, ids: PhaseIds, filterText: string | undefined) {
      const scope = await ctx.requireScope(actor, ids);
      const filter = parseJson(filterText, reviewListFilterSchema, 'filter');
      const type = filter.type ?? 'REVIEW_ITEMS';
      const page = { limit: filter.limit ?? DEFAULT_LIMIT, skip: filter.skip ?? 0 };
      const where = filter.where ?? {};
      const rows = listedByDeciding(type, scope.viewer)
        ? (
            await decidableBy(
              db,
              await repo.listEntries(db, scope.phase.id, type, scope.viewer, where),
              scope.viewer,
            )
          ).slice(page.skip, page.skip + page.limit)
        : await repo.listEntries(db, scope.phase.id, type, scope.viewer, where, page);
      return ctx.entriesAsSeen(db, scope, rows);
    },

    async countReviews(actor: Actor, ids: PhaseIds, whereText: string | undefined) {
      const scope = await ctx.requireScope(actor, ids);
      const { type = 'REVIEW_ITEMS', ...where } = parseJson(
        whereText,
        reviewCountWhereSchema,
        'where',
      );
      if (listedByDeciding(type, scope.viewer)) {
        const rows = await repo.listEntries(db, scope.phase.id, type, scope.viewer, where);
        return { count: (await decidableBy(db, rows, scope.viewer)).length };
      }
      return { count: await repo.countEntries(db, scope.phase.id, type, scope.viewer, where) };
    },

    async getReview(actor: Actor, ids: PhaseIds, reviewId: string): Promise<ReviewDetail> {
      const scope = await ctx.requireScope(actor, ids);
      const { row, view } = await ctx.requireEntryView(db, scope, reviewId);
      return {
        entry: view,
        ...(await read.material(
          scope,
          view.myRole,
          row.itemId,
          row.answerId,
          view.reviewInfo.maxScore,
        )),
      };
    },

    /** An assigned reviewer's mark; the second mark decides the entry. */
    markReview: (
      actor: Actor,
      ids: PhaseIds,
      reviewId: string,
      input: MarkInput,
    ): Promise<ReviewEntry> => flow.saveMark(REVIEW_ROUND, actor, ids, reviewId, input),

    /** The question's mediator decides an entry whose marks differ too much. */
    mediateReview: (
      actor: Actor,
      ids: PhaseIds,
      reviewId: string,
      input: MarkInput,
    ): Promise<ReviewEntry> => flow.saveMediation(REVIEW_ROUND, actor, ids, reviewId, input),

    async reviewHistory(actor: Actor, ids: PhaseIds, reviewId: string): Promise<HistoryEvent[]> {
      const scope = await ctx.requireScope(actor, ids);
      const { row, view } = await ctx.requireEntryView(db, scope, reviewId);
      return read.history(scope, 'review_entry', row.id, view.myRole);
    },

    async reviewAnswerZip(actor: Actor, ids: PhaseIds, reviewId: string) {
      const scope = await ctx.requireScope(actor, ids);
      const { row } = await ctx.requireEntryView(db, scope, reviewId);
      return read.answerZip(row.answerId, row.code);
    },

    async reviewFile(actor: Actor, ids: PhaseIds, reviewId: string, fileId: string) {
      const scope = await ctx.requireScope(actor, ids);
      const { row, view } = await ctx.requireEntryView(db, scope, reviewId);
      return read.file(scope, view.myRole, row.itemId, row.answerId, fileId);
    },
  };
}
