/** Languages written right to left (ISO 639 codes); Podium's own ro and en are not among them. */
const RTL_LANGUAGES = new Set(['ar', 'ckb', 'dv', 'fa', 'he', 'ps', 'sd', 'ug', 'ur', 'yi']);

export type Direction = 'ltr' | 'rtl';

/** The text direction a language is written in (SPEC.md §1: direction follows the language). */
export function languageDirection(language: string): Direction {
  const base = language.toLowerCase().split(/[-_]/)[0] ?? '';
  return RTL_LANGUAGES.has(base) ? 'rtl' : 'ltr';
}

/** The direction the screens use: the one picked in the settings panel, else the language's. */
export function effectiveDirection(picked: Direction | undefined, language: string): Direction {
  return picked ?? languageDirection(language);
}
