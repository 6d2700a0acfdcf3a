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
