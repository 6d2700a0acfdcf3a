import { createInstance } from 'i18next';
import { describe, expect, it } from 'vitest';
import { languageNumbers } from './numbers.js';

async function texts(lng: 'ro' | 'en') {
  const i18n = createInstance();
  await i18n.use(languageNumbers).init({
    lng,
    resources: {
      ro: {
        translation: {
          total: '{{total}} puncte',
          edition: 'Ediția {{year}}',
          who: 'Bună, {{name}}',
          appeals_one: '{{count}} contestație',
          appeals_few: '{{count}} contestații',
          appeals_other: '{{count}} de contestații',
        },
      },
      en: { translation: { total: '{{total}} points', edition: 'Edition {{year}}' } },
    },
    interpolation: { escapeValue: false, alwaysFormat: true },
  });
  return i18n.t.bind(i18n);
}

describe('numbers in translated texts', () => {
  it('read with a decimal comma in Romanian and a point in English', async () => {
    expect((await texts('ro'))('total', { total: 25.5 })).toBe('25,5 puncte');
    expect((await texts('en'))('total', { total: 25.5 })).toBe('25.5 points');
    expect((await texts('ro'))('total', { total: 7.333333 })).toBe('7,33 puncte');
  });

  it('keep a year, a code or a large count without a thousands separator', async () => {
    expect((await texts('ro'))('edition', { year: 2026 })).toBe('Ediția 2026');
    expect((await texts('en'))('edition', { year: 12345 })).toBe('Edition 12345');
  });

  it('leave words alone and keep the plural forms', async () => {
    const t = await texts('ro');
    expect(t('who', { name: 'Ana' })).toBe('Bună, Ana');
    expect(t('appeals', { count: 1 })).toBe('1 contestație');
    expect(t('appeals', { count: 4 })).toBe('4 contestații');
    expect(t('appeals', { count: 20 })).toBe('20 de contestații');
  });
});
