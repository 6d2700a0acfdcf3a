import type { FormatterModule } from 'i18next';

const formats = new Map<string, Intl.NumberFormat>();

/**
 * A number as the language writes it inside a sentence: "25,5" in Romanian, "25.5" in English,
 * at most two decimals, and no thousands separator (a year, a code or a seat number stays
 * "2026"; Romanian would otherwise write "2.026").
 */
export function numberInText(value: number, language: string): string {
  let format = formats.get(language);
  if (!format) {
    format = new Intl.NumberFormat(language, { maximumFractionDigits: 2, useGrouping: false });
    formats.set(language, format);
  }
  return format.format(value);
}

/**
 * i18next's formatter, called for every value put into a translated text (`alwaysFormat`): a
 * number there reads as the language writes it, so no screen, mail or error shows "25.5" in
 * Romanian. No text names a format ("{{x, number}}"): there is nothing else to do.
 */
export const languageNumbers: FormatterModule = {
  type: 'formatter',
  init: () => {},
  add: () => {},
  addCached: () => {},
  // i18next types the result as a string; any other value goes back as it came.
  format: (value: unknown, _format, language) =>
    (typeof value === 'number' && Number.isFinite(value) && language
      ? numberInText(value, language)
      : value) as string,
};
