import type { Actor } from '../../lib/auth-guard.js';
import type { ExamAccess } from '../exams/index.js';

/**
 * Who may do what with a phase's question bank. The exams module (exams.access.ts
 * `requirePhase`) first decides whether the phase is in the actor's scope at all; these decide
 * the rest. The bank is out of scope (404) for anyone who may not read it — coordinators,
 * students, teachers without a role — so its existence is not confirmed to them.
 */

/** Platform admins and the exam's admin teachers add, edit, delete and assign the question's teachers. */
export function canManageQuestions(access: ExamAccess): boolean {
  return access.isAdmin || access.isExamAdmin;
}

/** The exam's staff (commission) also read the bank and preview it; nobody else does. */
export function canViewQuestions(access: ExamAccess): boolean {
  return canManageQuestions(access) || access.isStaff;
}

/** Correct answers go only to the bank's managers: staff prepare papers, they do not need them. */
export function canSeeCorrectAnswers(access: ExamAccess): boolean {
  return canManageQuestions(access);
}

export type FileReadFacts = {
  /** The actor's access to each exam whose bank has a live question showing the file. */
  examAccesses: readonly ExamAccess[];
  /** The actor is a student with an attempt on a test that drew a question showing it. */
  isInOwnAttempt: boolean;
};

/**
 * A stored image is served to its uploader, platform admins, whoever may read a question bank
 * that shows it, and a student whose own test shows it (the player and the result page).
 */
export function canReadFile(
  actor: Actor,
  file: { ownerId: string | null },
  facts: FileReadFacts,
): boolean {
  if (actor.type === 'admin' || file.ownerId === actor.id) return true;
  if (actor.type === 'student') return facts.isInOwnAttempt;
  return facts.examAccesses.some(canViewQuestions);
}
