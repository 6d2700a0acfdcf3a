import type { FieldCode } from '../../../../shared/errors.js';
import { MAX_TOTAL_SCORE } from '../../../../shared/schemas/tests.js';
import { ApiError } from '../../api/client.js';

/**
 * Each question's points as the organiser types them (SPEC.md §3 `assignedItems`): more than
 * 0, two decimals at most, a decimal comma or point; together exactly the test's total. Sums
 * are kept in hundredths so that 33,33 + 33,33 + 33,34 is 100 and not 99.99999999999999.
 */

/** Points as the interface language writes them in a box: '8,5' in Romanian, no grouping. */
export const formatPointsInput = (points: number, language: string) =>
  new Intl.NumberFormat(language, { maximumFractionDigits: 2, useGrouping: false }).format(points);

/** A number as typed: digits with one decimal comma or point ('8', '8,5', ',5', '8.'). */
const NUMBER = /^[+-]?(\d+([.,]\d*)?|[.,]\d+)$/;

/** Typed points → a number, or the field code the box shows. */
export function parsePoints(text: string): number | FieldCode {
  const s = text.replace(/\s/g, '');
  if (s === '') return 'required';
  if (!NUMBER.test(s)) return 'not_number';
  const n = Number(s.replace(',', '.'));
  if (n <= 0) return 'not_positive';
  const decimals = s.split(/[.,]/)[1] ?? '';
  if (decimals.length > 2 || n > MAX_TOTAL_SCORE) return 'invalid';
  return n;
}

export const toCents = (points: number) => Math.round(points * 100);

export type PointsCheck = {
  /** Per row: the parsed points, or the field code of what is wrong. */
  rows: (number | FieldCode)[];
  /** The sum of the rows that parse, in hundredths. */
  sumCents: number;
  /** Sum minus the test's total, in hundredths: < 0 points still to share, > 0 too many. */
  differenceCents: number;
  /** Every row parses and they add up to the total: the form may be sent. */
  isValid: boolean;
};

export function checkPoints(texts: readonly string[], totalScore: number): PointsCheck {
  const rows = texts.map(parsePoints);
  const sumCents = rows.reduce<number>(
    (sum, r) => (typeof r === 'number' ? sum + toCents(r) : sum),
    0,
  );
  const differenceCents = sumCents - toCents(totalScore);
  const isValid = rows.length > 0 && rows.every((r) => typeof r === 'number') && !differenceCents;
  return { rows, sumCents, differenceCents, isValid };
}

/**
 * The message for a refused save: points that do not add up (score_sum), an item already
 * marked, a closed phase, questions that changed meanwhile; null for a failure with no more to
 * say than "could not be saved".
 */
export function pointsRefusalKey(error: unknown): string | null {
  if (!(error instanceof ApiError)) return null;
  if (error.code === 'ITEM_ALREADY_MARKED' || error.code === 'PHASE_CLOSED') {
    return `errors.${error.code}`;
  }
  if (error.code === 'OPERATION_NOT_PERMITTED' || error.code === 'NOT_FOUND') {
    return `errors.${error.code}`;
  }
  if (error.code === 'VALIDATION_FAILED') {
    const codes = error.fieldErrors.assignedItems ?? [];
    if (codes.includes('score_sum')) return 'error_score_sum';
    // An item missing or not the test's: the dialog shows an old copy of the test.
    if (codes.includes('invalid')) return 'tests.pointsEditor.stale';
    return 'errors.VALIDATION_FAILED';
  }
  return null;
}
