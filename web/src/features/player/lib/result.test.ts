import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import en from '../../../i18n/en.json';
import ro from '../../../i18n/ro.json';
import { finishedTextKey, readScore } from './result.js';

const translator = async (lng: 'ro' | 'en') => {
  const i18n = i18next.createInstance();
  await i18n.init({
    lng,
    resources: { ro: { translation: ro }, en: { translation: en } },
    interpolation: { escapeValue: false },
  });
  return i18n.t;
};

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

describe('the end screen', () => {
  it('says how the attempt ended: time up, phase closed, or the student', () => {
    expect(finishedTextKey('sweeper', 'final')).toBe('player.finished.byTime');
    expect(finishedTextKey('closed', 'awaiting_marking')).toBe('player.finished.byClosing');
    expect(finishedTextKey('student', 'awaiting_marking')).toBe('player.finished.textAwaiting');
    expect(finishedTextKey('student', 'final')).toBe('player.finished.text');
    expect(finishedTextKey(null, null)).toBe('player.finished.text');
  });
});
