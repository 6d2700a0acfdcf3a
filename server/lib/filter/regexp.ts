/**
 * A conservative check on client regexps before they reach PostgreSQL's `~`/`~*`.
 *
 * Clients build regexps from search text, so the accepted language is the small one such
 * code produces: literal characters, escaped ASCII punctuation, `\d \s \w` and their
 * negations, `\n \r \t \f \v`, `.`, `^`, `$`, `|`, plain groups, simple bracket expressions
 * and the quantifiers `* + ? {m} {m,} {m,n}` (optionally lazy). Everything whose meaning or
 * validity differs between JavaScript and PostgreSQL's ARE is refused: backreferences and
 * other letter escapes, `(?…)` (lookarounds, options), POSIX classes and collating elements,
 * bare `{ } ]`, nested quantifiers such as `(a+)+`, and repetition counts PostgreSQL refuses.
 */

export const MAX_REGEXP_LENGTH = 200;
/** PostgreSQL's DUPMAX: a larger repetition count is an SQL error. */
const MAX_REPEAT = 255;
/** Sum of repetition counts in one pattern, and in all of one where's patterns together;
 * bounds the compiled automata's size and the time to build them. */
export const MAX_REGEXP_COST = 1000;

const ESCAPES = new Set(['d', 'D', 's', 'S', 'w', 'W', 'n', 'r', 't', 'f', 'v']);
const CLASS_SHORTHANDS = new Set(['d', 's', 'w']);
const CONTROL_ESCAPES = new Set(['n', 'r', 't', 'f', 'v']);
const isPunctuation = (c: string | undefined): c is string =>
  c !== undefined && /^[ -/:-@[-`{-~]$/.test(c);
const isSurrogate = (c: string) => /^[\uD800-\uDFFF]$/.test(c);
const QUANTIFIER = /^\{(\d{1,3})(,(\d{1,3})?)?\}/;

/** A bracket item: a plain character (possibly an escaped one) or an escape such as `\d`. */
type ClassToken = { kind: 'char'; code: number; isDash: boolean } | { kind: 'escape' };

/** Scans a bracket expression from its `[`; returns the index after `]`, or -1 if refused. */
function scanClass(source: string, start: number): number {
  let i = start + 1;
  if (source[i] === '^') i++;
  if (source[i] === ']') return -1; // `[]` means different things in JS and PostgreSQL
  const tokens: ClassToken[] = [];
  for (;;) {
    const c = source[i];
    if (c === undefined || c === '[' || isSurrogate(c)) return -1;
    if (c === ']') break;
    if (c === '\\') {
      const next = source[i + 1];
      if (next !== undefined && (CLASS_SHORTHANDS.has(next) || CONTROL_ESCAPES.has(next))) {
        tokens.push({ kind: 'escape' });
      } else if (isPunctuation(next)) {
        tokens.push({ kind: 'char', code: next.charCodeAt(0), isDash: false });
      } else {
        return -1;
      }
      i += 2;
    } else {
      tokens.push({ kind: 'char', code: c.charCodeAt(0), isDash: c === '-' });
      i++;
    }
  }
  // An unescaped `-` is literal first or last; elsewhere it joins two plain characters.
  let k = 0;
  while (k < tokens.length) {
    const [from, dash, to] = [tokens[k], tokens[k + 1], tokens[k + 2]];
    if (from === undefined) break;
    if (dash?.kind === 'char' && dash.isDash && to !== undefined) {
      if (from.kind !== 'char' || to.kind !== 'char' || to.isDash || from.code > to.code) {
        return -1;
      }
      if (from.isDash && k > 0) return -1;
      k += 3;
      continue;
    }
    if (from.kind === 'char' && from.isDash && k > 0 && k < tokens.length - 1) return -1;
    k++;
  }
  return i + 1;
}

type Group = { hasQuantifier: boolean };
/** What a quantifier at this point would apply to. */
type Operand = 'none' | 'atom' | 'group' | 'quantified-group';

/** True when `source` is in the accepted language (see the file comment). */
export function isSafeRegexp(source: string): boolean {
  return regexpCost(source) !== undefined;
}

/**
 * The pattern's cost when it is in the accepted language (see the file comment), else
 * undefined. The cost is its repetition counts plus one per other quantifier: what makes
 * PostgreSQL's compiled automaton (and the time to build it) large. A where's regexps share
 * one budget (parse.ts), so many of them cannot add up to a long statement either.
 */
export function regexpCost(source: string): number | undefined {
  if (source.length > MAX_REGEXP_LENGTH) return undefined;
  try {
    new RegExp(source);
  } catch {
    return undefined;
  }
  const groups: Group[] = [{ hasQuantifier: false }];
  let operand: Operand = 'none';
  let totalRepeat = 0;
  let i = 0;
  while (i < source.length) {
    const c = source[i] as string;
    const top = groups[groups.length - 1] as Group;
    let repeat: number | undefined;
    let width = 1;
    if (c === '\\') {
      const next = source[i + 1];
      if (!(next !== undefined && ESCAPES.has(next)) && !isPunctuation(next)) return undefined;
      operand = 'atom';
      i += 2;
      continue;
    }
    if (c === '[') {
      const end = scanClass(source, i);
      if (end < 0) return undefined;
      operand = 'atom';
      i = end;
      continue;
    }
    if (c === '(') {
      if (source[i + 1] === '?') return undefined;
      groups.push({ hasQuantifier: false });
      operand = 'none';
      i++;
      continue;
    }
    if (c === ')') {
      const group = groups.pop() as Group;
      const parent = groups[groups.length - 1];
      if (!parent) return undefined;
      parent.hasQuantifier ||= group.hasQuantifier;
      operand = group.hasQuantifier ? 'quantified-group' : 'group';
      i++;
      continue;
    }
    if (c === '{') {
      const m = QUANTIFIER.exec(source.slice(i));
      if (!m) return undefined;
      const min = Number(m[1]);
      const max = m[3] === undefined ? min : Number(m[3]);
      if (min > MAX_REPEAT || max > MAX_REPEAT || min > max) return undefined;
      repeat = max;
      width = m[0].length;
    } else if (c !== '*' && c !== '+' && c !== '?') {
      if (c === '}' || c === ']') return undefined;
      operand = c === '|' || c === '^' || c === '$' ? 'none' : 'atom';
      i++;
      continue;
    }
    // A quantifier: it needs an operand, and may not repeat something already repeated.
    if (operand === 'none' || operand === 'quantified-group') return undefined;
    totalRepeat += repeat ?? 1;
    if (totalRepeat > MAX_REGEXP_COST) return undefined;
    top.hasQuantifier = true;
    operand = 'none';
    i += width;
    if (source[i] === '?') i++; // lazy
  }
  return groups.length === 1 ? totalRepeat : undefined;
}

/**
 * LoopBack's regexp value: `'/pattern/i'`, `'pattern'` or a RegExp, as sent. Only the `i`
 * flag is understood. Returns undefined when its form is refused; the pattern itself is
 * checked by the caller, after normalising it (`regexpCost`).
 */
export function readRegexp(value: unknown): { source: string; ignoreCase: boolean } | undefined {
  let source: string;
  let flags = '';
  if (value instanceof RegExp) {
    source = value.source;
    flags = value.flags;
  } else if (typeof value === 'string') {
    const close = value.lastIndexOf('/');
    if (value.startsWith('/') && close > 0) {
      source = value.slice(1, close);
      flags = value.slice(close + 1);
    } else {
      source = value;
    }
  } else {
    return undefined;
  }
  if (flags !== '' && flags !== 'i') return undefined;
  if (source === '') return undefined;
  return { source, ignoreCase: flags === 'i' };
}
