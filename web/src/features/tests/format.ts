import type { TFunction } from 'i18next';
import { statementImage, statementImageIds } from '../../../../shared/statement-core.js';

const pad = (n: number) => String(n).padStart(2, '0');

/** A date and time in the interface language ("23 nov. 2026, 09:00"). */
export function formatDateTime(iso: string | null | undefined, language: string): string {
  if (!iso) return '';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  return new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short' }).format(
    date,
  );
}

/** A test's window: "23 nov. 2026, 09:00 – 12:00" on one day, both dates otherwise. */
export function formatWindow(startIso: string, endIso: string, language: string): string {
  const start = new Date(startIso);
  const end = new Date(endIso);
  if (Number.isNaN(start.getTime()) || Number.isNaN(end.getTime())) return '';
  const sameDay = start.toDateString() === end.toDateString();
  const endText = sameDay
    ? new Intl.DateTimeFormat(language, { timeStyle: 'short' }).format(end)
    : formatDateTime(endIso, language);
  return `${formatDateTime(startIso, language)} – ${endText}`;
}

/** An instant as a `datetime-local` input value, in the browser's time zone. */
export function toLocalInput(iso: string | null | undefined): string {
  if (!iso) return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/**
 * The first whole minute at or after an instant: a `datetime-local` input holds minutes, so
 * a window that must not start before the phase starts on the phase's next minute.
 */
export function ceilToMinute(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return new Date(Math.ceil(d.getTime() / 60_000) * 60_000).toISOString();
}

/** A `datetime-local` value as an ISO instant; '' when it is not a real date. */
export function fromLocalInput(value: string): string {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(value)) return '';
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? '' : d.toISOString();
}

/** A subject's label: the known disciplines are translated, anything else shown as is. */
export const subjectLabel = (subject: string, t: TFunction) =>
  t(`disciplines.${subject}`, { defaultValue: subject });

/**
 * The statement to render for a test item: its own image (`imageFileId`) goes under the
 * text unless the text already shows it (questions imported from images embed it).
 */
export function itemMarkdown(item: { itemQ: string; imageFileId: string | null }): string {
  const id = item.imageFileId?.toLowerCase();
  if (!id || statementImageIds(item.itemQ).some((shown) => shown.toLowerCase() === id)) {
    return item.itemQ;
  }
  return `${item.itemQ}\n\n${statementImage(id)}`;
}
