import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MIN_PASSWORD_LENGTH } from '../../../shared/constants.js';
import { passwordProblem } from './password-policy.js';

describe('new passwords', () => {
  it('are checked against more than ten thousand common passwords, ignoring case', () => {
    const list = readFileSync(new URL('./data/common-passwords.txt', import.meta.url), 'utf8')
      .split('\n')
      .filter(Boolean);
    expect(list.length).toBeGreaterThan(10_000);
    expect(new Set(list).size).toBe(list.length);
    expect(list.every((p) => p === p.toLowerCase() && p.length >= MIN_PASSWORD_LENGTH)).toBe(true);
    for (const p of ['12345678', 'password', 'PassWord', 'qwertyuiop', 'parola123', 'iloveyou']) {
      expect(passwordProblem(p), p).toBe('password_too_common');
    }
  });

  it('refuses a character repeated and plain runs', () => {
    for (const p of ['zzzzzzzzzz', 'abcdefghij', 'HGFEDCBA', '9876543210']) {
      expect(passwordProblem(p), p).toBe('password_too_common');
    }
  });

  it("refuses the account's own e-mail address or the part before its @", () => {
    expect(passwordProblem('Ioana.Pop@scoala.ro', 'ioana.pop@scoala.ro')).toBe(
      'password_too_common',
    );
    expect(passwordProblem('ioana.pop', 'Ioana.Pop@scoala.ro')).toBe('password_too_common');
    expect(passwordProblem('ioana.pop', 'alt.elev@scoala.ro')).toBeUndefined();
  });

  it('accepts the passwords of the demo, the tests and ordinary people', () => {
    for (const p of ['podium-demo-2026', 'parola-buna-123', 'parola-sigura-1', 'Cluj 1984 iarna']) {
      expect(passwordProblem(p, 'elev@scoala.ro'), p).toBeUndefined();
    }
  });
});
