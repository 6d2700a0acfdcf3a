import { describe, expect, it } from 'vitest';
import { runCrashCheck } from '../../../bench/exam-day-crash.js';

// kill -9 needs a database outside the server process: PGlite in memory dies with it, so this
// runs on PostgreSQL only (DATABASE_URL; CI sets it). The full-size run is
// `node scripts/crash-test.mjs`.
describe.skipIf(!process.env.DATABASE_URL)('exam day: kill -9 of the server mid-exam', () => {
  it('keeps every acknowledged answer, and every retrying student finishes', async () => {
    const result = await runCrashCheck({
      students: 20,
      answers: 25,
      thinkMs: 30,
      kills: 1,
      quiet: true,
    });
    const context = `seed ${result.seed}: ${JSON.stringify({ kills: result.kills, refused: result.refused, reconciliation: result.reconciliation })}`;
    expect(result.kills, context).toHaveLength(1);
    const [kill] = result.kills;
    // Answers acknowledged before the kill, looked up while no server process existed.
    expect(kill?.checked, context).toBeGreaterThan(0);
    expect(kill?.lost, context).toBe(0);
    expect(result.reconciliation.lost, context).toBe(0);
    expect(result.reconciliation.wrongValue, context).toBe(0);
    expect(result.reconciliation.stored, context).toBe(result.reconciliation.acknowledged);
    expect(result.refused, context).toEqual({});
    expect(result.completed, context).toBe(20);
    expect(result.finishedAttempts, context).toBe(20);
    expect(result.ackAnomalies, context).toBe(0);
    expect(result.ok, context).toBe(true);
  }, 120_000);
});
