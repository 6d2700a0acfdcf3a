import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { DEFAULT_LOCALE, LOCALES, type UiLocale } from '../../../shared/constants.js';
import { readLocal, STORAGE_KEYS, writeLocal } from '../lib/storage.js';
import { languageNumbers } from './numbers.js';
import type { StringsPart } from './parts.js';

/**
 * Each language's strings are fetched when that language is first shown, in two parts
 * (parts.ts): `core` before the first screen, `staff` with the first page off the student's
 * path (withStaffStrings). A student's device loads only the core of its language.
 */
const STRINGS: Record<UiLocale, Record<StringsPart, () => Promise<{ default: object }>>> = {
  ro: {
    core: () => import('./ro.json?strings=core'),
    staff: () => import('./ro.json?strings=staff'),
  },
  en: {
    core: () => import('./en.json?strings=core'),
    staff: () => import('./en.json?strings=staff'),
  },
};

const isLocale = (v: unknown): v is UiLocale => (LOCALES as readonly unknown[]).includes(v);

/** The language remembered on this device, Romanian by default (SPEC.md §1). */
export function storedLanguage(): UiLocale {
  const saved = readLocal<unknown>(STORAGE_KEYS.language, DEFAULT_LOCALE);
  return isLocale(saved) ? saved : DEFAULT_LOCALE;
}

/** Once a page asked for the staff part, every language shown gets it too. */
let staffWanted = false;
/** The language shown, or being switched to. */
let shownLanguage: UiLocale = DEFAULT_LOCALE;
const loaded = new Set<string>();
const loading = new Map<string, Promise<void>>();

function loadPart(lng: UiLocale, part: StringsPart): Promise<void> {
  const key = `${lng}:${part}`;
  if (loaded.has(key)) return Promise.resolve();
  let pending = loading.get(key);
  if (!pending) {
    pending = STRINGS[lng]
      [part]()
      .then(({ default: strings }) => {
        i18n.addResourceBundle(lng, 'translation', strings, true, true);
        loaded.add(key);
      })
      .finally(() => loading.delete(key));
    loading.set(key, pending);
  }
  return pending;
}

async function loadStrings(lng: UiLocale): Promise<void> {
  await Promise.all([loadPart(lng, 'core'), ...(staffWanted ? [loadPart(lng, 'staff')] : [])]);
}

/** `load`'s module once the staff strings are there too: what a page off the student's path awaits. */
export function withStaffStrings<T>(load: Promise<T>): Promise<T> {
  staffWanted = true;
  return Promise.all([load, loadStrings(shownLanguage)]).then(([module]) => module);
}

export async function changeLanguage(lng: UiLocale): Promise<unknown> {
  shownLanguage = lng;
  await loadStrings(lng);
  writeLocal(STORAGE_KEYS.language, lng);
  document.documentElement.lang = lng;
  return i18n.changeLanguage(lng);
}

/** Resolves once the device's language is loaded: the app renders after it (main.tsx). */
export const i18nReady: Promise<void> = (async () => {
  const lng = storedLanguage();
  shownLanguage = lng;
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
