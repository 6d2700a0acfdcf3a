import type { Actor } from '../../lib/auth-guard.js';
import { type ExamAccess, seesWholeExam } from '../exams/index.js';

/** The person a diploma names, as far as rights go. */
export type DiplomaSubject = { id: string; teacherRef: string | null };

/**
 * Who may download a person's diploma of a phase (shared/schemas/diplomas.ts): the person
 * themself, their own teacher (a coordinator prepares their students), and the competition's
 * admins, staff and platform admins anyone's.
 */
export function canDownloadDiploma(
  actor: Actor,
  access: ExamAccess,
  subject: DiplomaSubject,
): boolean {
  if (actor.id === subject.id) return true;
  if (seesWholeExam(access)) return true;
  return actor.type === 'teacher' && subject.teacherRef === actor.id;
}

/**
 * Who may have a ZIP made: every diploma of a phase is for those who see the whole competition;
 * one teacher's (their students' and their own) also for that teacher.
 */
export function canMakeDiplomaZip(
  actor: Actor,
  access: ExamAccess,
  teacherId: string | undefined,
): boolean {
  if (seesWholeExam(access)) return true;
  return teacherId !== undefined && actor.type === 'teacher' && teacherId === actor.id;
}
