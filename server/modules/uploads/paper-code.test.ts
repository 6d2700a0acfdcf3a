import { describe, expect, it } from 'vitest';
import { PAPER_CODE_RE } from '../../../shared/schemas/paper.js';
import {
  decodePageCode,
  encodePageCode,
  newPaperCode,
  normalisePaperCode,
  type PageCode,
} from './paper-code.js';

const testId = '0190f0a1-b2c3-7d5e-8f90-a1b2c3d4e5f6';

describe('booklet page codes', () => {
  it('reads back what it wrote, for every kind of page', () => {
    const pages: PageCode[] = [
      { kind: 'answer', testId, code: 'K7P-2QX', itemIndex: 4, page: 2 },
      { kind: 'cover', testId, code: 'K7P-2QX' },
      { kind: 'spare', testId, serial: 12 },
    ];
    for (const page of pages) {
      const text = encodePageCode(page);
      // QR's alphanumeric set only: capitals, digits and dots.
      expect(text).toMatch(/^[0-9A-Z.]+$/);
      expect(decodePageCode(text)).toEqual(page);
    }
  });

  it('reads nothing into a code that is not one of its own', () => {
    for (const text of [
      'https://example.ro/',
      'PDM1',
      `PDM2.${'A'.repeat(32)}.K7P2QX.1.1`,
      `PDM1.${'A'.repeat(31)}.K7P2QX.1.1`,
      `PDM1.${'A'.repeat(32)}.K7P2Q0.1.1`,
      `PDM1.${'A'.repeat(32)}.K7P2QX.0.1`,
      `PDM1.${'A'.repeat(32)}.K7P2QX.1`,
      `PDM1.${'A'.repeat(32)}.K7P2QX.1.1.1`,
      `PDM1.${'A'.repeat(32)}.X.0`,
    ]) {
      expect(decodePageCode(text), text).toBeUndefined();
    }
  });

  it('makes codes of the readable alphabet, and takes them back as people type them', () => {
    for (let i = 0; i < 200; i += 1) expect(newPaperCode()).toMatch(PAPER_CODE_RE);
    expect(normalisePaperCode(' k7p 2qx ')).toBe('K7P-2QX');
    expect(normalisePaperCode('K7P2QX')).toBe('K7P-2QX');
    expect(normalisePaperCode('K7P-2Q0')).toBeUndefined();
    expect(normalisePaperCode('K7P-2Q')).toBeUndefined();
  });
});
