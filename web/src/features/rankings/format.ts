import type { TFunction } from 'i18next';
import { BUCHAREST } from '../../../../shared/constants.js';
import type { Prize } from '../../../../shared/schemas/rankings.js';

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

/**
 * "Cluj", "București, sectorul 3", or "București (sector necompletat)" when a Bucharest
 * student's sector is not known yet.
 */
export const countyName = (
  row: { studentCounty?: string | null; studentSector?: number | null },
  t: TFunction,
) => {
  if (!row.studentCounty) return '—';
  if (row.studentSector) {
    return t('sectors.countyWithSector', { county: row.studentCounty, sector: row.studentSector });
  }
  return row.studentCounty === BUCHAREST
    ? t('sectors.countyNotSet', { county: row.studentCounty })
    : row.studentCounty;
};
