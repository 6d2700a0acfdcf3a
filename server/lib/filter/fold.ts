/**
 * How a column's text was normalised when it was stored, so that what a client sends is
 * normalised the same way before it is checked and compiled (parse.ts does both, in that
 * order: the check sees exactly what PostgreSQL will run).
 *
 * - `name`: lower case without diacritics, as `normalizeName` (server/lib/text.ts) stores
 *   people's and competitions' names.
 * - `lower`: lower case, as e-mail addresses are stored.
 * - `upper`: upper case, as teacher codes are stored.
 */
export type Fold = 'name' | 'lower' | 'upper';

const stripDiacritics = (s: string) => s.normalize('NFD').replace(/\p{Diacritic}/gu, '');

/** A plain value (eq, inq, between…), normalised as the column's text was. */
export function foldValue(fold: Fold, value: string): string {
  if (fold === 'name') return stripDiacritics(value).toLowerCase();
  return fold === 'lower' ? value.toLowerCase() : value.toUpperCase();
}

/** Runs of characters outside ASCII: the only ones a pattern's fold may change. */
const NON_ASCII = /[^\p{ASCII}]+/gu;

/**
 * A `like` or `regexp` pattern, normalised as the column's text was, with its syntax left
 * alone: only characters outside ASCII are folded (every metacharacter, `\`, `^`, `$`, `[`,
 * a backtick, is ASCII and kept as sent), so `^alan` stays anchored and `[^a]` stays negated.
 * `caseAscii` also changes the case of ASCII letters as the fold does, which LIKE allows (its
 * only metacharacters are `% _ \`); a regexp's case is left alone (`\D` would become `\d`):
 * it is matched with `~*` instead.
 * The result can still be anything (a combining mark vanishes, letting what follows meet what
 * preceded it), so it is checked after this, never before only.
 */
export function foldPattern(fold: Fold, pattern: string, caseAscii: boolean): string {
  const folded = pattern.replace(NON_ASCII, (run) => foldValue(fold, run));
  if (!caseAscii) return folded;
  return fold === 'upper' ? folded.toUpperCase() : folded.toLowerCase();
}
