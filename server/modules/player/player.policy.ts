import type { Actor } from '../../lib/auth-guard.js';
import { canSeeExam, type ExamAccess, seesWholeExam } from '../exams/index.js';

/**
 * Who may do what in the test player. Outside the scope answers 404 (a student never learns
 * that another phase's or grade's test exists); inside it but not allowed answers 403.
 */

/** What decides whether a test is one of the student's. */
export type StudentTestFacts = {
  published: boolean;
  /** Listed in the phase's students (phase_students). */
  registered: boolean;
  /** The student's grade in the edition (else their profile grade). */
  grade: number | null;
  grades: readonly number[];
};

/** A published test of a phase the student takes, for their grade. */
export function isStudentsTest(facts: StudentTestFacts): boolean {
  return (
    facts.published &&
    facts.registered &&
    facts.grade !== null &&
    facts.grades.includes(facts.grade)
  );
}

/**
 * The fast answer write resolves the session inside its own SQL statement; these are the
 * conditions it applies, the same as `guard({ roles: ['student'] })` (a signed-in, registered,
 * active student). Any refusal falls back to the full guard, which answers 401/403.
 */
export const ANSWER_WRITER = { type: 'student', state: 'active', registered: true } as const;

/** Scope of the incident calls: anyone who sees the competition (else 404). */
export function seesIncidents(access: ExamAccess): boolean {
  return canSeeExam(access);
}

/**
 * Extra time and reopening: platform admins, the exam's admin teachers and its staff (the
 * commission on exam day). Coordinators see the competition but may not (403).
 */
export function canHandleIncidents(access: ExamAccess): boolean {
  return access.isAdmin || access.isExamAdmin || access.isStaff;
}

/**
 * Whose students the exam-day panel counts: every student of the phase for admins, the exam's
 * admins and staff (undefined); only their own (teacherRef) for an edition's coordinator, who
 * reaches the phase through their edition. Anyone else never gets here (404 on the phase).
 */
export function liveScopeOwner(actor: Actor, access: ExamAccess): string | undefined {
  return seesWholeExam(access) ? undefined : actor.id;
}
