import { GRADE_ABSOLVENT, sectorCell } from '../../../shared/constants.js';
import {
  PRIZE_DOCUMENT_NAMES,
  RANKING_CSV_COLUMNS,
  type RankingPublication,
  type RankingRow,
} from '../../../shared/schemas/rankings.js';
import type { ResultState } from '../../../shared/schemas/results.js';
import { type PhaseTiming, resultState } from '../results/index.js';
import type { RankedRow } from './rankings.repo.js';

/** What decides a row's state: the phase's appeal window and whether it is closed. */

/** The staff's view of a ranked student. */
export function toStaffRow(
  row: RankedRow,
  phase: PhaseTiming,
  now: Date,
  actorId: string,
): RankingRow {
  return {
    _id: row.studentId,
    familyName: row.familyName,
    givenName: row.givenName,
    studentCounty: row.studentCounty,
    studentSector: row.studentSector,
    studentGrade: row.studentGrade,
    school: row.school,
    code: row.code,
    rank: row.rank,
    rankedInGrade: row.rankedInGrade,
    total: row.total,
    scoreState: resultState(row.awaitingItems, phase, now),
    status: row.status,
    prize: row.prize,
    isMe: row.studentId === actorId,
  };
}

/** "Ana-Maria" → "A.-M.", "Pop Ionescu" → "P. I.". */
export function initialsOf(name: string | null): string | null {
  if (!name) return null;
  return name
    .trim()
    .split(/([\s-]+)/)
    .map((part) =>
      /^[\s-]+$/.test(part) ? (part.includes('-') ? '-' : ' ') : `${[...part][0] ?? ''}.`,
    )
    .join('');
}

/**
 * A student's view of a published ranking, in the phase's privacy mode: `names` shows names,
 * county and school; `initials` initials and county; `codes` the code and county. Ids and the
 * staff's decisions are never shown; `_id` is the row's code.
 */
export function toPublishedRow(
  row: RankedRow,
  publication: Exclude<RankingPublication, 'none'>,
  phase: PhaseTiming,
  now: Date,
  actorId: string,
): RankingRow {
  const names = publication === 'names';
  const initials = publication === 'initials';
  return {
    _id: row.code,
    familyName: names ? row.familyName : initials ? initialsOf(row.familyName) : null,
    givenName: names ? row.givenName : initials ? initialsOf(row.givenName) : null,
    studentCounty: row.studentCounty,
    // A sector narrows a student down more than a county: shown with names only.
    studentSector: names ? row.studentSector : null,
    studentGrade: row.studentGrade,
    school: names ? row.school : null,
    code: row.code,
    rank: row.rank,
    rankedInGrade: row.rankedInGrade,
    total: row.total,
    scoreState: resultState(row.awaitingItems, phase, now),
    status: null,
    prize: row.prize,
    isMe: row.studentId === actorId,
  };
}

// ---------------------------------------------------------------------------------------
// elevi.csv

const CSV_STATES: Record<ResultState, string> = {
  awaiting_marking: 'în corectare',
  provisional: 'provizoriu',
  final: 'final',
};
const CSV_STATUS = { admitted: 'admis', rejected: 'respins' } as const;

/** UTF-8's byte order mark, so spreadsheets read the diacritics right. */
export const CSV_BOM = '\uFEFF';
const SEPARATOR = ';';

/**
 * One CSV field: quoted when it holds the separator, a quote or a line break; a leading
 * `=`, `+`, `-`, `@`, tab or carriage return gets a `'` so no spreadsheet runs it as a formula.
 */
export function csvField(value: string | number | null): string {
  if (value === null) return '';
  let text = typeof value === 'number' ? String(value).replace('.', ',') : value;
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[";\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export const csvHeader = () =>
  `${CSV_BOM}${RANKING_CSV_COLUMNS.map((c) => csvField(c.header)).join(SEPARATOR)}\r\n`;

/**
 * One row of elevi.csv, in RANKING_CSV_COLUMNS order: a ranked student as staff see them
 * (only staff and coordinators download it), with the state of their score.
 */
export function csvLine(row: RankedRow, scoreState: ResultState): string {
  const cells: Record<(typeof RANKING_CSV_COLUMNS)[number]['key'], string | number | null> = {
    rank: row.rank,
    familyName: row.familyName,
    givenName: row.givenName,
    studentGrade: row.studentGrade === GRADE_ABSOLVENT ? 'Absolvent' : row.studentGrade,
    studentCounty: row.studentCounty,
    studentSector: sectorCell(row.studentCounty, row.studentSector),
    school: row.school,
    total: row.total,
    scoreState: CSV_STATES[scoreState],
    status: row.status ? CSV_STATUS[row.status] : null,
    prize: row.prize ? PRIZE_DOCUMENT_NAMES[row.prize] : null,
    code: row.code,
  };
  return `${RANKING_CSV_COLUMNS.map((c) => csvField(cells[c.key])).join(SEPARATOR)}\r\n`;
}
