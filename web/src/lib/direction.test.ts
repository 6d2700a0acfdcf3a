import { describe, expect, it } from 'vitest';
import { effectiveDirection, languageDirection } from './direction.js';

describe('text direction', () => {
  it('follows the language', () => {
    expect(languageDirection('ro')).toBe('ltr');
    expect(languageDirection('en-GB')).toBe('ltr');
    expect(languageDirection('ar')).toBe('rtl');
    expect(languageDirection('he_IL')).toBe('rtl');
  });

  it('lets the settings panel override it either way', () => {
    expect(effectiveDirection(undefined, 'ro')).toBe('ltr');
    expect(effectiveDirection(undefined, 'fa')).toBe('rtl');
    expect(effectiveDirection('rtl', 'ro')).toBe('rtl');
    expect(effectiveDirection('ltr', 'ar')).toBe('ltr');
  });
});
