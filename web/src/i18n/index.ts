import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { DEFAULT_LOCALE, LOCALES, type UiLocale } from '../../../shared/constants.js';
import { readLocal, STORAGE_KEYS, writeLocal } from '../lib/storage.js';
import { languageNumbers } from './numbers.js';

/**
 * Each language's strings are a file of their own, fetched when that language is first shown:
 * a device loads only the language it uses (Romanian by default), the other on a switch.
 */
const STRINGS: Record<UiLocale, () => Promise<{ default: object }>> = {
  ro: () => import('./ro.json'),
  en: () => import('./en.json'),
};

const isLocale = (v: unknown): v is UiLocale => (LOCALES as readonly unknown[]).includes(v);

/** The language remembered on this device, Romanian by default (SPEC.md §1). */
export function storedLanguage(): UiLocale {
  const saved = readLocal<unknown>(STORAGE_KEYS.language, DEFAULT_LOCALE);
  return isLocale(saved) ? saved : DEFAULT_LOCALE;
}

async function loadStrings(lng: UiLocale): Promise<void> {
  if (i18n.hasResourceBundle(lng, 'translation')) return;
  const { default: strings } = await STRINGS[lng]();
  i18n.addResourceBundle(lng, 'translation', strings);
}

export async function changeLanguage(lng: UiLocale): Promise<unknown> {
  await loadStrings(lng);
  writeLocal(STORAGE_KEYS.language, lng);
  document.documentElement.lang = lng;
  return i18n.changeLanguage(lng);
}

/** Resolves once the device's language is loaded: the app renders after it (main.tsx). */
export const i18nReady: Promise<void> = (async () => {
  const lng = storedLanguage();
  await i18n
    .use(initReactI18next)
    .use(languageNumbers)
    .init({
      resources: {},
      partialBundledLanguages: true,
      lng,
      // Both files hold the same keys (i18n.test.ts): no second language is needed as fallback.
      fallbackLng: false,
      supportedLngs: [...LOCALES],
      // Every value through the formatter: numbers read "25,5" in Romanian (numbers.ts).
      interpolation: { escapeValue: false, alwaysFormat: true },
      returnNull: false,
    });
  await loadStrings(lng);
  await i18n.changeLanguage(lng);
  document.documentElement.lang = i18n.language;
})();

export default i18n;
