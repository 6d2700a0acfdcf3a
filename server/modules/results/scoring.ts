import type { ItemType } from '../../../shared/schemas/questions.js';

/**
 * Automatic scoring of an online item: the full item score for an exact match, else 0.
 * Choice answers are option indices in the question's own order (order of the indices does
 * not matter, the set does); numeric answers are typed text compared as numbers. Open items
 * have no automatic score (null): they are marked by people.
 */
export type ScorableItem = {
  itemType: ItemType;
  itemCorrectAnswers: number[] | string | null;
  score: number;
};

/** A typed number: optional sign, digits, one decimal point or comma; spaces ignored. */
const NUMBER_RE = /^[+-]?(\d+([.,]\d*)?|[.,]\d+)$/;

export function parseTypedNumber(value: string): number | null {
  const compact = value.replace(/\s+/g, '');
  if (!NUMBER_RE.test(compact)) return null;
  const n = Number(compact.replace(',', '.'));
  return Number.isFinite(n) ? n : null;
}

const sameIndexSet = (answer: unknown, correct: number[]) => {
  if (!Array.isArray(answer) || answer.length !== correct.length) return false;
  const wanted = new Set(correct);
  return new Set(answer).size === answer.length && answer.every((i) => wanted.has(i as number));
};

/** The points one answer earns (null for open items). */
export function scoreAnswer(item: ScorableItem, answer: unknown): number | null {
  const correct = item.itemCorrectAnswers;
  switch (item.itemType) {
    case 'single':
    case 'multiple':
      return Array.isArray(correct) && correct.length > 0 && sameIndexSet(answer, correct)
        ? item.score
        : 0;
    case 'numeric': {
      if (typeof answer !== 'string' || correct === null) return 0;
      const expected = parseTypedNumber(String(correct));
      const given = parseTypedNumber(answer);
      return expected !== null && given !== null && given === expected ? item.score : 0;
    }
    default:
      return null;
  }
}

/** What an item's answer comes to when it is handed over for scoring. */
export type ItemOutcome =
  | { state: 'decided'; points: number; origin: 'auto' }
  | { state: 'awaiting_marking'; points: null; origin: null };

const isBlank = (answer: unknown) => typeof answer !== 'string' || answer.trim() === '';

/**
 * The automatic outcome of one item: points from the answer key for choice and numeric items;
 * an open item answered with text waits for people to mark it, and a blank one earns 0 (there
 * is nothing to mark).
 */
export function autoOutcome(item: ScorableItem, answer: unknown): ItemOutcome {
  const points = scoreAnswer(item, answer);
  if (points !== null) return { state: 'decided', points, origin: 'auto' };
  return isBlank(answer)
    ? { state: 'decided', points: 0, origin: 'auto' }
    : { state: 'awaiting_marking', points: null, origin: null };
}

/** Sum in cents, so 0.1 + 0.2 is 0.3 (scores are numeric(8, 2)). */
export function totalScore(scores: readonly (number | null)[]): number {
  const cents = scores.reduce<number>((sum, s) => sum + Math.round((s ?? 0) * 100), 0);
  return cents / 100;
}
