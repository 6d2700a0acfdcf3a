import { ERROR_STATUS, type ErrorCode } from '../../../shared/errors.js';
import type { Clock } from '../clock.js';
import { AppError } from '../errors.js';
import { type ThreadRunner, ThreadTaskError } from './thread.js';

export type JobLimits = {
  /** A running job not heard of for this long is taken over by another process. */
  staleMs: number;
  /** A job claimed more often than this is given up. */
  maxTries: number;
};

/** What the runner writes of a job, whatever its kind. */
export type JobChange = {
  /** The runner writes `done` and `failed`; each kind names its states. */
  state?: string;
  total?: number;
  done?: number;
  errorCode?: string | null;
  heartbeatAt?: Date | null;
  finishedAt?: Date | null;
};

export type JobStore<Job, Change> = {
  /** The next job to make, now this process's take (claimJob of jobs.repo.ts). */
  claim(now: Date, staleBefore: Date): Promise<Job | undefined>;
  /** updateJob of jobs.repo.ts: with `take`, only while that take still holds the job. */
  update(jobId: string, change: Change, take?: number): Promise<boolean>;
};

/** A maker's hold on one job: its writes change nothing once the job was taken over. */
export type JobTake<Change extends JobChange> = {
  /**
   * Writes the job's counts and that its maker lives, after the writes asked for before it;
   * rejects when that write (or one before it) failed.
   */
  progress(counts: { done: number; total?: number }): Promise<void>;
  /** Waits for the progress writes asked for; rejects with the first that failed. */
  settled(): Promise<void>;
  /** The job made: `done` with `change`; false when another process took it over meanwhile. */
  finish(change: Change): Promise<boolean>;
};

export type JobKind<Job extends { id: string; tries: number }, Change extends JobChange> = {
  store: JobStore<Job, Change>;
  limits: JobLimits;
  make(job: Job, take: JobTake<Change>): Promise<void>;
};

/**
 * Background jobs kept in a table of their own (diploma ZIPs, paper booklets and scans),
 * made by whichever server process claims each first: claimed with SKIP LOCKED
 * (jobs.repo.ts), a heartbeat written with the progress, taken over by another process when
 * its maker went silent for `staleMs`, given up after `maxTries` takes. A take that throws
 * an AppError fails its job with that code and the runner goes on; any other error fails it
 * as GENERAL_ERROR and is thrown, for the periodic job to log. Each kind supplies its table's reads and writes and `make`, the
 * work itself; a write of the take changes nothing once another process took the job over.
 */
export function jobRunner<Job extends { id: string; tries: number }, Change extends JobChange>(
  clock: Clock,
  { store, limits, make }: JobKind<Job, Change>,
) {
  function takeOf(job: Job): JobTake<Change> {
    let writes: Promise<void> = Promise.resolve();
    let failed: { error: unknown } | undefined;
    return {
      progress(counts) {
        writes = writes.then(async () => {
          if (failed) throw failed.error;
          try {
            await store.update(
              job.id,
              { ...counts, heartbeatAt: clock.now() } as Change,
              job.tries,
            );
          } catch (error) {
            failed = { error };
            throw error;
          }
        });
        const written = writes;
        // The chain goes on after a failure; each caller hears of it through its own promise.
        writes = writes.catch(() => undefined);
        return written;
      },
      async settled() {
        await writes;
        if (failed) throw failed.error;
      },
      finish(change) {
        const now = clock.now();
        return store.update(
          job.id,
          { ...change, state: 'done', finishedAt: now, heartbeatAt: now } as Change,
          job.tries,
        );
      },
    };
  }

  const failedAs = (errorCode: string) =>
    ({ state: 'failed', errorCode, finishedAt: clock.now() }) as Change;

  return {
    /** Makes every waiting job, one after another; answers how many it took. */
    async runPending(): Promise<number> {
      let taken = 0;
      for (;;) {
        const now = clock.now();
        const job = await store.claim(now, new Date(now.getTime() - limits.staleMs));
        if (!job) return taken;
        taken += 1;
        if (job.tries > limits.maxTries) {
          await store.update(job.id, failedAs('GENERAL_ERROR'));
          continue;
        }
        try {
          await make(job, takeOf(job));
        } catch (error) {
          const code = error instanceof AppError ? error.code : 'GENERAL_ERROR';
          await store.update(job.id, failedAs(code), job.tries);
          if (!(error instanceof AppError)) throw error;
        }
      }
    },
  };
}

const isErrorCode = (code: string | undefined): code is ErrorCode =>
  code !== undefined && Object.hasOwn(ERROR_STATUS, code);

/**
 * Runs a job's task on its worker thread, each count the thread reports written as the job's
 * progress; an error the thread threw with one of the API's codes fails the job with that code.
 */
export async function runOnThread<Task, Result, Change extends JobChange>(
  thread: ThreadRunner<Task, Result, number>,
  task: Task,
  take: JobTake<Change>,
): Promise<Result> {
  let result: Result;
  try {
    result = await thread.run(task, (done) => {
      // Heard of through settled() below.
      take.progress({ done }).catch(() => undefined);
    });
  } catch (error) {
    if (error instanceof ThreadTaskError && isErrorCode(error.code)) {
      throw new AppError(error.code, error.message);
    }
    throw error;
  } finally {
    await take.settled().catch(() => undefined);
  }
  await take.settled();
  return result;
}
