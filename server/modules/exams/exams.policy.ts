import type { ExamRole } from '../../../shared/schemas/exams.js';
import type { Actor } from '../../lib/auth-guard.js';

/**
 * What one person is on one competition, read from exam_teachers, edition_coordinators and
 * the sign-up state (exams.repo.ts `findExamAccess`). Policies decide on this alone.
 */
export type ExamAccess = {
  isAdmin: boolean;
  isExamAdmin: boolean;
  isStaff: boolean;
  /** Editions of this exam the person coordinates. */
  coordinatedEditionIds: readonly string[];
  /** A student whose grade is one of the exam's and who can sign up for one of its editions. */
  isOpenToStudent: boolean;
};

export const NO_ACCESS: ExamAccess = {
  isAdmin: false,
  isExamAdmin: false,
  isStaff: false,
  coordinatedEditionIds: [],
  isOpenToStudent: false,
};

/** Only platform admins create competitions. */
export function canCreateExam(actor: Actor): boolean {
  return actor.type === 'admin';
}

/** Anyone with a role on the competition, or a student it is open to; others get 404. */
export function canSeeExam(access: ExamAccess): boolean {
  return (
    access.isAdmin ||
    access.isExamAdmin ||
    access.isStaff ||
    access.coordinatedEditionIds.length > 0 ||
    access.isOpenToStudent
  );
}

/** Admins and the exam's admin teachers change the exam, its editions, phases and staff. */
export function canManageExam(access: ExamAccess): boolean {
  return access.isAdmin || access.isExamAdmin;
}

/** Deleting a whole competition is for platform admins, like creating one. */
export function canDeleteExam(access: ExamAccess): boolean {
  return access.isAdmin;
}

/** Admins, exam admins and staff see every edition; a coordinator only theirs. */
export function canSeeEdition(access: ExamAccess, editionId: string): boolean {
  return seesWholeExam(access) || access.coordinatedEditionIds.includes(editionId);
}

/** Whether the person sees every edition and every student of the competition. */
export function seesWholeExam(access: ExamAccess): boolean {
  return access.isAdmin || access.isExamAdmin || access.isStaff;
}

/** The commission (staff) decides who is admitted, as do the exam's admins (DESIGN.md). */
export function canSetResults(access: ExamAccess): boolean {
  return access.isAdmin || access.isExamAdmin || access.isStaff;
}

/** Enrolling any student (and the coordinators' students at once) is for the exam's managers. */
export function canEnrolAnyStudent(access: ExamAccess): boolean {
  return canManageExam(access);
}

/** Staff and the edition's coordinators enrol their own students; managers anyone's. */
export function canEnrolInEdition(access: ExamAccess, editionId: string): boolean {
  return (
    canEnrolAnyStudent(access) || access.isStaff || access.coordinatedEditionIds.includes(editionId)
  );
}

/** Whether this student may be enrolled, moved or removed by the actor (else "not found"). */
export function canEnrolStudent(
  actor: Actor,
  access: ExamAccess,
  editionId: string,
  student: { teacherRef: string | null },
): boolean {
  if (!canEnrolInEdition(access, editionId)) return false;
  return canEnrolAnyStudent(access) || student.teacherRef === actor.id;
}

/** The caller's strongest role on the competition, for the screens. */
export function examRoleOf(access: ExamAccess): ExamRole | null {
  if (access.isAdmin) return 'admin';
  if (access.isExamAdmin) return 'examAdmin';
  if (access.isStaff) return 'staff';
  if (access.coordinatedEditionIds.length > 0) return 'coordinator';
  if (access.isOpenToStudent) return 'student';
  return null;
}
