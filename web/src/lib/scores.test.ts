import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import en from '../i18n/en.json';
import ro from '../i18n/ro.json';
import { formatScore, formatTotal, readScore } from './scores.js';

const translator = async (lng: 'ro' | 'en') => {
  const i18n = i18next.createInstance();
  await i18n.init({
    lng,
    resources: { ro: { translation: ro }, en: { translation: en } },
    interpolation: { escapeValue: false },
  });
  return i18n.t;
};

describe('points as the interface writes them', () => {
  it("uses the language's decimal separator, at most two decimals, a dash for no total", () => {
    expect(formatScore(57.5, 'ro')).toBe('57,5');
    expect(formatScore(57.5, 'en')).toBe('57.5');
    expect(formatScore(8.333333, 'en')).toBe('8.33');
    expect(formatTotal(0, 'ro')).toBe('0');
    expect(formatTotal(null, 'ro')).toBe('—');
  });
});

describe("a student's score", () => {
  it('is provisional while questions wait for marking, and says how many', () => {
    expect(readScore({ scoreState: 'awaiting_marking', awaitingItems: 2 })).toEqual({
      scoreKey: 'scores.provisional',
      note: { key: 'scores.awaiting', count: 2 },
    });
  });

  it('is provisional until the appeals are over, then final', () => {
    expect(readScore({ scoreState: 'provisional', awaitingItems: 0 })).toEqual({
      scoreKey: 'scores.provisional',
      note: { key: 'scores.untilAppeals' },
    });
    expect(readScore({ scoreState: 'final', awaitingItems: 0 })).toEqual({
      scoreKey: 'scores.final',
      note: null,
    });
    // A copy stored on the device before results had states reads as it did then.
    expect(readScore({ scoreState: null, awaitingItems: 0 }).scoreKey).toBe('scores.final');
  });

  it('counts the waiting questions with the Romanian plural forms', async () => {
    const t = await translator('ro');
    const note = (count: number) => t('scores.awaiting', { count });
    expect(note(1)).toMatch(/^O întrebare așteaptă corectarea;/);
    expect(note(3)).toMatch(/^3 întrebări așteaptă corectarea;/);
    expect(note(19)).toMatch(/^19 întrebări așteaptă/);
    expect(note(20)).toMatch(/^20 de întrebări așteaptă/);
    expect(note(101)).toMatch(/^101 întrebări așteaptă/);
    const en = await translator('en');
    expect(en('scores.awaiting', { count: 1 })).toMatch(/^1 question waits for marking;/);
    expect(en('scores.awaiting', { count: 4 })).toMatch(/^4 questions wait for marking;/);
    expect(t('scores.provisional', { score: '60', total: '100' })).toBe(
      'Punctaj provizoriu: 60 din 100',
    );
  });
});
