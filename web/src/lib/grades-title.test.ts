import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import en from '../i18n/en.json';
import ro from '../i18n/ro.json';
import { gradesList, gradesTitle } from './grades-title.js';

const translator = async (lng: 'ro' | 'en') => {
  const i18n = i18next.createInstance();
  await i18n.init({
    lng,
    resources: { ro: { translation: ro }, en: { translation: en } },
    interpolation: { escapeValue: false },
  });
  return i18n.t;
};

describe('test title by grades', () => {
  it('lists the grades ascending, once each, with 99 named', () => {
    expect(gradesList([6, 5, 6], 'Absolvent')).toBe('5, 6');
    expect(gradesList([99, 12], 'Absolvent')).toBe('12, Absolvent');
    expect(gradesList([], 'Absolvent')).toBe('');
  });

  it("reads 'Clasa 5, 6' in Romanian and 'Grade 5, 6' in English", async () => {
    expect(gradesTitle([6, 5], await translator('ro'))).toBe('Clasa 5, 6');
    expect(gradesTitle([6, 5], await translator('en'))).toBe('Grade 5, 6');
    expect(gradesTitle([8], await translator('ro'))).toBe('Clasa 8');
  });
});
