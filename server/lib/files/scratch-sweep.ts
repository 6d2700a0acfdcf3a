import type { FastifyInstance } from 'fastify';
import type { Clock } from '../clock.js';
import { registerPeriodicJob } from '../jobs/periodic.js';
import type { FileStorage } from './storage.js';

/**
 * A scratch file older than this was left by a process stopped mid-write (a diploma ZIP takes
 * seconds to minutes, an upload's copy less): nothing will ever store it.
 */
export const SCRATCH_KEEP_HOURS = 24;
const SWEEP_EVERY_MS = 60 * 60_000;

/**
 * Removes forgotten scratch files when the server starts and every hour after, in this process;
 * stops with the server. Several processes sharing a DATA_DIR may sweep it at once: each file
 * removed is long forgotten, and a file gone meanwhile is skipped.
 */
export function registerScratchSweep(
  app: FastifyInstance,
  storage: Pick<FileStorage, 'removeScratchBefore'>,
  clock: Clock,
): void {
  registerPeriodicJob(app, {
    name: 'scratch-sweep',
    intervalMs: SWEEP_EVERY_MS,
    run: async () => {
      const before = new Date(clock.now().getTime() - SCRATCH_KEEP_HOURS * 3_600_000);
      const removed = await storage.removeScratchBefore(before);
      if (removed > 0) app.log.info({ removed }, 'forgotten scratch files removed');
    },
    runAtStart: 'background',
  });
}
