import { DIFFICULTIES } from '../../../shared/constants.js';
import type { Difficulty } from '../../../shared/schemas/questions.js';
import { DIFFICULTY_WEIGHTS, type TestShortage } from '../../../shared/schemas/tests.js';

/**
 * Draws a test from a phase's question bank. Pure and deterministic: the same bank (in any
 * order), counts, total and seed give the same items and scores, so a student's form can be
 * rebuilt from the stored seed in an appeal.
 */

export type BankQuestion = { id: string; difficulty: Difficulty; category: string | null };
export type TestCounts = Record<Difficulty, number>;
export type GenerateInput = {
  bank: readonly BankQuestion[];
  counts: TestCounts;
  /** The test's total, with at most 2 decimals. */
  totalScore: number;
  seed: string;
  /** Share the total by difficulty rather than equally. */
  weightByDifficulty?: boolean;
};
export type GeneratedItem = {
  questionId: string;
  difficulty: Difficulty;
  /** 1-based: easy questions first, then medium, then hard. */
  position: number;
  score: number;
};
export type GenerateResult =
  | { ok: true; items: GeneratedItem[] }
  | { ok: false; shortages: TestShortage[] };

/** cyrb128: a string → four 32-bit words, to seed sfc32. */
function hashSeed(seed: string): [number, number, number, number] {
  let h1 = 1779033703;
  let h2 = 3144134277;
  let h3 = 1013904242;
  let h4 = 2773480762;
  for (let i = 0; i < seed.length; i++) {
    const k = seed.charCodeAt(i);
    h1 = h2 ^ Math.imul(h1 ^ k, 597399067);
    h2 = h3 ^ Math.imul(h2 ^ k, 2869860233);
    h3 = h4 ^ Math.imul(h3 ^ k, 951274213);
    h4 = h1 ^ Math.imul(h4 ^ k, 2716044179);
  }
  h1 = Math.imul(h3 ^ (h1 >>> 18), 597399067);
  h2 = Math.imul(h4 ^ (h2 >>> 22), 2869860233);
  h3 = Math.imul(h1 ^ (h3 >>> 17), 951274213);
  h4 = Math.imul(h2 ^ (h4 >>> 19), 2716044179);
  return [(h1 ^ h2 ^ h3 ^ h4) >>> 0, (h2 ^ h1) >>> 0, (h3 ^ h1) >>> 0, (h4 ^ h1) >>> 0];
}

/** A seeded generator of numbers in [0, 1) (sfc32); the same seed gives the same sequence. */
export function createRng(seed: string): () => number {
  let [a, b, c, d] = hashSeed(seed);
  return () => {
    a >>>= 0;
    b >>>= 0;
    c >>>= 0;
    d >>>= 0;
    let t = (a + b) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    d = (d + 1) | 0;
    t = (t + d) | 0;
    c = (c + t) | 0;
    return (t >>> 0) / 4294967296;
  };
}

/** Fisher–Yates with the seeded generator. */
export function shuffle<T>(items: readonly T[], rng: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

/** 'Algebră', ' algebră ' and 'ALGEBRĂ' are one category; no category is a category too. */
export const categoryKey = (category: string | null) => (category ?? '').trim().toLowerCase();

/**
 * Picks `count` questions of one difficulty, water-filling the categories: always from a
 * category with the fewest picks so far that still has questions, so per-category counts
 * differ by at most one unless a category ran out. Ties go to the category least used in the
 * whole test, then to a seeded order.
 */
function pickSpread(
  questions: readonly BankQuestion[],
  count: number,
  rng: () => number,
  usedOverall: Map<string, number>,
): BankQuestion[] {
  const groups = new Map<string, BankQuestion[]>();
  for (const q of questions) {
    const key = categoryKey(q.category);
    groups.set(key, [...(groups.get(key) ?? []), q]);
  }
  const keys = shuffle([...groups.keys()].sort(), rng);
  const pools = new Map(keys.map((k) => [k, shuffle(groups.get(k) ?? [], rng)]));
  const taken = new Map(keys.map((k) => [k, 0]));
  const picked: BankQuestion[] = [];
  while (picked.length < count) {
    let best: string | undefined;
    for (const key of keys) {
      if ((taken.get(key) ?? 0) >= (pools.get(key)?.length ?? 0)) continue;
      if (best === undefined) {
        best = key;
        continue;
      }
      const [t, tb] = [taken.get(key) ?? 0, taken.get(best) ?? 0];
      const [u, ub] = [usedOverall.get(key) ?? 0, usedOverall.get(best) ?? 0];
      if (t < tb || (t === tb && u < ub)) best = key;
    }
    if (best === undefined) break;
    const index = taken.get(best) ?? 0;
    const question = pools.get(best)?.[index];
    if (!question) break;
    picked.push(question);
    taken.set(best, index + 1);
    usedOverall.set(best, (usedOverall.get(best) ?? 0) + 1);
  }
  return picked;
}

/** Steps an item's worth may be a multiple of, largest first: whole points, halves, … cents. */
const STEPS_IN_CENTS = [100, 50, 25, 10, 5, 1] as const;

/**
 * Shares `cents` out by `weights` in multiples of `step`, largest remainders first (the later,
 * harder item among equals); undefined when an item would get nothing.
 */
function shareInSteps(cents: number, weights: readonly number[], step: number) {
  if (cents % step !== 0) return undefined;
  const units = cents / step;
  const totalWeight = weights.reduce((a, b) => a + b, 0);
  const exact = weights.map((w) => (units * w) / totalWeight);
  const shares = exact.map(Math.floor);
  let left = units - shares.reduce((a, b) => a + b, 0);
  const order = exact
    .map((e, i) => ({ i, rest: e - Math.floor(e) }))
    .sort((a, b) => b.rest - a.rest || b.i - a.i);
  for (const { i } of order) {
    if (left <= 0) break;
    shares[i] = (shares[i] ?? 0) + 1;
    left -= 1;
  }
  if (shares.some((share) => share === 0)) return undefined;
  return shares.map((share) => (share * step) / 100);
}

/**
 * Shares `totalScore` out over items given easy first, hard last. Equally by default: in equal
 * whole or half points when the total divides so, else in whole points (or the largest of
 * halves, quarters, … cents that gives every item something) with the points left over going
 * one each to the last, hardest items. With `weighted`, by difficulty (easy 1, medium 2,
 * hard 3) in the same steps. The shares always sum exactly to the total.
 */
export function shareScores(
  difficulties: readonly Difficulty[],
  totalScore: number,
  weighted = false,
): number[] {
  if (difficulties.length === 0) return [];
  const cents = Math.round(totalScore * 100);
  const weights = difficulties.map((d) => (weighted ? DIFFICULTY_WEIGHTS[d] : 1));
  const totalWeight = weights.reduce((a, b) => a + b, 0);
  // Exact shares in whole or half points, when the total divides so.
  for (const step of [100, 50]) {
    if (cents % step === 0 && weights.every((w) => ((cents / step) * w) % totalWeight === 0)) {
      return weights.map((w) => (cents * w) / totalWeight / 100);
    }
  }
  for (const step of STEPS_IN_CENTS) {
    const shares = shareInSteps(cents, weights, step);
    if (shares) return shares;
  }
  return [];
}

/** The test's items, or what the bank lacks for the requested counts. */
export function generateTest({
  bank,
  counts,
  totalScore,
  seed,
  weightByDifficulty = false,
}: GenerateInput): GenerateResult {
  const unique = [...new Map(bank.map((q) => [q.id, q])).values()].sort((a, b) =>
    a.id < b.id ? -1 : a.id > b.id ? 1 : 0,
  );
  const byDifficulty = (d: Difficulty) => unique.filter((q) => q.difficulty === d);
  const shortages = DIFFICULTIES.flatMap((difficulty) => {
    const available = byDifficulty(difficulty).length;
    const requested = counts[difficulty];
    return available < requested ? [{ difficulty, requested, available }] : [];
  });
  if (shortages.length > 0) return { ok: false, shortages };

  const rng = createRng(seed);
  const usedOverall = new Map<string, number>();
  const picked = DIFFICULTIES.flatMap((d) =>
    pickSpread(byDifficulty(d), counts[d], rng, usedOverall),
  );
  const scores = shareScores(
    picked.map((q) => q.difficulty),
    totalScore,
    weightByDifficulty,
  );
  return {
    ok: true,
    items: picked.map((q, i) => ({
      questionId: q.id,
      difficulty: q.difficulty,
      position: i + 1,
      score: scores[i] ?? 0,
    })),
  };
}
