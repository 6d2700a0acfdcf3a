import type { FastifyInstance } from 'fastify';

/**
 * A job run every few seconds inside the server process. Jobs keep their state in the
 * database and must be safe to run on several instances at once (they lock rows with
 * SKIP LOCKED); this runner only makes sure one process never overlaps two runs of the same
 * job, that a failing run is logged and retried at the next tick, and that stopping waits for
 * the run in progress.
 */
export type PeriodicJob = {
  /** Runs once now (also what each tick does); resolves when that run ends. */
  runNow(): Promise<void>;
  stop(): Promise<void>;
};

export type PeriodicJobOptions = {
  name: string;
  intervalMs: number;
  run: () => Promise<unknown>;
  log: { error(obj: object, msg?: string): void };
};

export function startPeriodicJob({ name, intervalMs, run, log }: PeriodicJobOptions): PeriodicJob {
  let current: Promise<void> | null = null;
  let stopped = false;

  const runNow = () => {
    if (!current) {
      current = run()
        .then(() => undefined)
        .catch((err: unknown) => log.error({ err, job: name }, 'periodic job failed'))
        .finally(() => {
          current = null;
        });
    }
    return current;
  };

  const timer = setInterval(() => {
    if (!stopped) void runNow();
  }, intervalMs);
  // The job never keeps the process alive on its own.
  timer.unref();

  return {
    runNow,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await current;
    },
  };
}

/**
 * Runs a job in this server process from when it is ready until it closes (closing waits for
 * the run in progress). `runAtStart` runs it once as the server becomes ready: `await` before
 * it answers requests, `background` beside them. `wake` starts a run between ticks (one
 * already running is not doubled), `wakeDelayMs` after it is called when that is set (wakes in
 * the meantime share that one run); before the server is ready, or after it closed, it does
 * nothing.
 */
export function registerPeriodicJob(
  app: FastifyInstance,
  options: Omit<PeriodicJobOptions, 'log'> & {
    runAtStart?: 'await' | 'background';
    wakeDelayMs?: number;
  },
): { wake(): void } {
  let job: PeriodicJob | null = null;
  let soon: NodeJS.Timeout | undefined;
  app.addHook('onReady', async () => {
    job = startPeriodicJob({ ...options, log: app.log });
    if (options.runAtStart === 'await') await job.runNow();
    else if (options.runAtStart === 'background') void job.runNow();
  });
  app.addHook('onClose', async () => {
    const stopping = job;
    job = null;
    clearTimeout(soon);
    soon = undefined;
    await stopping?.stop();
  });
  return {
    wake() {
      if (!job) return;
      if (!options.wakeDelayMs) {
        void job.runNow();
        return;
      }
      if (soon) return;
      soon = setTimeout(() => {
        soon = undefined;
        void job?.runNow();
      }, options.wakeDelayMs);
      soon.unref();
    },
  };
}
