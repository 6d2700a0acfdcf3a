import type { Db } from '../../db/client.js';
import { appendAudits } from '../../lib/audit.js';
import { scoreEndedAttempts } from '../results/index.js';
import type { PlayerContext } from './player.context.js';
import type { AttemptRow } from './player.repo.js';
import * as repo from './player.repo.js';

// How an attempt ends, by one rule in one place, whoever ends it: the student's finish (on
// exam day's fast path or the careful one), the sweeper at the deadline plus grace, a read that
// finds it overdue, and closing its phase. The attempt moves to `finished` once, under its row
// lock; its answers are handed to the results module to be scored in the same transaction;
// the end is audited.

export type FinishedBy = NonNullable<AttemptRow['finishedBy']>;

/** An attempt that ended, with the points the results module gave it. */
export type EndedAttempt = {
  attempt: AttemptRow;
  points: number;
  awaitingItems: number;
};

/** Who ended it, for the audit trail: the student on their own finish, else nobody in person. */
export type EndActor = (attempt: AttemptRow) => string | null;

/**
 * What happens after attempts moved to `finished` in this transaction: their items are scored
 * and the ends audited. Answers each attempt with its result, in the given order.
 */
export async function afterEnding(
  tx: Db,
  ended: readonly AttemptRow[],
  actorOf: EndActor,
  now: Date,
): Promise<EndedAttempt[]> {
  if (ended.length === 0) return [];
  const results = await scoreEndedAttempts(
    tx,
    ended.map((a) => ({ attemptId: a.id, testId: a.testId, studentId: a.studentId })),
    now,
  );
  const withResults = ended.map((attempt) => {
    const result = results.get(attempt.id) ?? { points: 0, awaitingItems: 0 };
    return { attempt, ...result };
  });
  await appendAudits(
    tx,
    withResults.map(({ attempt, points, awaitingItems }) => ({
      actorId: actorOf(attempt),
      action: 'attempt.finish',
      entityType: 'attempt',
      entityId: attempt.id,
      before: { state: 'in_progress' },
      after: {
        state: 'finished',
        score: points,
        awaitingItems,
        finishedBy: attempt.finishedBy,
        finishedAt: attempt.finishedAt?.toISOString() ?? null,
      },
    })),
  );
  return withResults;
}

/**
 * The moment an attempt ends: the sweeper (and a late read) records the deadline; anyone else
 * the moment they asked, never past the deadline.
 */
export function endMoment(attempt: AttemptRow, by: FinishedBy, now: Date): Date {
  return by === 'sweeper'
    ? attempt.deadlineAt
    : new Date(Math.min(now.getTime(), attempt.deadlineAt.getTime()));
}

/**
 * Ends running attempts the caller holds locked. One already past its deadline plus grace
 * ends as the sweeper's, at its deadline, whoever asked.
 */
export async function endLocked(
  ctx: PlayerContext,
  tx: Db,
  locked: readonly AttemptRow[],
  by: FinishedBy,
  now: Date,
  actorOf: EndActor = () => null,
): Promise<EndedAttempt[]> {
  const running = locked.filter((a) => a.state === 'in_progress');
  const ends = running.map((attempt) => {
    const how = ctx.isOverdue(attempt, now) ? 'sweeper' : by;
    return { id: attempt.id, finishedAt: endMoment(attempt, how, now), finishedBy: how };
  });
  const ended = await repo.endAttempts(tx, ends);
  return afterEnding(tx, ended, (a) => (a.finishedBy === 'student' ? actorOf(a) : null), now);
}

/** Most attempts one sweeper transaction finalises. */
const SWEEP_BATCH = 50;

export function attemptEnding(ctx: PlayerContext) {
  const { db, clock } = ctx;
  return {
    /** The attempt as it stands now: one past its deadline plus grace is finalised first. */
    async settle(attempt: AttemptRow | undefined, now: Date): Promise<AttemptRow | undefined> {
      if (!attempt || !ctx.isOverdue(attempt, now)) return attempt;
      return db.transaction(async (tx) => {
        const locked = await repo.findAttempt(tx, attempt.testId, attempt.studentId, 'update');
        if (!locked || !ctx.isOverdue(locked, now)) return locked;
        const [ended] = await endLocked(ctx, tx, [locked], 'sweeper', now);
        return ended?.attempt ?? locked;
      });
    },

    /**
     * Finalises every attempt past its deadline plus grace with its stored answers (finish
     * time = deadline, by 'sweeper'). Safe to run anywhere at any time: rows another
     * instance holds are skipped. Returns how many it finalised.
     */
    async sweep(): Promise<number> {
      const now = clock.now();
      const cutoff = ctx.cutoffOf(now);
      let total = 0;
      for (;;) {
        const count = await db.transaction(async (tx) => {
          const overdue = await repo.lockOverdueAttempts(tx, cutoff, SWEEP_BATCH);
          return (await endLocked(ctx, tx, overdue, 'sweeper', now)).length;
        });
        total += count;
        if (count < SWEEP_BATCH) return total;
      }
    },

    /**
     * Ends every attempt of the phase's tests still running, in the caller's transaction (the
     * one closing the phase, which holds the phase locked): they finish now, by 'closed', and
     * are scored before admissions are counted. An answer in flight either committed before
     * (and is scored) or finds the attempt finished. Returns how many it ended.
     */
    async endRunningAttemptsOfPhase(tx: Db, phaseId: string, now: Date): Promise<number> {
      const running = await repo.lockRunningAttemptsOfPhase(tx, phaseId);
      return (await endLocked(ctx, tx, running, 'closed', now)).length;
    },
  };
}

export type AttemptEnding = ReturnType<typeof attemptEnding>;
