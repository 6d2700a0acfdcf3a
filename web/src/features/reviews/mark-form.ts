import type { FieldCode } from '../../../../shared/errors.js';
import { isInStep, type RubricCriterion } from '../../../../shared/schemas/reviews.js';
import { ApiError } from '../../api/client.js';
import { numberInText } from '../../i18n/numbers.js';
import { formatScore } from '../../lib/scores.js';

/**
 * The mark form's rules, as the server keeps them (shared/schemas/reviews.ts): a mark is a
 * decimal number from 0 to the item's points in the phase's step; ticked criteria add up to
 * it. Sums are kept in hundredths, so 0.1 + 0.2 is 0.3.
 */

/** A number as typed: digits with one decimal comma or point ('7', '7,5', ',5'). */
const NUMBER = /^(\d+([.,]\d*)?|[.,]\d+)$/;

/** The typed mark → a number, or the field code the box shows. */
export function parseMark(text: string): number | FieldCode {
  const s = text.replace(/\s/g, '');
  if (s === '') return 'required';
  if (s.startsWith('-')) return 'out_of_range';
  if (!NUMBER.test(s)) return 'not_number';
  return Number(s.replace(',', '.'));
}

/** Whether a mark fits the item: 'out_of_range', 'not_in_step', or null when it is good. */
export function checkMark(mark: number, maxScore: number, step: number): FieldCode | null {
  const cents = Math.round(mark * 100);
  if (mark < 0 || cents > Math.round(maxScore * 100)) return 'out_of_range';
  if (!isInStep(mark, step)) return 'not_in_step';
  return null;
}

/** The typed mark, checked: the number to send, or why it cannot be sent. */
export function readMark(text: string, maxScore: number, step: number): number | FieldCode {
  const parsed = parseMark(text);
  if (typeof parsed !== 'number') return parsed;
  return checkMark(parsed, maxScore, step) ?? parsed;
}

/** The points of the ticked criteria, added in hundredths. */
export function rubricSum(criteria: readonly RubricCriterion[], ticked: readonly string[]): number {
  const cents = criteria
    .filter((c) => ticked.includes(c.id))
    .reduce((sum, c) => sum + Math.round(c.points * 100), 0);
  return cents / 100;
}

/** Every mark from 0 to the item's points in the step, for the quick-mark buttons (≤ 21). */
export function quickMarks(maxScore: number, step: number, most = 21): number[] {
  const stepCents = Math.round(step * 100);
  const maxCents = Math.round(maxScore * 100);
  if (stepCents <= 0 || maxCents / stepCents + 1 > most) return [];
  const out: number[] = [];
  for (let c = 0; c <= maxCents; c += stepCents) out.push(c / 100);
  return out;
}

/** A mark as a box shows it in the interface language ('7,5'). */
export const formatMarkInput = (mark: number, language: string) => numberInText(mark, language);

/** A mark or score in text ('7,5'); '—' when unknown. */
export const formatMark = (mark: number | null | undefined, language: string) =>
  mark === null || mark === undefined ? '—' : formatScore(mark, language);

/** What a refused mark should say: a conflict, a closed entry, a field, or the generic key. */
export function markRefusal(
  error: unknown,
  fallbackKey: string,
): { key: string; field?: 'reviewerScore' | 'criteria'; code?: FieldCode } {
  if (!(error instanceof ApiError)) return { key: fallbackKey };
  if (error.code === 'REVIEW_CHANGED') return { key: 'errors.REVIEW_CHANGED' };
  if (error.code === 'REVIEW_CLOSED') return { key: 'errors.REVIEW_CLOSED' };
  if (error.code === 'OPERATION_NOT_PERMITTED') return { key: 'errors.OPERATION_NOT_PERMITTED' };
  const fields = error.fieldErrors;
  for (const field of ['reviewerScore', 'criteria'] as const) {
    const code = fields[field]?.[0];
    if (code) return { key: `error_${code}`, field, code };
  }
  return { key: fallbackKey };
}
