// The review's enums and limits, and the marking rules both sides apply.

import { PAGE_SIZE } from '../../constants.js';

/** The lists of SPEC.md §3: one's own marking work, mediations, mediations still to give. */
export const REVIEW_LIST_TYPES = [
  'REVIEW_ITEMS',
  'MEDIATION_ITEMS',
  'NEEDS_MEDIATION_ITEMS',
] as const;
export type ReviewListType = (typeof REVIEW_LIST_TYPES)[number];
/** Appeal lists add the committee's: appeals on items no person marked (exam admins). */
export const APPEAL_LIST_TYPES = [...REVIEW_LIST_TYPES, 'COMMITTEE_ITEMS'] as const;
export type AppealListType = (typeof APPEAL_LIST_TYPES)[number];

/** An entry waits for marks, waits for its mediator, or has its final score. */
export const REVIEW_STATUSES = ['marking', 'needs_mediation', 'final'] as const;
export type ReviewStatus = (typeof REVIEW_STATUSES)[number];
export const APPEAL_STATUSES = ['pending', 'needs_mediation', 'resolved'] as const;
export type AppealStatus = (typeof APPEAL_STATUSES)[number];
/** `remark`: marked again by people; `committee`: an item nobody marked, for the exam admins. */
export const APPEAL_KINDS = ['remark', 'committee'] as const;
export type AppealKind = (typeof APPEAL_KINDS)[number];
/** How an appeal ended: the score changed, or the original stayed. */
export const APPEAL_OUTCOMES = ['changed', 'kept'] as const;
export type AppealOutcome = (typeof APPEAL_OUTCOMES)[number];
/** What a student's item shows: 'Reviewing' (none), 'Contestation pending', or decided. */
export const STUDENT_APPEAL_STATUSES = ['none', 'pending', 'resolved'] as const;
export type StudentAppealStatus = (typeof STUDENT_APPEAL_STATUSES)[number];
/** How the caller stands on an entry (decides what it shows them and what they may do). */
export const MARKER_ROLES = ['reviewer', 'mediator', 'staff'] as const;
export type MarkerRole = (typeof MARKER_ROLES)[number];
/** Where a final score came from: the two marks' average or the mediator. */
export const FINAL_BY = ['average', 'mediator'] as const;
export type FinalBy = (typeof FINAL_BY)[number];

/** The phase's default step of marks (phases carry `markStep`). */
export const DEFAULT_MARK_STEP = 0.5;
export const MAX_NOTE_LENGTH = 2000;
export const MAX_APPEAL_REASON_LENGTH = 2000;
export const MAX_RUBRIC_CRITERIA = 30;
export const MAX_CRITERION_LABEL_LENGTH = 300;
export const REVIEW_PAGE_SIZE = PAGE_SIZE;

/**
 * Whether `score` is a mark in `step` (scores are kept to hundredths, so the comparison is in
 * hundredths and 0.1 + 0.2 counts as 0.3).
 */
export function isInStep(score: number, step: number): boolean {
  const cents = Math.round(score * 100);
  const stepCents = Math.round(step * 100);
  return Math.abs(score * 100 - cents) < 1e-6 && stepCents > 0 && cents % stepCents === 0;
}

/** The final of two marks that agree: their average, rounded half up to hundredths. */
export function averageMark(a: number, b: number): number {
  return Math.round((Math.round(a * 100) + Math.round(b * 100)) / 2) / 100;
}

/** Whether two marks of an item worth `points` differ by more than the phase's threshold. */
export function needsMediation(a: number, b: number, points: number, threshold: number): boolean {
  const diff = Math.abs(Math.round(a * 100) - Math.round(b * 100));
  return diff > threshold * points * 100 + 1e-6;
}
