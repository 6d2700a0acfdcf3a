import { randomInt } from 'node:crypto';

/**
 * What the QR code of a printed booklet page says, and reading it back. Short, so the code
 * stays a version 3–4 symbol that a 150 dpi scan of a stained page still reads:
 *
 * - an answer page: `PDM1.<test id, 32 hex>.<paper code, 6 letters>.<question N>.<page>`
 * - a student's cover page: `PDM1.<test>.<code>.C`
 * - a spare page (code and question written by hand): `PDM1.<test>.X.<serial>`
 *
 * The question is its position in the test (`Întrebarea N`); the name is never in it.
 */
export type PageCode =
  | { kind: 'answer'; testId: string; code: string; itemIndex: number; page: number }
  | { kind: 'cover'; testId: string; code: string }
  | { kind: 'spare'; testId: string; serial: number };

const PREFIX = 'PDM1';
/** Letters and digits no one confuses when reading a code aloud (no 0/O, 1/I/L). */
const CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
const CODE_CHARS = /^[A-HJKMNP-Z2-9]{6}$/;

/** A new anonymous paper code (`K7P-2QX`), never derived from a name. */
export function newPaperCode(): string {
  let code = '';
  for (let i = 0; i < 6; i++) code += CODE_ALPHABET[randomInt(CODE_ALPHABET.length)];
  return `${code.slice(0, 3)}-${code.slice(3)}`;
}

/**
 * A code as a person typed it (`k7p 2qx`, `K7P2QX`) in its printed form, or undefined: case,
 * spaces and the dash are forgiven, a letter outside the alphabet is not guessed at.
 */
export function normalisePaperCode(text: string): string | undefined {
  const bare = text.toUpperCase().replace(/[\s-]/g, '');
  if (!CODE_CHARS.test(bare)) return undefined;
  return `${bare.slice(0, 3)}-${bare.slice(3)}`;
}

const hexOf = (uuid: string) => uuid.replaceAll('-', '').toUpperCase();
const uuidOf = (hex: string) =>
  `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;

export function encodePageCode(c: PageCode): string {
  const test = hexOf(c.testId);
  switch (c.kind) {
    case 'answer':
      return `${PREFIX}.${test}.${c.code.replace('-', '')}.${c.itemIndex}.${c.page}`;
    case 'cover':
      return `${PREFIX}.${test}.${c.code.replace('-', '')}.C`;
    case 'spare':
      return `${PREFIX}.${test}.X.${c.serial}`;
  }
}

const SMALL_INT = /^[1-9]\d{0,2}$/;

/** The page a QR text describes, or undefined when it is not one of Podium's booklet codes. */
export function decodePageCode(text: string): PageCode | undefined {
  const parts = text.trim().split('.');
  const [prefix, test, who, a, b] = parts;
  if (prefix !== PREFIX || !test || !/^[0-9A-F]{32}$/.test(test) || !who) return undefined;
  const testId = uuidOf(test.toLowerCase());
  if (who === 'X' && parts.length === 4 && a && SMALL_INT.test(a)) {
    return { kind: 'spare', testId, serial: Number(a) };
  }
  if (!CODE_CHARS.test(who)) return undefined;
  const code = `${who.slice(0, 3)}-${who.slice(3)}`;
  if (a === 'C' && parts.length === 4) return { kind: 'cover', testId, code };
  if (parts.length === 5 && a && b && SMALL_INT.test(a) && SMALL_INT.test(b)) {
    return { kind: 'answer', testId, code, itemIndex: Number(a), page: Number(b) };
  }
  return undefined;
}
