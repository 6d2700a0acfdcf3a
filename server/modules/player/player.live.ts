import {
  LIVE_MINUTES,
  type LiveCounts,
  type LiveResponse,
  MAX_DISCONNECTED_LISTED,
  SIGNED_IN_MINUTES,
  WRITING_SECONDS,
} from '../../../shared/schemas/exam-day.js';
import type { Actor } from '../../lib/auth-guard.js';
import { requirePhase } from '../exams/index.js';
import { quantileOf } from './exam-day-stats.js';
import type { PlayerContext } from './player.context.js';
import * as repo from './player.live.repo.js';
import { liveScopeOwner } from './player.policy.js';

export type PhaseIds = { examId: string; editionId: string; phaseId: string };

const iso = (value: Date | string) => new Date(value).toISOString();
const NO_COUNTS: LiveCounts = {
  registered: 0,
  signedIn: 0,
  started: 0,
  writing: 0,
  finished: 0,
  disconnected: 0,
};

const countsOf = (row: repo.LiveCountRow | undefined): LiveCounts =>
  row
    ? {
        registered: row.registered,
        signedIn: row.signed_in,
        started: row.started,
        writing: row.writing,
        finished: row.finished,
        disconnected: row.disconnected,
      }
    : NO_COUNTS;

/**
 * The exam-day panel of a phase (staff: every student; a coordinator: their own), read from
 * the database alone, so every instance answers the same. `flushStats` first adds this
 * process's own counts, so the answering instance is never behind.
 */
export function livePanel(ctx: PlayerContext, flushStats: () => Promise<void>) {
  const { db, clock } = ctx;
  return {
    /** Counts, disconnected students and answer-write figures of the phase's tests. */
    async live(actor: Actor, ids: PhaseIds): Promise<LiveResponse> {
      const { access } = await requirePhase(db, actor, ids.examId, ids.editionId, ids.phaseId);
      const ownerId = liveScopeOwner(actor, access);
      await flushStats().catch(() => undefined);
      const now = clock.now();
      const at: repo.LiveMoments = {
        now,
        cutoff: ctx.cutoffOf(now),
        writingSince: new Date(now.getTime() - WRITING_SECONDS * 1000),
        signedInSince: new Date(now.getTime() - SIGNED_IN_MINUTES * 60_000),
      };
      const firstMinute = Math.floor(now.getTime() / 60_000) * 60_000 - (LIVE_MINUTES - 1) * 60_000;
      const [tests, counts, quiet, stats] = await Promise.all([
        repo.phaseTests(db, ids.phaseId),
        repo.liveCounts(db, ids.phaseId, ownerId, at),
        repo.disconnectedStudents(db, ids.phaseId, ownerId, at, MAX_DISCONNECTED_LISTED),
        repo.answerWriteStats(db, ids.phaseId, new Date(firstMinute)),
      ]);
      const byTest = new Map(counts.filter((r) => r.is_total === 0).map((r) => [r.test_id, r]));
      const byMinute = new Map(stats.map((s) => [new Date(s.minute).getTime(), s]));
      const merged: number[] = [];
      const minutes = Array.from({ length: LIVE_MINUTES }, (_, i) => {
        const minute = firstMinute + i * 60_000;
        const s = byMinute.get(minute);
        const latency = (s?.latency ?? []).map(Number);
        latency.forEach((n, b) => {
          merged[b] = (merged[b] ?? 0) + n;
        });
        return {
          minute: new Date(minute).toISOString(),
          writes: Number(s?.writes ?? 0),
          errors: Number(s?.errors ?? 0),
          p99Ms: quantileOf(latency, 0.99),
        };
      });
      return {
        serverNow: now.toISOString(),
        scope: ownerId === undefined ? 'phase' : 'own',
        total: countsOf(counts.find((r) => r.is_total === 1)),
        tests: tests.map((t) => ({
          testId: t.id,
          name: t.name,
          grades: t.grades.map(Number),
          startDate: iso(t.start_date),
          endDate: iso(t.end_date),
          ...countsOf(byTest.get(t.id)),
        })),
        minutes,
        writes: minutes.reduce((sum, m) => sum + m.writes, 0),
        errors: minutes.reduce((sum, m) => sum + m.errors, 0),
        p99Ms: quantileOf(merged, 0.99),
        processes: Number(stats[0]?.instances ?? 0),
        disconnected: quiet.map((r) => ({
          studentId: r.student_id,
          familyName: r.family_name,
          givenName: r.given_name,
          school: r.school,
          grade: r.grade === null ? null : Number(r.grade),
          testId: r.test_id,
          lastSeenAt: iso(r.seen_at),
        })),
      };
    },
  };
}
