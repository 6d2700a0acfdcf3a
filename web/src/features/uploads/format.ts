import type { TFunction } from 'i18next';
import { gradesTitle } from '../../lib/grades-title.js';

/** "Family Given". */
export const studentName = (s: { familyName: string | null; givenName: string | null }) =>
  [s.familyName, s.givenName].filter(Boolean).join(' ');

/** 'Matematică - Clasa 7, 8' (SPEC.md §3), the subject translated when it is a known one. */
export const testTitle = (subject: string, grades: readonly number[], t: TFunction) =>
  `${t(`disciplines.${subject}`, { defaultValue: subject })} - ${gradesTitle(grades, t)}`;

/** A date and time in the interface language ('23 nov. 2026, 09:00'). */
export function formatWhen(iso: string, language: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  return new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short' }).format(
    date,
  );
}

/** Option letters: 0 → 'A'. */
export const optionLetter = (index: number) => String.fromCharCode(65 + index);
