import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { DEFAULT_LOCALE, LOCALES, type UiLocale } from '../../../shared/constants.js';
import { readLocal, STORAGE_KEYS, writeLocal } from '../lib/storage.js';
import en from './en.json';
import ro from './ro.json';

export const resources = { ro: { translation: ro }, en: { translation: en } } as const;

const isLocale = (v: unknown): v is UiLocale => (LOCALES as readonly unknown[]).includes(v);

/** The language remembered on this device, Romanian by default (SPEC.md §1). */
export function storedLanguage(): UiLocale {
  const saved = readLocal<unknown>(STORAGE_KEYS.language, DEFAULT_LOCALE);
  return isLocale(saved) ? saved : DEFAULT_LOCALE;
}

export function changeLanguage(lng: UiLocale): Promise<unknown> {
  writeLocal(STORAGE_KEYS.language, lng);
  document.documentElement.lang = lng;
  return i18n.changeLanguage(lng);
}

void i18n.use(initReactI18next).init({
  resources,
  lng: storedLanguage(),
  fallbackLng: DEFAULT_LOCALE,
  supportedLngs: [...LOCALES],
  interpolation: { escapeValue: false },
  returnNull: false,
});
document.documentElement.lang = i18n.language;

export default i18n;
