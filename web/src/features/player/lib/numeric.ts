import { MAX_TYPED_ANSWER_LENGTH } from '../../../../../shared/schemas/player-values.js';

const NUMBER_RE = /^-?\d+([.,]\d+)?$/;

/** What a student may have typed so far in a numeric answer ('-', '3,' are on their way). */
const TYPING_RE = /^-?\d*([.,]\d*)?$/;

/** Keeps a keystroke only if it can still become a number and fits the server's limit. */
export const acceptsTyping = (text: string) =>
  text.length <= MAX_TYPED_ANSWER_LENGTH && TYPING_RE.test(text.trim());

/**
 * The answer to send for a numeric input: the number as typed (a decimal comma kept, the
 * server reads it as a point), null for an empty field, undefined while not yet a number.
 */
export function numericAnswer(text: string): string | null | undefined {
  const value = text.trim();
  if (value === '') return null;
  return NUMBER_RE.test(value) ? value : undefined;
}
