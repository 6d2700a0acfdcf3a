import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { UUID_RE, uuidv7 } from './ids.js';
import { normalizeName } from './text.js';

describe('uuidv7', () => {
  it('is a version-7 UUID that sorts by creation time', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 2 ** 47 }),
        fc.integer({ min: 1, max: 2 ** 20 }),
        (t, dt) => {
          const a = uuidv7(t);
          const b = uuidv7(t + dt);
          expect(a).toMatch(UUID_RE);
          expect(a[14]).toBe('7');
          expect('89ab').toContain(a[19]);
          expect(a < b).toBe(true);
        },
      ),
    );
  });

  it('does not repeat', () => {
    const ids = new Set(Array.from({ length: 10_000 }, () => uuidv7(1_700_000_000_000)));
    expect(ids.size).toBe(10_000);
  });
});

describe('normalizeName', () => {
  it('drops diacritics and case, both comma-below and cedilla forms', () => {
    expect(normalizeName('  Ștefănescu-Țăranu ')).toBe('stefanescu-taranu');
    expect(normalizeName('Şerban Ţugui')).toBe('serban tugui');
    expect(normalizeName('Îngerașă Âmbu')).toBe('ingerasa ambu');
    expect(normalizeName(null)).toBeNull();
  });
});
