import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { registerPeriodicJob, startPeriodicJob } from './periodic.js';

/** A run that stays open until the test lets it end. */
function gatedRun() {
  const opened: (() => void)[] = [];
  let runs = 0;
  return {
    get runs() {
      return runs;
    },
    run: () => {
      runs += 1;
      return new Promise<void>((resolve) => opened.push(resolve));
    },
    endAll: () => {
      for (const end of opened.splice(0)) end();
    },
  };
}

const quiet = { error: () => {} };
const HOUR = 3_600_000;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A job registered on `app` whose runs only count themselves. */
function countedJob(
  app: ReturnType<typeof Fastify>,
  options: Partial<Parameters<typeof registerPeriodicJob>[1]> = {},
) {
  let calls = 0;
  const job = registerPeriodicJob(app, {
    name: 't',
    intervalMs: HOUR,
    run: async () => {
      calls += 1;
    },
    ...options,
  });
  return {
    wake: job.wake,
    get calls() {
      return calls;
    },
  };
}

/** Whether `promise` has settled, read after a moment's wait. */
async function settledSoon(promise: PromiseLike<unknown>): Promise<boolean> {
  let settled = false;
  void promise.then(() => {
    settled = true;
  });
  await pause(20);
  return settled;
}

describe('startPeriodicJob', () => {
  it('never runs twice at once: a run asked for during one is that run', async () => {
    const gate = gatedRun();
    const job = startPeriodicJob({ name: 't', intervalMs: HOUR, run: gate.run, log: quiet });
    const first = job.runNow();
    const second = job.runNow();
    expect(second).toBe(first);
    expect(gate.runs).toBe(1);
    gate.endAll();
    await first;
    void job.runNow();
    expect(gate.runs).toBe(2);
    gate.endAll();
    await job.stop();
  });

  it('logs a failed run with its name and runs again the next time', async () => {
    const logged: object[] = [];
    let calls = 0;
    const job = startPeriodicJob({
      name: 'flaky',
      intervalMs: HOUR,
      run: async () => {
        calls += 1;
        if (calls === 1) throw new Error('database away');
      },
      log: { error: (obj) => logged.push(obj) },
    });
    await job.runNow();
    expect(logged).toEqual([expect.objectContaining({ job: 'flaky' })]);
    await job.runNow();
    expect(calls).toBe(2);
    expect(logged).toHaveLength(1);
    await job.stop();
  });

  it('stopping waits for the run in progress', async () => {
    const gate = gatedRun();
    const job = startPeriodicJob({ name: 't', intervalMs: HOUR, run: gate.run, log: quiet });
    void job.runNow();
    const stopping = job.stop();
    expect(await settledSoon(stopping)).toBe(false);
    gate.endAll();
    await stopping;
  });

  it('runs on every tick', async () => {
    let calls = 0;
    const job = startPeriodicJob({
      name: 't',
      intervalMs: 10,
      run: async () => {
        calls += 1;
      },
      log: quiet,
    });
    await expect.poll(() => calls, { timeout: 2_000 }).toBeGreaterThanOrEqual(3);
    await job.stop();
    const after = calls;
    await pause(50);
    expect(calls).toBe(after);
  });
});

describe('registerPeriodicJob', () => {
  it('starts when the server is ready, wakes on demand and ends when it closes', async () => {
    const app = Fastify();
    const job = countedJob(app);
    job.wake();
    expect(job.calls).toBe(0);
    await app.ready();
    expect(job.calls).toBe(0);
    job.wake();
    await expect.poll(() => job.calls).toBe(1);
    await app.close();
    job.wake();
    await pause(20);
    expect(job.calls).toBe(1);
  });

  it('runs once a moment after a wake when given a delay, and not after it closed', async () => {
    const app = Fastify();
    const job = countedJob(app, { wakeDelayMs: 30 });
    await app.ready();
    job.wake();
    job.wake();
    expect(job.calls).toBe(0);
    await expect.poll(() => job.calls).toBe(1);
    await pause(60);
    // Two wakes within the delay made one run.
    expect(job.calls).toBe(1);
    job.wake();
    await app.close();
    await pause(60);
    // The wake pending when the server closed never ran.
    expect(job.calls).toBe(1);
  });

  it('runs once before answering when asked to run at start, and closing waits for a run', async () => {
    const app = Fastify();
    const gate = gatedRun();
    registerPeriodicJob(app, { name: 't', intervalMs: HOUR, run: gate.run, runAtStart: 'await' });
    const readying = app.ready();
    await expect.poll(() => gate.runs).toBe(1);
    expect(await settledSoon(readying)).toBe(false);
    gate.endAll();
    await readying;

    const other = Fastify();
    const background = gatedRun();
    const woken = registerPeriodicJob(other, {
      name: 'b',
      intervalMs: HOUR,
      run: background.run,
      runAtStart: 'background',
    });
    await other.ready();
    expect(background.runs).toBe(1);
    woken.wake();
    expect(background.runs).toBe(1);
    const closing = other.close();
    expect(await settledSoon(closing)).toBe(false);
    background.endAll();
    await closing;
    await app.close();
  });
});
