import type { PhaseOpenScores } from '../../../shared/schemas/exams.js';
import type { Db } from '../../db/client.js';
import { appendAudit } from '../../lib/audit.js';
import { AppError } from '../../lib/errors.js';
import { answerOf, type ReviewsContext } from './context.js';
import { lacksMarkers } from './deciders.js';
import * as repo from './reviews.repo.js';

// The review's side of closing a phase: what still has no final score, and how the open work
// the organiser accepted ends. Runs in the closing transaction, under the phase row lock.

/** What the organiser accepts to leave unfinished when closing (exactly the open ids). */
export type AcceptedOpen = { reviewIds?: readonly string[]; appealIds?: readonly string[] };

const sameSet = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && new Set(a).size === b.length && a.every((x) => b.includes(x));

export function closing(ctx: ReviewsContext) {
  return {
    /**
     * Refuses to close (RESULTS_INCOMPLETE, details: PhaseOpenScores) while a score of the phase
     * is not final, unless `accepted` names exactly the open entries and appeals and no answer
     * waits without an entry. The accepted ones are settled, audited, so every total is final:
     * - an open appeal ends `kept` at its original score: the student's score stood when they
     *   filed it and only a finished re-marking may move it;
     * - an open entry ends final at 0: an olympiad awards only points markers gave, and a
     *   paper nobody finished marking earns none; the organiser accepted that by name.
     * Answers what was settled.
     */
    async settleOpenScores(
      tx: Db,
      phaseId: string,
      accepted: AcceptedOpen | undefined,
      actorId: string,
      at: Date,
    ): Promise<{ reviewIds: string[]; appealIds: string[] }> {
      const entries = await repo.lockOpenEntries(tx, phaseId);
      const appeals = await repo.lockOpenAppeals(tx, phaseId);
      const unmarked = (await repo.findAnswersToMark(tx, phaseId)).length;
      const appealMarks = await repo.findMarks(
        tx,
        appeals.map((a) => a.id),
      );
      // Named apart: no re-marking will ever settle them, only the exam's admins.
      const shortAppealIds = appeals
        .filter((a) => lacksMarkers(a, appealMarks.get(a.id) ?? []))
        .map((a) => a.id);
      const open: PhaseOpenScores = {
        reviews: entries.filter((e) => e.status === 'marking').length,
        mediations: entries.filter((e) => e.status === 'needs_mediation').length,
        appeals: appeals.length,
        appealMediations: appeals.filter((a) => a.status === 'needs_mediation').length,
        unmarkedAnswers: unmarked,
        appealsWithoutMarkers: shortAppealIds.length,
        shortAppealIds,
        reviewIds: entries.map((e) => e.id),
        appealIds: appeals.map((a) => a.id),
      };
      const nothingOpen = entries.length === 0 && appeals.length === 0 && unmarked === 0;
      if (nothingOpen) return { reviewIds: [], appealIds: [] };
      const acceptsAll =
        accepted !== undefined &&
        unmarked === 0 &&
        sameSet(accepted.reviewIds ?? [], open.reviewIds) &&
        sameSet(accepted.appealIds ?? [], open.appealIds);
      if (!acceptsAll) {
        throw new AppError('RESULTS_INCOMPLETE', 'Scores of the phase are not final', open);
      }
      for (const a of appeals) {
        const original = a.originalScore === null ? null : Number(a.originalScore);
        await repo.updateAppeal(tx, a.id, {
          status: 'resolved',
          outcome: 'kept',
          finalScore: original,
          resultScore: original,
          resolvedAt: at,
        });
        await appendAudit(tx, {
          actorId,
          action: 'appeal.closed_open',
          entityType: 'review_appeal',
          entityId: a.id,
          before: { status: a.status, score: original },
          after: { status: 'resolved', outcome: 'kept', score: original },
          reason: 'phase.close',
        });
      }
      for (const e of entries) {
        await ctx.recordFinal(tx, answerOf(e), 0, 'marked', at);
        await repo.updateEntry(tx, e.id, { status: 'final', finalScore: 0 });
        await appendAudit(tx, {
          actorId,
          action: 'review.closed_open',
          entityType: 'review_entry',
          entityId: e.id,
          before: { status: e.status, score: null },
          after: { status: 'final', score: 0 },
          reason: 'phase.close',
        });
      }
      return { reviewIds: open.reviewIds, appealIds: open.appealIds };
    },
  };
}
