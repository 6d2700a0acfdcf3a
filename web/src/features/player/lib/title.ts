import type { TFunction } from 'i18next';
import { gradesTitle } from '../../../lib/grades-title.js';

/** A known discipline in the interface language; any other subject as written. */
export const subjectName = (subject: string, t: TFunction) =>
  t(`disciplines.${subject}`, { defaultValue: subject });

/** The player's title (SPEC.md §3): 'Matematică - Clasa 5, 6'. */
export const testTitle = (subject: string, grades: readonly number[], t: TFunction) =>
  `${subjectName(subject, t)} - ${gradesTitle(grades, t)}`;

/** A date and time in the interface language ('23 nov. 2026, 09:00'). */
export function formatWhen(iso: string | null | undefined, language: string): string {
  if (!iso) return '';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  return new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short' }).format(
    date,
  );
}

/** A window in the interface language, the date once when it is the same day. */
export function formatWindow(startIso: string, endIso: string, language: string): string {
  const start = new Date(startIso);
  const end = new Date(endIso);
  if (Number.isNaN(start.getTime()) || Number.isNaN(end.getTime())) return '';
  return new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short' }).formatRange(
    start,
    end,
  );
}
