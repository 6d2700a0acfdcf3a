import { describe, expect, it } from 'vitest';
import { AppError } from '../errors.js';
import {
  type JobChange,
  type JobKind,
  type JobStore,
  type JobTake,
  jobRunner,
  runOnThread,
} from './runner.js';
import { type ThreadRunner, ThreadTaskError } from './thread.js';

type Job = { id: string; tries: number };
type Write = { jobId: string; change: JobChange; take: number | undefined };

const NOW = new Date('2026-11-29T10:00:00Z');
const clock = { now: () => NOW };
const LIMITS = { staleMs: 120_000, maxTries: 3 };

/** Jobs waiting in memory, claimed in order; every write noted. */
function memoryStore(waiting: Job[]) {
  const writes: Write[] = [];
  const claims: Date[] = [];
  let failWrites = false;
  const store: JobStore<Job, JobChange> = {
    async claim(_now, staleBefore) {
      claims.push(staleBefore);
      const next = waiting.shift();
      return next && { ...next, tries: next.tries + 1 };
    },
    async update(jobId, change, take) {
      if (failWrites) throw new Error('database away');
      writes.push({ jobId, change, take });
      return true;
    },
  };
  return {
    store,
    writes,
    claims,
    failWrites: () => {
      failWrites = true;
    },
  };
}

const fresh = (...ids: string[]): Job[] => ids.map((id) => ({ id, tries: 0 }));

function runnerOver(waiting: Job[], make: JobKind<Job, JobChange>['make']) {
  const memory = memoryStore(waiting);
  return { memory, runner: jobRunner(clock, { store: memory.store, limits: LIMITS, make }) };
}

describe('jobRunner', () => {
  it('makes every waiting job under its take: progress with a heartbeat, then done', async () => {
    const made: string[] = [];
    const waiting = [...fresh('a'), { id: 'b', tries: 1 }];
    const { memory, runner } = runnerOver(waiting, async (job, take) => {
      made.push(job.id);
      await take.progress({ total: 2, done: 0 });
      expect(await take.finish({ done: 2 })).toBe(true);
    });
    expect(await runner.runPending()).toBe(2);
    expect(made).toEqual(['a', 'b']);
    // A job not heard of for staleMs is claimable again.
    expect(memory.claims[0]).toEqual(new Date(NOW.getTime() - 120_000));
    expect(memory.writes).toEqual([
      { jobId: 'a', change: { total: 2, done: 0, heartbeatAt: NOW }, take: 1 },
      {
        jobId: 'a',
        change: { done: 2, state: 'done', finishedAt: NOW, heartbeatAt: NOW },
        take: 1,
      },
      { jobId: 'b', change: { total: 2, done: 0, heartbeatAt: NOW }, take: 2 },
      {
        jobId: 'b',
        change: { done: 2, state: 'done', finishedAt: NOW, heartbeatAt: NOW },
        take: 2,
      },
    ]);
  });

  it('gives up a job claimed more than maxTries times without making it', async () => {
    let made = 0;
    const { memory, runner } = runnerOver([{ id: 'a', tries: 3 }], async () => {
      made += 1;
    });
    expect(await runner.runPending()).toBe(1);
    expect(made).toBe(0);
    expect(memory.writes).toEqual([
      {
        jobId: 'a',
        change: { state: 'failed', errorCode: 'GENERAL_ERROR', finishedAt: NOW },
        take: undefined,
      },
    ]);
  });

  it("fails a job with its AppError's code and goes on to the next", async () => {
    const { memory, runner } = runnerOver(fresh('a', 'b'), async (job, take) => {
      if (job.id === 'a') throw new AppError('PDF_UNAVAILABLE', 'no fonts');
      await take.finish({});
    });
    expect(await runner.runPending()).toBe(2);
    expect(memory.writes.map((w) => [w.jobId, w.change.state, w.change.errorCode])).toEqual([
      ['a', 'failed', 'PDF_UNAVAILABLE'],
      ['b', 'done', undefined],
    ]);
  });

  it('fails a job on any other error as GENERAL_ERROR and throws it for the log', async () => {
    const { memory, runner } = runnerOver(fresh('a', 'b'), async () => {
      throw new Error('disk full');
    });
    await expect(runner.runPending()).rejects.toThrow('disk full');
    expect(memory.writes).toEqual([
      {
        jobId: 'a',
        change: { state: 'failed', errorCode: 'GENERAL_ERROR', finishedAt: NOW },
        take: 1,
      },
    ]);
  });

  it('writes progress one write at a time, in order; a failed write fails the rest', async () => {
    const { memory, runner } = runnerOver(fresh('a'), async (_job, take) => {
      const first = take.progress({ done: 1 });
      const second = take.progress({ done: 2 });
      await take.settled();
      await expect(Promise.all([first, second])).resolves.toBeDefined();
      memory.failWrites();
      await expect(take.progress({ done: 3 })).rejects.toThrow('database away');
      await expect(take.progress({ done: 4 })).rejects.toThrow('database away');
      await expect(take.settled()).rejects.toThrow('database away');
    });
    expect(await runner.runPending()).toBe(1);
    expect(memory.writes.map((w) => w.change.done)).toEqual([1, 2]);
  });
});

/** A thread runner that reports `counts` and then answers `outcome`. */
function fakeThread(
  counts: number[],
  outcome: () => Promise<string>,
): ThreadRunner<string, string, number> {
  return {
    async run(_task, onProgress) {
      for (const n of counts) onProgress?.(n);
      return outcome();
    },
    close: async () => {},
  };
}

describe('runOnThread', () => {
  /** A job's take, kept after its runner let it go (its writes still reach the store). */
  const takeOf = async () => {
    let take: JobTake<JobChange> | undefined;
    const { memory, runner } = runnerOver(fresh('a'), async (_job, t) => {
      take = t;
    });
    await runner.runPending();
    if (!take) throw new Error('no take');
    memory.writes.length = 0;
    return { memory, take };
  };

  it("writes the thread's counts as the job's progress and answers its result", async () => {
    const { memory, take } = await takeOf();
    const result = await runOnThread(
      fakeThread([25, 50], async () => 'zip'),
      'task',
      take,
    );
    expect(result).toBe('zip');
    expect(memory.writes.map((w) => w.change)).toEqual([
      { done: 25, heartbeatAt: NOW },
      { done: 50, heartbeatAt: NOW },
    ]);
  });

  it("turns a thread's error with an API code into that AppError, others as they are", async () => {
    const { take } = await takeOf();
    const failing = (code: string) =>
      runOnThread(
        fakeThread([], async () => {
          throw new ThreadTaskError('no fonts here', code);
        }),
        'task',
        take,
      );
    const coded = failing('PDF_UNAVAILABLE');
    await expect(coded).rejects.toBeInstanceOf(AppError);
    await expect(coded).rejects.toMatchObject({ code: 'PDF_UNAVAILABLE' });
    const other = failing('NOT_A_CODE');
    await expect(other).rejects.toBeInstanceOf(ThreadTaskError);
  });

  it('fails when a progress write failed, once the thread is done', async () => {
    const { memory, take } = await takeOf();
    memory.failWrites();
    await expect(
      runOnThread(
        fakeThread([25], async () => 'zip'),
        'task',
        take,
      ),
    ).rejects.toThrow('database away');
  });
});
