import { threadId } from 'node:worker_threads';
import { afterAll, describe, expect, it } from 'vitest';
import { createThreadRunner, ThreadTaskError } from './thread.js';

type Task =
  | { kind: 'count'; n: number }
  | { kind: 'fail' }
  | { kind: 'die' }
  | { kind: 'priority' };
type Result = { threadId: number; bytes: Uint8Array; nice?: number | null; process?: number };

const runner = createThreadRunner<Task, Result, number>({
  entry: new URL('./thread.fixture.mjs', import.meta.url),
  idleMs: 1_000,
});
afterAll(() => runner.close());

describe('createThreadRunner', () => {
  it('runs a task on another thread, with its progress and its result', async () => {
    const seen: number[] = [];
    const result = await runner.run({ kind: 'count', n: 5 }, (p) => seen.push(p));
    expect(result.threadId).not.toBe(threadId);
    expect([...result.bytes]).toEqual([1, 2, 3, 4, 5]);
    expect(seen).toEqual([1, 2, 3, 4, 5]);
  });

  it('runs tasks one at a time, in order, on the same thread', async () => {
    const results = await Promise.all([
      runner.run({ kind: 'count', n: 1 }),
      runner.run({ kind: 'count', n: 2 }),
      runner.run({ kind: 'count', n: 3 }),
    ]);
    expect(results.map((r) => r.bytes.length)).toEqual([1, 2, 3]);
    expect(new Set(results.map((r) => r.threadId)).size).toBe(1);
  });

  it("fails a task with the thread's error and its code; the thread goes on", async () => {
    const failed = runner.run({ kind: 'fail' });
    await expect(failed).rejects.toBeInstanceOf(ThreadTaskError);
    await expect(failed).rejects.toMatchObject({
      message: 'no fonts here',
      code: 'PDF_UNAVAILABLE',
    });
    expect((await runner.run({ kind: 'count', n: 1 })).bytes.length).toBe(1);
  });

  it('fails the task of a thread that dies, and starts another for the next task', async () => {
    const before = (await runner.run({ kind: 'count', n: 1 })).threadId;
    await expect(runner.run({ kind: 'die' })).rejects.toThrow(/exit code 3/);
    const after = (await runner.run({ kind: 'count', n: 1 })).threadId;
    expect(after).not.toBe(before);
  });

  it("lowers the thread's own priority (Linux), not the process's", async () => {
    const { nice, process: own } = await runner.run({ kind: 'priority' });
    if (nice === null) return; // no /proc/thread-self here
    expect(nice).toBe(Math.max(own ?? 0, 7));
    expect(own).not.toBe(nice);
  });
});
