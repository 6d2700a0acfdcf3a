import { describe, expect, it } from 'vitest';
import { editionAfterWord } from './editions.js';

describe('an edition named after the word', () => {
  it('drops a leading "Ediția" or "Edition" so the sentence does not say it twice', () => {
    expect(editionAfterWord('Ediția 2026–2027')).toBe('2026–2027');
    expect(editionAfterWord('ediţia a XX-a')).toBe('a XX-a');
    expect(editionAfterWord('Edition 2026')).toBe('2026');
    expect(editionAfterWord('2026–2027')).toBe('2026–2027');
    expect(editionAfterWord('Ediția')).toBe('Ediția');
    expect(editionAfterWord('Edițiile de toamnă')).toBe('Edițiile de toamnă');
  });
});
