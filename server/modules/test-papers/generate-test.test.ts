import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DIFFICULTIES } from '../../../shared/constants.js';
import type { Difficulty } from '../../../shared/schemas/questions.js';
import {
  type BankQuestion,
  categoryKey,
  createRng,
  type GeneratedItem,
  generateTest,
  shareScores,
  shuffle,
  type TestCounts,
} from './generate-test.js';

const CATEGORIES = ['Algebră', 'Geometrie', 'algebră ', 'Combinatorică', null] as const;

const bankArb = fc.uniqueArray(
  fc.record({
    id: fc.uuid(),
    difficulty: fc.constantFrom(...DIFFICULTIES),
    category: fc.constantFrom(...CATEGORIES),
  }),
  { selector: (q) => q.id, maxLength: 60 },
);

/** A bank and counts it can satisfy, a total worth at least a cent per weight unit, a seed. */
const feasibleArb = bankArb
  .filter((bank) => bank.length > 0)
  .chain((bank) => {
    const available = (d: Difficulty) => bank.filter((q) => q.difficulty === d).length;
    return fc
      .record({
        low: fc.integer({ min: 0, max: available('low') }),
        medium: fc.integer({ min: 0, max: available('medium') }),
        hard: fc.integer({ min: 0, max: available('hard') }),
      })
      .filter((c) => c.low + c.medium + c.hard > 0)
      .chain((counts) =>
        fc.record({
          bank: fc.constant(bank),
          counts: fc.constant(counts as TestCounts),
          totalScore: fc
            .integer({ min: counts.low + 2 * counts.medium + 3 * counts.hard, max: 1_000_000 })
            .map((cents) => cents / 100),
          seed: fc.string({ maxLength: 40 }),
        }),
      );
  });

function itemsOf(input: Parameters<typeof generateTest>[0]): GeneratedItem[] {
  const result = generateTest(input);
  if (!result.ok) throw new Error(`unexpected shortage ${JSON.stringify(result.shortages)}`);
  return result.items;
}

const cents = (n: number) => Math.round(n * 100);

describe('generateTest (properties)', () => {
  it('draws exactly the requested count of each difficulty, from the bank, never twice', () => {
    fc.assert(
      fc.property(feasibleArb, (input) => {
        const items = itemsOf(input);
        const byId = new Map(input.bank.map((q) => [q.id, q]));
        expect(new Set(items.map((i) => i.questionId)).size).toBe(items.length);
        for (const d of DIFFICULTIES) {
          const ofD = items.filter((i) => i.difficulty === d);
          expect(ofD.length).toBe(input.counts[d]);
          for (const item of ofD) expect(byId.get(item.questionId)?.difficulty).toBe(d);
        }
        expect(items.map((i) => i.position)).toEqual(items.map((_, i) => i + 1));
      }),
    );
  });

  it('scores sum exactly to the total, each at least a cent, weighted: hard never below easy', () => {
    fc.assert(
      fc.property(feasibleArb, fc.boolean(), (drawn, weightByDifficulty) => {
        const input = { ...drawn, weightByDifficulty };
        const items = itemsOf(input);
        const sum = items.reduce((s, i) => s + cents(i.score), 0);
        expect(sum).toBe(cents(input.totalScore));
        for (const item of items) {
          expect(item.score).toBeGreaterThanOrEqual(0.01);
          // Two decimals at most.
          expect(Math.abs(item.score * 100 - cents(item.score))).toBeLessThan(1e-6);
        }
        const easy = items.filter((i) => i.difficulty === 'low').map((i) => i.score);
        const hard = items.filter((i) => i.difficulty === 'hard').map((i) => i.score);
        if (weightByDifficulty && easy.length && hard.length) {
          expect(Math.min(...hard)).toBeGreaterThanOrEqual(Math.max(...easy));
        }
      }),
    );
  });

  it('is deterministic for a seed, whatever the order the bank comes in', () => {
    fc.assert(
      fc.property(feasibleArb, fc.string(), (input, other) => {
        const first = itemsOf(input);
        expect(itemsOf({ ...input })).toEqual(first);
        const reordered = shuffle(input.bank, createRng(other));
        expect(itemsOf({ ...input, bank: reordered })).toEqual(first);
      }),
    );
  });

  it('spreads each difficulty over the categories as evenly as the bank allows', () => {
    fc.assert(
      fc.property(feasibleArb, (input) => {
        const items = itemsOf(input);
        const byId = new Map(input.bank.map((q) => [q.id, q]));
        for (const d of DIFFICULTIES) {
          const available = new Map<string, number>();
          for (const q of input.bank.filter((q) => q.difficulty === d)) {
            const k = categoryKey(q.category);
            available.set(k, (available.get(k) ?? 0) + 1);
          }
          const taken = new Map([...available.keys()].map((k) => [k, 0]));
          for (const item of items.filter((i) => i.difficulty === d)) {
            const k = categoryKey(byId.get(item.questionId)?.category ?? null);
            taken.set(k, (taken.get(k) ?? 0) + 1);
          }
          // A category with two fewer picks than another must have run out of questions.
          for (const [a, ta] of taken) {
            for (const [, tb] of taken) {
              if (ta < tb - 1) expect(ta).toBe(available.get(a));
            }
          }
        }
      }),
    );
  });

  it('reports exactly what the bank lacks, and draws nothing then', () => {
    fc.assert(
      fc.property(
        bankArb,
        fc.record({
          low: fc.integer({ min: 0, max: 30 }),
          medium: fc.integer({ min: 0, max: 30 }),
          hard: fc.integer({ min: 0, max: 30 }),
        }),
        (bank, counts) => {
          const result = generateTest({ bank, counts, totalScore: 1000, seed: 's' });
          const expected = DIFFICULTIES.flatMap((difficulty) => {
            const available = bank.filter((q) => q.difficulty === difficulty).length;
            const requested = counts[difficulty];
            return available < requested ? [{ difficulty, requested, available }] : [];
          });
          if (expected.length === 0) expect(result.ok).toBe(true);
          else expect(result).toEqual({ ok: false, shortages: expected });
        },
      ),
    );
  });
});

describe('generateTest (examples)', () => {
  const q = (id: string, difficulty: Difficulty, category: string | null): BankQuestion => ({
    id,
    difficulty,
    category,
  });

  it('takes two algebra and two geometry questions when asked for four of a balanced bank', () => {
    const bank = [
      ...['a1', 'a2', 'a3'].map((id) => q(id, 'low', 'Algebră')),
      ...['g1', 'g2', 'g3'].map((id) => q(id, 'low', 'Geometrie')),
    ];
    for (const seed of ['1', '2', '3', 'x']) {
      const items = itemsOf({ bank, counts: { low: 4, medium: 0, hard: 0 }, totalScore: 10, seed });
      expect(items.filter((i) => i.questionId.startsWith('a'))).toHaveLength(2);
      expect(items.map((i) => i.score)).toEqual([2.5, 2.5, 2.5, 2.5]);
    }
  });

  it('shares the total equally in whole or half points, the points left over to the last items', () => {
    expect(shareScores(['low', 'low', 'low'], 10)).toEqual([3, 3, 4]);
    expect(shareScores(['low', 'medium', 'hard'], 100)).toEqual([33, 33, 34]);
    expect(shareScores(Array(12).fill('medium'), 100)).toEqual([...Array(8).fill(8), 9, 9, 9, 9]);
    expect(shareScores(['low', 'low', 'hard', 'hard'], 10)).toEqual([2.5, 2.5, 2.5, 2.5]);
    expect(shareScores(['low', 'low', 'low', 'low'], 28)).toEqual([7, 7, 7, 7]);
    // Fewer points than items: halves, then smaller steps, never an item worth nothing.
    expect(shareScores(['low', 'low', 'low', 'low'], 3)).toEqual([0.5, 0.5, 1, 1]);
    expect(shareScores(['low', 'low', 'low'], 0.05)).toEqual([0.01, 0.02, 0.02]);
  });

  it('weights by difficulty only when asked', () => {
    expect(shareScores(['low', 'medium', 'hard'], 100, true)).toEqual([17, 33, 50]);
    expect(shareScores(['low', 'hard'], 10, true)).toEqual([2.5, 7.5]);
  });

  it('always sums exactly to the total, every item worth something, equal shares within one step', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom('low' as const, 'medium' as const, 'hard' as const), {
          minLength: 1,
          maxLength: 60,
        }),
        fc.integer({ min: 1, max: 100_000 }),
        fc.boolean(),
        (difficulties, totalCents, weighted) => {
          fc.pre(totalCents >= difficulties.length * (weighted ? 3 : 1));
          const shares = shareScores(difficulties, totalCents / 100, weighted);
          const cents = shares.map((s) => Math.round(s * 100));
          expect(cents.reduce((a, b) => a + b, 0)).toBe(totalCents);
          expect(cents.every((c) => c > 0)).toBe(true);
          if (!weighted) expect(Math.max(...cents) - Math.min(...cents)).toBeLessThanOrEqual(100);
        },
      ),
    );
  });

  it('changes the draw with the seed', () => {
    const bank = Array.from({ length: 40 }, (_, i) =>
      q(`q${String(i).padStart(2, '0')}`, 'medium', null),
    );
    const draw = (seed: string) =>
      itemsOf({ bank, counts: { low: 0, medium: 5, hard: 0 }, totalScore: 10, seed }).map(
        (i) => i.questionId,
      );
    expect(draw('seed-a')).toEqual(draw('seed-a'));
    expect(draw('seed-a')).not.toEqual(draw('seed-b'));
  });
});
