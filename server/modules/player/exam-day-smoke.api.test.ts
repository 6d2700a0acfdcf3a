import { describe, expect, it } from 'vitest';
import { runExamDay } from '../../../bench/exam-day.js';

// The exam-day benchmark scaled down for CI, on PostgreSQL only (DATABASE_URL): the server in
// its own process, 200 students starting, answering at a fixed rate, finishing. Asserts that
// nothing fails and nothing acknowledged is lost; speed is judged by the full run
// (`npm run bench -- exam-day`), never by timings in tests.
describe.skipIf(!process.env.DATABASE_URL)('exam day (scaled down)', () => {
  it('200 students: no errors, every acknowledged answer stored, every attempt scored', async () => {
    const result = await runExamDay({
      students: 200,
      seconds: 10,
      rate: 200,
      startWindow: 2,
      arrival: 2,
      finishWindow: 2,
      saturation: 0,
      baseline: false,
      // The player takes the items from the start; the smoke run checks GET …/items too.
      fetchItems: true,
      // Two processes, as on a two-core server: the sweeper and starts on both.
      workers: 2,
      logLevel: 'warn',
      write: false,
      quiet: true,
    });
    const context = JSON.stringify({ calls: result.calls, reconciliation: result.reconciliation });
    const calls = Object.fromEntries(result.calls.map((c) => [c.call.split(' ')[0], c]));
    expect(calls.my?.ok, context).toBe(200); // my tests, before the start
    expect(calls.start?.ok, context).toBe(200);
    expect(calls.items?.ok, context).toBe(200);
    expect(calls.answer?.ok, context).toBe(2000);
    expect(calls.finish?.ok, context).toBe(200);
    expect(
      result.calls.every((c) => c.errors === 0),
      context,
    ).toBe(true);
    expect(result.reconciliation.lost, context).toBe(0);
    expect(result.reconciliation.wrongValue, context).toBe(0);
    expect(result.reconciliation.acknowledged, context).toBeGreaterThan(1000);
    expect(result.reconciliation.stored, context).toBe(result.reconciliation.acknowledged);
    expect(result.ackAnomalies, context).toBe(0);
    expect(result.attempts, context).toEqual({ finished: 200, scored: 200, finishReplies: 200 });
    expect(result.correct, context).toBe(true);
  }, 120_000);
});
