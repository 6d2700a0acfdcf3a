import type { ExamAccess } from '../exams/index.js';

/**
 * Who may do what with a phase's tests. The phase's scope comes first from exams.access.ts
 * `requirePhase`; tests are then hidden (404) from everyone who may not view them, and a
 * viewer who tries to change them gets 403.
 */

/** Platform admins and the exam's admin teachers create, delete and publish tests. */
export function canManageTests(access: ExamAccess): boolean {
  return access.isAdmin || access.isExamAdmin;
}

/**
 * Managers and the exam's staff list, preview (without correct answers) and print tests.
 * Edition coordinators do not: their own students take them.
 */
export function canViewTests(access: ExamAccess): boolean {
  return canManageTests(access) || access.isStaff;
}

/** Only managers see a test's correct answers (`…/details`). */
export function canSeeCorrectAnswers(access: ExamAccess): boolean {
  return canManageTests(access);
}
