/** Limits, enums and reference data shared by the server and the web app (SPEC.md §9). */

export const LOCALES = ['ro', 'en'] as const;
export type UiLocale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: UiLocale = 'ro';

/** Student locale values (SPEC.md §1): the language a student writes in. */
export const STUDENT_LOCALES = ['ro', 'hu', 'de'] as const;

export const USER_TYPES = ['student', 'teacher', 'admin'] as const;
export type UserType = (typeof USER_TYPES)[number];
export const SIGNUP_TYPES = ['student', 'teacher'] as const;

export const USER_STATES = ['active', 'inactive'] as const;
export type UserState = (typeof USER_STATES)[number];

/** Grade 0 is the preparatory class; 99 means a graduate ('Absolvent'). */
export const GRADE_ABSOLVENT = 99;
export const GRADES = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, GRADE_ABSOLVENT] as const;

export const PAGE_SIZE = 10;
export const PAGE_SIZE_EXAMS = 25;
export const EDITION_LIST_LIMIT = 100;
export const DEFAULT_COUNT = 100;
export const MAX_PAGE_SIZE = 1000;

export const SNACKBAR_HIDE_MS = 6000;
export const THANK_YOU_RESET_MS = 3500;
export const NAV_SEARCH_SUGGESTIONS = 10;
export const SIDEBAR_WIDTH = 280;
export const SIDEBAR_FOLDED_WIDTH = 64;
export const BOXED_MAX_WIDTH = 1120;

export const MIN_TEXT_LENGTH = 3;
export const MAX_NAME_LENGTH = 100;
export const MAX_TEXT_LENGTH = 200;
export const MAX_EMAIL_LENGTH = 254;
export const MIN_PASSWORD_LENGTH = 8;
export const MAX_PASSWORD_LENGTH = 200;
export const MAX_SEARCH_LENGTH = 100;

export const ANSWER_FILE_TYPES = ['pdf', 'png', 'jpeg', 'jpg'] as const;
export const ANSWER_MIME_TYPES = ['application/pdf', 'image/png', 'image/jpeg'] as const;

export const DIFFICULTIES = ['low', 'medium', 'hard'] as const;

export const COUNTRY_ROMANIA = 'România';

/** Romania's 41 counties and Bucharest (GLOSSARY.md), with their diacritics. */
export const COUNTIES = [
  'Alba',
  'Arad',
  'Argeș',
  'Bacău',
  'Bihor',
  'Bistrița-Năsăud',
  'Botoșani',
  'Brașov',
  'Brăila',
  'Buzău',
  'Caraș-Severin',
  'Călărași',
  'Cluj',
  'Constanța',
  'Covasna',
  'Dâmbovița',
  'Dolj',
  'Galați',
  'Giurgiu',
  'Gorj',
  'Harghita',
  'Hunedoara',
  'Ialomița',
  'Iași',
  'Ilfov',
  'Maramureș',
  'Mehedinți',
  'Mureș',
  'Neamț',
  'Olt',
  'Prahova',
  'Satu Mare',
  'Sălaj',
  'Sibiu',
  'Suceava',
  'Teleorman',
  'Timiș',
  'Tulcea',
  'Vaslui',
  'Vâlcea',
  'Vrancea',
  'București',
] as const;
export type County = (typeof COUNTIES)[number];

export const BUCHAREST = 'București' satisfies County;

/**
 * Bucharest's six sectors (GLOSSARY.md): a Bucharest student's sector is kept beside their
 * county, and a qualification rule may count each sector as a county of its own.
 */
export const BUCHAREST_SECTORS = [1, 2, 3, 4, 5, 6] as const;
export type BucharestSector = (typeof BUCHAREST_SECTORS)[number];

/**
 * A spreadsheet's "Sector" cell (the files are read in Romanian): the sector's number, a note
 * that a Bucharest student's is missing, so an organiser can complete it, or empty elsewhere.
 */
export function sectorCell(county: string | null, sector: number | null): number | string | null {
  if (sector !== null) return sector;
  return county === BUCHAREST ? 'necompletat' : null;
}

export const DISCIPLINES = ['Matematică', 'Informatică'] as const;
