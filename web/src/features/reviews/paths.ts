import type { PhaseIds } from '../../components/phase/get-phase-context.js';

const enc = encodeURIComponent;

/** Marking (reviews) or appeals: the two families of entries share every screen's shape. */
export type EntryKind = 'reviews' | 'appeals';

/** The phase page (SPEC.md §2; the route spells the edition id as `editii`). */
export const phasePagePath = (ids: PhaseIds) =>
  `/examene/${enc(ids.examId)}/editii/${enc(ids.editionId)}/phases/${enc(ids.phaseId)}`;

/** Where a teacher finds the phases they mark in (the menu's "To mark"). */
export const MARKING_HOME_PATH = '/de-corectat';

/** The web routes of marking: `corectare` (marking), `contestatii` (appeals). */
const SEGMENT: Record<EntryKind, string> = { reviews: 'corectare', appeals: 'contestatii' };

export const entryListPagePath = (ids: PhaseIds, kind: EntryKind, type?: string) =>
  `${phasePagePath(ids)}/${SEGMENT[kind]}${type ? `?tip=${enc(type)}` : ''}`;

export const entryPagePath = (ids: PhaseIds, kind: EntryKind, reviewId: string, type?: string) =>
  `${phasePagePath(ids)}/${SEGMENT[kind]}/${enc(reviewId)}${type ? `?tip=${enc(type)}` : ''}`;

export const progressPagePath = (ids: PhaseIds) => `${phasePagePath(ids)}/progres-corectare`;

/** The question's teachers pages of the questions feature (SPEC.md §2 mediator, corectori). */
export const questionTeachersPagePath = (
  ids: PhaseIds,
  questionId: string,
  field: 'mediatorTeacher' | 'gradingTeachers',
) =>
  `${phasePagePath(ids)}/questions/${enc(questionId)}/${field === 'mediatorTeacher' ? 'mediator' : 'corectori'}`;

/** The student's result page. */
export const resultPagePath = (testId: string) => `/teste/${enc(testId)}/rezultat`;
