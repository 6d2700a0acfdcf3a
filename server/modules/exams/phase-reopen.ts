import {
  type PhaseReopenInput,
  type PhaseReopenResult,
  REOPEN_ALLOWS,
} from '../../../shared/schemas/phase-reopen.js';
import type { Db } from '../../db/client.js';
import { appendAudit } from '../../lib/audit.js';
import type { Actor } from '../../lib/auth-guard.js';
import type { Clock } from '../../lib/clock.js';
import { AppError, forbidden, notFound } from '../../lib/errors.js';
import { lockEdition } from './editions.repo.js';
import { requirePhase } from './exams.access.js';
import { toPhaseDto } from './exams.dto.js';
import { canManageExam } from './exams.policy.js';
import * as repo from './phases.repo.js';

// Reopening a closed phase for a correction (issue 31: "an explicit, audited reopening that
// re-runs the rules and says who changes"). The phase is simply open again, so every write a
// closed phase refuses is accepted; closing it again is the ordinary finish, which compares
// each student's standing with the one kept at this close.

export type PhaseReopenDeps = {
  db: Db;
  clock: Clock;
  /**
   * Keeps the closed standings if the close kept none (the rankings module's), in the
   * reopening transaction; answers how many are kept.
   */
  keepClosedStandings: (tx: Db, phaseId: string, closedAt: Date) => Promise<number>;
};

/**
 * A closed phase's decisions may already have been acted on by a later phase of the edition,
 * and a correction must not undo that behind anyone's back:
 * - a later phase that started (its start date passed, its review started, or it closed)
 *   rests on who took part in it: NEXT_PHASE_STARTED;
 * - students this close admitted and enrolled in the next phase were told they qualified; a
 *   corrected total could take that back, which is a decision of its own, not a correction:
 *   STUDENTS_ADVANCED.
 * So a phase reopens when nothing after it depends on it: the last phase of an edition (its
 * prizes and diplomas), or one that admitted nobody to a phase that has not started.
 */
function checkNothingDependsOn(
  later: readonly repo.PhaseRow[],
  advancedIntoNext: number,
  now: Date,
): void {
  const started = later.find((p) => p.startDate <= now || p.reviewStarted || p.state === 'closed');
  if (started) {
    throw new AppError('NEXT_PHASE_STARTED', 'A later phase of the edition has started', {
      phaseId: started.id,
    });
  }
  const next = later[0];
  if (next && advancedIntoNext > 0) {
    throw new AppError('STUDENTS_ADVANCED', 'Admitted students are in the next phase', {
      phaseId: next.id,
      count: advancedIntoNext,
    });
  }
}

export function phaseReopenService({ db, clock, keepClosedStandings }: PhaseReopenDeps) {
  return {
    /**
     * Reopens a closed phase (exam managers, as for closing it), with a written reason,
     * audited: its scores, appeals, rules and decisions take writes again until it is closed
     * again. Refused with PHASE_NOT_CLOSED, NEXT_PHASE_STARTED or STUDENTS_ADVANCED.
     */
    async reopenPhase(
      actor: Actor,
      examId: string,
      editionId: string,
      phaseId: string,
      input: PhaseReopenInput,
    ): Promise<PhaseReopenResult> {
      const { access } = await requirePhase(db, actor, examId, editionId, phaseId);
      if (!canManageExam(access)) throw forbidden();
      return db.transaction(async (tx) => {
        // Share on the edition, as closing: no phase is created or moved while we look.
        if (!(await lockEdition(tx, editionId, 'share'))) throw notFound('edition');
        const row = await repo.lockPhase(tx, phaseId, 'update');
        if (!row) throw notFound('phase');
        if (row.state !== 'closed') {
          throw new AppError('PHASE_NOT_CLOSED', 'Only a closed phase can be reopened');
        }
        const now = clock.now();
        const ordered = await repo.findEditionPhases(tx, editionId);
        const later = ordered.slice(ordered.findIndex((p) => p.id === phaseId) + 1);
        const advanced = later[0] ? await repo.countAdvanced(tx, later[0].id) : 0;
        checkNothingDependsOn(later, advanced, now);
        const kept = await keepClosedStandings(tx, phaseId, row.closedAt ?? now);
        const reopened = await repo.updatePhase(tx, phaseId, { state: 'open', closedAt: null });
        if (!reopened) throw notFound('phase');
        await appendAudit(tx, {
          actorId: actor.id,
          action: 'phase.reopen',
          entityType: 'phase',
          entityId: phaseId,
          before: { state: row.state, closedAt: row.closedAt },
          after: { state: 'open', keptStandings: kept },
          reason: input.reason,
        });
        return {
          ...toPhaseDto(reopened, examId),
          reopen: {
            reason: input.reason,
            reopenedAt: now.toISOString(),
            reopenedBy: actor.id,
            keptStandings: kept,
            allows: [...REOPEN_ALLOWS],
          },
        };
      });
    },
  };
}

export type PhaseReopenService = ReturnType<typeof phaseReopenService>;
