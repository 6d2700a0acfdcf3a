import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import en from '../../i18n/en.json';
import ro from '../../i18n/ro.json';
import { incompleteResultsText, isIncompleteResults, resultsWhere } from './results.js';

const translator = async (lng: 'ro' | 'en') => {
  const i18n = i18next.createInstance();
  await i18n.init({
    lng,
    resources: { ro: { translation: ro }, en: { translation: en } },
    interpolation: { escapeValue: false },
  });
  return i18n.t;
};

describe("the phase list's results", () => {
  it('filters on complete totals or on questions waiting for marking', () => {
    expect(resultsWhere('')).toBeUndefined();
    expect(resultsWhere('complete')).toEqual({ awaitingItems: 0 });
    expect(resultsWhere('awaiting')).toEqual({ awaitingItems: { gt: 0 } });
  });
});

describe('admission refused on incomplete results', () => {
  it('recognises the details the server sends', () => {
    expect(isIncompleteResults({ awaitingItems: 3, studentsAwaiting: 2, runningAttempts: 1 })).toBe(
      true,
    );
    expect(isIncompleteResults({ awaitingItems: 3 })).toBe(false);
    expect(isIncompleteResults(null)).toBe(false);
    expect(isIncompleteResults([{ code: 'invalid', path: [] }])).toBe(false);
  });

  it('says how many questions of how many students wait, and who still writes (Romanian)', async () => {
    const t = await translator('ro');
    expect(
      incompleteResultsText({ awaitingItems: 3, studentsAwaiting: 2, runningAttempts: 1 }, t),
    ).toBe(
      'Admiterea după o regulă are nevoie de rezultate complete: 3 întrebări de la 2 elevi încă așteaptă corectarea; un elev încă scrie.',
    );
    expect(
      incompleteResultsText({ awaitingItems: 1, studentsAwaiting: 1, runningAttempts: 0 }, t),
    ).toBe(
      'Admiterea după o regulă are nevoie de rezultate complete: o întrebare de la un elev încă așteaptă corectarea.',
    );
    expect(
      incompleteResultsText({ awaitingItems: 25, studentsAwaiting: 20, runningAttempts: 21 }, t),
    ).toBe(
      'Admiterea după o regulă are nevoie de rezultate complete: 25 de întrebări de la 20 de elevi încă așteaptă corectarea; 21 de elevi încă scriu.',
    );
  });

  it('agrees the verb with the number in English', async () => {
    const t = await translator('en');
    expect(
      incompleteResultsText({ awaitingItems: 3, studentsAwaiting: 2, runningAttempts: 1 }, t),
    ).toBe(
      'Admission by a rule needs complete results: 3 questions of 2 students still wait for marking; 1 student is still writing.',
    );
    expect(
      incompleteResultsText({ awaitingItems: 1, studentsAwaiting: 1, runningAttempts: 2 }, t),
    ).toBe(
      'Admission by a rule needs complete results: 1 question of 1 student still waits for marking; 2 students are still writing.',
    );
    // Nothing counted (should not happen): the code's own sentence.
    expect(
      incompleteResultsText({ awaitingItems: 0, studentsAwaiting: 0, runningAttempts: 0 }, t),
    ).toBe(t('errors.RESULTS_INCOMPLETE'));
  });
});
