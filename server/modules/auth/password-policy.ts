import { readFileSync } from 'node:fs';
import type { FieldCode } from '../../../shared/errors.js';
import { validationFailed } from '../../lib/errors.js';

/**
 * New passwords are checked against what guessers try first (NIST SP 800-63B §5.1.1.2): the
 * common passwords of `data/common-passwords.txt` (see data/README.md), one character
 * repeated or a plain run such as `abcdefgh` or `87654321`, and the account's own e-mail
 * address or the part before its @. Length is the schema's rule (MIN_PASSWORD_LENGTH).
 */
let common: Set<string> | undefined;
const commonPasswords = () => {
  common ??= new Set(
    readFileSync(new URL('./data/common-passwords.txt', import.meta.url), 'utf8')
      .split('\n')
      .filter(Boolean),
  );
  return common;
};

/** Every character one more (or one less) than the one before, or all the same. */
function isRunOrRepeat(text: string): boolean {
  const codes = [...text].map((c) => c.codePointAt(0) ?? 0);
  for (const step of [0, 1, -1]) {
    if (codes.every((code, i) => i === 0 || code - (codes[i - 1] ?? 0) === step)) return true;
  }
  return false;
}

/** The field code for a password too easy to guess for this account, or undefined. */
export function passwordProblem(password: string, email?: string): FieldCode | undefined {
  const folded = password.toLowerCase();
  if (commonPasswords().has(folded) || isRunOrRepeat(folded)) return 'password_too_common';
  if (email) {
    const address = email.trim().toLowerCase();
    const local = address.split('@')[0];
    if (folded === address || folded === local) return 'password_too_common';
  }
  return undefined;
}

/** Throws VALIDATION_FAILED on `password` when the password is too easy to guess. */
export function assertGoodPassword(password: string, email?: string): void {
  const code = passwordProblem(password, email);
  if (code) throw validationFailed([{ code, path: ['password'] }]);
}
