import type { PhaseIds } from '../../../components/phase/get-phase-context.js';
import type { EntryKind } from '../paths.js';

const enc = encodeURIComponent;

/** `/test-review/exams/{examId}/editions/{editionId}/phases/{phaseId}` (the contract's `P`). */
export const reviewPhasePath = (ids: PhaseIds) =>
  `/test-review/exams/${enc(ids.examId)}/editions/${enc(ids.editionId)}/phases/${enc(ids.phaseId)}`;

/** `P/reviews` or `P/appeals`. */
export const entriesPath = (ids: PhaseIds, kind: EntryKind) => `${reviewPhasePath(ids)}/${kind}`;

/** `P/reviews/{reviewId}` or `P/appeals/{reviewId}`. */
export const entryPath = (ids: PhaseIds, kind: EntryKind, reviewId: string) =>
  `${entriesPath(ids, kind)}/${enc(reviewId)}`;

/** The student's side: `/test-review/tests/{testId}`. */
export const studentTestPath = (testId: string) => `/test-review/tests/${enc(testId)}`;

/**
 * Query keys: everything of a phase's marking under one root, so a mark saved refreshes the
 * lists, counts, progress and the entry itself.
 */
export const reviewPhaseKey = (phaseId: string) => ['reviews', 'phase', phaseId] as const;
export const entriesKey = (phaseId: string, kind: EntryKind) =>
  [...reviewPhaseKey(phaseId), kind] as const;
export const entryKey = (phaseId: string, kind: EntryKind, reviewId: string) =>
  [...entriesKey(phaseId, kind), 'entry', reviewId] as const;
export const progressKey = (phaseId: string) => [...reviewPhaseKey(phaseId), 'progress'] as const;
export const studentResultKey = (testId: string) => ['reviews', 'student', testId] as const;
