import type { FastifyInstance } from 'fastify';
import { registerPeriodicJob } from '../../lib/jobs/periodic.js';
import type { PlayerService } from './player.service.js';

/**
 * Runs the sweeper in this server process: once when the server is ready (reconciling
 * whatever a crash left overdue) and then every `intervalSeconds`; stopped when the server
 * closes. Several instances may each run it: finalisation locks rows with SKIP LOCKED.
 * `intervalSeconds` 0 turns it off (a deployment that runs it elsewhere).
 */
export function registerSweeper(
  app: FastifyInstance,
  player: Pick<PlayerService, 'sweep'>,
  intervalSeconds: number,
): void {
  if (intervalSeconds <= 0) return;
  registerPeriodicJob(app, {
    name: 'attempt-sweeper',
    intervalMs: intervalSeconds * 1000,
    run: async () => {
      const finalised = await player.sweep();
      if (finalised > 0) app.log.info({ finalised }, 'sweeper finalised overdue attempts');
    },
    runAtStart: 'await',
  });
}

/** How often each process adds its answer-write counts to `exam_day_stats`. */
const STATS_FLUSH_MS = 5_000;

/**
 * Adds this process's answer-write counts to `exam_day_stats` every 5 s (the exam-day panel
 * merges every process's rows), and once more when the server closes.
 */
export function registerExamDayStats(
  app: FastifyInstance,
  player: Pick<PlayerService, 'answerStats'>,
): void {
  registerPeriodicJob(app, {
    name: 'exam-day-stats',
    intervalMs: STATS_FLUSH_MS,
    run: () => player.answerStats.flush(),
  });
  app.addHook('onClose', async () => {
    await player.answerStats.flush().catch((err: unknown) => {
      app.log.error({ err }, 'exam-day stats not written at close');
    });
  });
}
