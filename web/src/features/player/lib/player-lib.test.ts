import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { acceptsTyping, numericAnswer } from './numeric.js';
import { optionOrder, toDisplayed, toStoredAnswer } from './option-order.js';
import { isAnswered, restoreAnswers } from './restore.js';
import type { ClockSample } from './server-clock.js';
import {
  betterSample,
  clockSample,
  formatTimer,
  remainingSeconds,
  SAMPLE_MAX_AGE_MS,
  serverTimeAt,
  wallClockOffset,
} from './server-clock.js';

/** A sample that must exist (the test fails loudly otherwise). */
const sampleOf = (serverNow: string, sent: number, received: number): ClockSample => {
  const sample = clockSample(serverNow, sent, received);
  if (!sample) throw new Error('no sample');
  return sample;
};

describe('server clock', () => {
  it('places the server time at the middle of the request', () => {
    const sample = clockSample('2026-11-23T09:00:00.000Z', 1000, 1200);
    expect(sample).toEqual({
      serverMs: Date.parse('2026-11-23T09:00:00.000Z'),
      monoMs: 1100,
      rttMs: 200,
    });
    expect(serverTimeAt(sampleOf('2026-11-23T09:00:00.000Z', 1000, 1200), 4100)).toBe(
      Date.parse('2026-11-23T09:00:03.000Z'),
    );
    expect(clockSample('not a date', 0, 1)).toBeUndefined();
  });

  it('gives the same remaining time whatever the computer clock says', () => {
    const deadline = Date.parse('2026-11-23T10:00:00.000Z');
    const sample = sampleOf('2026-11-23T09:00:00.000Z', 500, 700);
    // The wall clock plays no part: only the monotonic clock of the page moves the timer.
    expect(remainingSeconds(deadline, serverTimeAt(sample, 600))).toBe(3600);
    expect(remainingSeconds(deadline, serverTimeAt(sample, 600 + 59 * 60_000 + 500))).toBe(60);
    expect(remainingSeconds(deadline, serverTimeAt(sample, 600 + 2 * 3_600_000))).toBe(0);
    // A computer an hour fast: the offset it stores for a reload brings it back.
    const wall = Date.parse('2026-11-23T10:00:00.000Z');
    const offset = wallClockOffset(sample, 600, wall);
    expect(offset).toBe(-3_600_000);
    expect(remainingSeconds(deadline, wall + offset)).toBe(3600);
  });

  it('keeps the most precise sample, unless it grew old', () => {
    const precise = { serverMs: 0, monoMs: 0, rttMs: 20 };
    const rough = { serverMs: 0, monoMs: 1000, rttMs: 400 };
    expect(betterSample(undefined, rough)).toBe(rough);
    expect(betterSample(precise, rough)).toBe(precise);
    expect(betterSample(rough, precise)).toBe(precise);
    const later = { ...rough, monoMs: SAMPLE_MAX_AGE_MS + 1 };
    expect(betterSample(precise, later)).toBe(later);
    expect(betterSample(precise, undefined)).toBe(precise);
  });

  it('formats the timer', () => {
    expect(formatTimer(0)).toBe('00:00');
    expect(formatTimer(309)).toBe('05:09');
    expect(formatTimer(3909)).toBe('1:05:09');
  });
});

describe('option order', () => {
  it('is a stable permutation for a seed, and differs between students', () => {
    const a = optionOrder(6, 'attempt-1:item-1');
    expect([...a].sort()).toEqual([0, 1, 2, 3, 4, 5]);
    expect(optionOrder(6, 'attempt-1:item-1')).toEqual(a);
    const orders = new Set(
      Array.from({ length: 20 }, (_, i) => optionOrder(6, `attempt-${i}:item-1`).join()),
    );
    expect(orders.size).toBeGreaterThan(10);
  });

  it('maps what is ticked on screen to the question’s own indices and back', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 20 }),
        fc.string(),
        fc.array(fc.nat(), { maxLength: 20 }),
        (count, seed, picks) => {
          const order = optionOrder(count, seed);
          const displayed = [...new Set(picks.map((p) => p % count))].sort((x, y) => x - y);
          const stored = toStoredAnswer(order, displayed);
          expect(stored).toEqual([...stored].sort((x, y) => x - y));
          expect(stored.map((i) => order.indexOf(i)).sort((x, y) => x - y)).toEqual(displayed);
          expect(toDisplayed(order, stored)).toEqual(displayed);
        },
      ),
    );
    // The option shown first is the question's option order[0], whatever it is.
    const order = optionOrder(4, 'x');
    expect(toStoredAnswer(order, [0])).toEqual([order[0]]);
  });
});

describe('numeric answers', () => {
  it('sends numbers as typed, clears on empty, waits while typing', () => {
    expect(numericAnswer('12')).toBe('12');
    expect(numericAnswer(' -3,5 ')).toBe('-3,5');
    expect(numericAnswer('0.25')).toBe('0.25');
    expect(numericAnswer('')).toBeNull();
    expect(numericAnswer('-')).toBeUndefined();
    expect(numericAnswer('3,')).toBeUndefined();
    expect(acceptsTyping('3,')).toBe(true);
    expect(acceptsTyping('-')).toBe(true);
    expect(acceptsTyping('1e5')).toBe(false);
    expect(acceptsTyping('1'.repeat(51))).toBe(false);
  });
});

describe('restoreAnswers', () => {
  it('lets the higher seq win per item and forgets answers outside the attempt', () => {
    const server = [
      { itemId: 'a', submittedAnswer: [1], seq: 3 },
      { itemId: 'b', submittedAnswer: null, seq: 0 },
      { itemId: 'c', submittedAnswer: '5', seq: 9 },
    ];
    const local = [
      { itemId: 'a', submittedAnswer: [2], seq: 10 },
      { itemId: 'c', submittedAnswer: '4', seq: 8 },
      { itemId: 'z', submittedAnswer: [0], seq: 11 },
    ];
    const r = restoreAnswers(server, local);
    expect(r.entries.get('a')).toEqual({
      submittedAnswer: [2],
      seq: 10,
      state: 'pending',
      onDevice: true,
    });
    expect(r.entries.get('c')).toEqual({
      submittedAnswer: '5',
      seq: 9,
      state: 'saved',
      onDevice: false,
    });
    expect(r.entries.has('b')).toBe(false);
    expect(r.resend.map((a) => a.itemId)).toEqual(['a']);
    expect(r.stale.map((a) => a.itemId).sort()).toEqual(['c', 'z']);
    expect(r.lastSeq).toBe(11);
  });

  it('counts an item answered only with a choice or a value', () => {
    const entry = (submittedAnswer: string | number[] | null) => ({
      submittedAnswer,
      seq: 1,
      state: 'saved' as const,
      onDevice: false,
    });
    expect(isAnswered(undefined)).toBe(false);
    expect(isAnswered(entry(null))).toBe(false);
    expect(isAnswered(entry([]))).toBe(false);
    expect(isAnswered(entry(' '))).toBe(false);
    expect(isAnswered(entry([0]))).toBe(true);
    expect(isAnswered(entry('0'))).toBe(true);
  });
});
