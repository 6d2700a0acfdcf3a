import type { TFunction } from 'i18next';
import type { Prize } from '../../../../shared/schemas/rankings.js';

/** Points in the interface language ("25,5"), a dash when there are none. */
export const formatPoints = (value: number | null | undefined, language: string) =>
  value === null || value === undefined
    ? '—'
    : new Intl.NumberFormat(language, { maximumFractionDigits: 2 }).format(value);

/** A date and time in the interface language. */
export const formatDateTime = (iso: string, language: string) =>
  new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short' }).format(
    new Date(iso),
  );

/** "Premiul I" / "First prize"; empty for none. */
export const prizeName = (prize: Prize | null | undefined, t: TFunction) =>
  prize ? t(`rankings.prizes.${prize}`) : '';

/** "Ionescu Maria", or what the privacy mode leaves of it. */
export const rowName = (row: { familyName?: string | null; givenName?: string | null }) =>
  [row.familyName, row.givenName].filter(Boolean).join(' ');
