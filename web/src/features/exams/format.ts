import type { TFunction } from 'i18next';

/** "Family Given", or the e-mail when the names are missing. */
export const personName = (p: {
  familyName?: string | null;
  givenName?: string | null;
  email?: string | null;
}) => [p.familyName, p.givenName].filter(Boolean).join(' ') || p.email || '';

/** A date and time in the interface language ("23 nov. 2026, 09:00"). */
export function formatDateTime(iso: string | null | undefined, language: string): string {
  if (!iso) return '';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  return new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short' }).format(
    date,
  );
}

const pad = (n: number) => String(n).padStart(2, '0');

/** An instant as a `datetime-local` input value, in the browser's time zone. */
export function toLocalInput(iso: string | null | undefined): string {
  if (!iso) return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** A `datetime-local` value as an ISO instant; '' when it is not a real date. */
export function fromLocalInput(value: string): string {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(value)) return '';
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? '' : d.toISOString();
}

/** Grades as the app names them ("Clasa a V-a, Clasa a VI-a"), ascending. */
export const gradesLabel = (grades: readonly number[] | undefined, t: TFunction) =>
  [...(grades ?? [])]
    .sort((a, b) => a - b)
    .map((g) => t(`grades.${g}`))
    .join(', ');

/** A subject's label: the known disciplines are translated, anything else shown as is. */
export const subjectLabel = (subject: string | undefined, t: TFunction) =>
  subject ? t(`disciplines.${subject}`, { defaultValue: subject }) : '';

/** The `credentials` spreadsheet name of SPEC.md §7: download-cms-DD-MM-YYYY.xlsx. */
export function credentialsFileName(now: Date = new Date()): string {
  return `download-cms-${pad(now.getDate())}-${pad(now.getMonth() + 1)}-${now.getFullYear()}.xlsx`;
}

/** A calendar date in the interface language ("23 nov. 2026"). */
export function formatDate(iso: string | null | undefined, language: string): string {
  if (!iso) return '';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  return new Intl.DateTimeFormat(language, { dateStyle: 'medium' }).format(date);
}
