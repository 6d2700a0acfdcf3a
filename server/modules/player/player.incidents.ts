import type { ExtraTimeRequest, Incident, ReopenRequest } from '../../../shared/schemas/player.js';
import { appendAudit } from '../../lib/audit.js';
import type { Actor } from '../../lib/auth-guard.js';
import { AppError, forbidden, notFound } from '../../lib/errors.js';
import { loadExamAccess } from '../exams/index.js';
import { findTestResults, withdrawAttemptScores } from '../results/index.js';
import type { PlayerContext } from './player.context.js';
import { toIncident } from './player.dto.js';
import { endLocked } from './player.ending.js';
import { canHandleIncidents, seesIncidents } from './player.policy.js';
import type { AttemptRow } from './player.repo.js';
import * as repo from './player.repo.js';

/** The notice topic of one student's attempt at one test. */
export const attemptTopic = (studentId: string, testId: string) => `attempt:${studentId}:${testId}`;

const alreadyReviewed = () => new AppError('TEST_ALREADY_REVIEWED', 'The test is finished');

/**
 * Incidents on exam day (staff: platform admins, the exam's admin teachers and staff): extra
 * time for a running attempt, and reopening one after a proven incident. Both are audited and
 * reach the student's open player at once.
 */
export function incidents(ctx: PlayerContext) {
  const { db, clock, queries } = ctx;

  /** Scope and rights for the incident calls; the test's competition decides. */
  async function incidentScope(actor: Actor, testId: string) {
    const found = await queries.studentTest(actor.id, testId);
    if (!found) throw notFound('test');
    const access = await loadExamAccess(db, actor, found.test.examId);
    if (!seesIncidents(access)) throw notFound('test');
    if (!canHandleIncidents(access)) throw forbidden();
    return found.test;
  }

  /**
   * Tells the student's open player that the deadline moved. The change is committed already;
   * a notice that cannot be sent changes nothing, the player's next state check brings it.
   */
  async function announceDeadline(attempt: AttemptRow) {
    await ctx.deps.notices
      ?.publish(attemptTopic(attempt.studentId, attempt.testId), {
        deadline: attempt.deadlineAt.toISOString(),
      })
      .catch(() => undefined);
  }

  return {
    /** Extra minutes for a running attempt (audited). An attempt already over is refused. */
    async extraTime(
      actor: Actor,
      testId: string,
      studentId: string,
      input: ExtraTimeRequest,
    ): Promise<Incident> {
      await incidentScope(actor, testId);
      const now = clock.now();
      const outcome = await db.transaction(async (tx) => {
        const attempt = await repo.findAttempt(tx, testId, studentId, 'update');
        if (!attempt) return { kind: 'missing' as const };
        if (ctx.isOverdue(attempt, now)) {
          await endLocked(ctx, tx, [attempt], 'sweeper', now);
          return { kind: 'over' as const };
        }
        if (attempt.state === 'finished') return { kind: 'over' as const };
        const seconds = input.minutes * 60;
        const updated = await repo.updateAttempt(tx, attempt.id, {
          deadlineAt: new Date(attempt.deadlineAt.getTime() + seconds * 1000),
          extraSeconds: attempt.extraSeconds + seconds,
        });
        await appendAudit(tx, {
          actorId: actor.id,
          action: 'attempt.extra_time',
          entityType: 'attempt',
          entityId: attempt.id,
          before: {
            deadlineAt: attempt.deadlineAt.toISOString(),
            extraSeconds: attempt.extraSeconds,
          },
          after: {
            deadlineAt: updated.deadlineAt.toISOString(),
            extraSeconds: updated.extraSeconds,
          },
          reason: input.reason,
        });
        return { kind: 'done' as const, attempt: updated };
      });
      if (outcome.kind === 'missing') throw notFound('attempt');
      if (outcome.kind === 'over') throw alreadyReviewed();
      await announceDeadline(outcome.attempt);
      return toIncident(outcome.attempt, now);
    },

    /**
     * Reopens an attempt after a proven incident: it runs again for exactly
     * `remainingSeconds` from now, answers kept, its points withdrawn until it ends again
     * (audited). Refused once the phase is closed (PHASE_CLOSED) or once any student of the
     * test has been shown its answer key (ANSWER_KEY_SHOWN): the key is out.
     */
    async reopen(
      actor: Actor,
      testId: string,
      studentId: string,
      input: ReopenRequest,
    ): Promise<Incident> {
      const test = await incidentScope(actor, testId);
      const now = clock.now();
      const attempt = await db.transaction(async (tx) => {
        // The phase is shared first (closing it takes it for update, then ends every running
        // attempt), so a reopen and a close never cross: one waits for the other.
        if ((await repo.sharePhaseOfTest(tx, testId)) !== 'open' || test.phaseState !== 'open') {
          throw new AppError('PHASE_CLOSED', 'The phase is closed');
        }
        const locked = await repo.findAttempt(tx, testId, studentId, 'update');
        if (!locked) return undefined;
        if (await repo.isKeyShown(tx, testId)) {
          throw new AppError('ANSWER_KEY_SHOWN', 'A student of this test has seen its answers');
        }
        const withdrawn = (await findTestResults(tx, studentId, [testId], now)).get(testId);
        const reopened = await repo.updateAttempt(tx, locked.id, {
          state: 'in_progress',
          deadlineAt: new Date(now.getTime() + input.remainingSeconds * 1000),
          finishedAt: null,
          finishedBy: null,
        });
        await withdrawAttemptScores(tx, { testId, studentId }, now);
        await appendAudit(tx, {
          actorId: actor.id,
          action: 'attempt.reopen',
          entityType: 'attempt',
          entityId: locked.id,
          before: {
            state: locked.state,
            score: withdrawn?.score ?? null,
            deadlineAt: locked.deadlineAt.toISOString(),
            finishedAt: locked.finishedAt?.toISOString() ?? null,
            finishedBy: locked.finishedBy,
          },
          after: {
            state: 'in_progress',
            deadlineAt: reopened.deadlineAt.toISOString(),
            remainingSeconds: input.remainingSeconds,
          },
          reason: input.reason,
        });
        return reopened;
      });
      if (!attempt) throw notFound('attempt');
      await announceDeadline(attempt);
      return toIncident(attempt, now);
    },
  };
}
