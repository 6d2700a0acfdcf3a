import type { Actor } from '../../lib/auth-guard.js';

/**
 * Whose records an actor may see (the contract's "Scope"). The repo turns a scope into SQL, so
 * lists, counts, downloads, reads by id, state changes and deletions all use the same rule.
 * - all: admins.
 * - teacher: an active, registered teacher — the students whose teacherRef is theirs and the
 *   students enrolled in editions of competitions where they are exam admin or staff. An
 *   edition's coordinator sees only their own students there, as in the exams and uploads
 *   modules (exams.policy.ts `seesWholeExam`).
 * - self: anyone else sees only their own record.
 */
export type StudentScope =
  | { kind: 'all' }
  | { kind: 'teacher'; teacherId: string }
  | { kind: 'self'; userId: string };

const isWorkingTeacher = (actor: Actor) =>
  actor.type === 'teacher' && actor.registered && actor.state === 'active';

/** The students an actor may see; never wider than the contract's scope. */
export function studentScopeOf(actor: Actor): StudentScope {
  if (actor.type === 'admin') return { kind: 'all' };
  if (isWorkingTeacher(actor)) return { kind: 'teacher', teacherId: actor.id };
  return { kind: 'self', userId: actor.id };
}

/** Whether the actor sees every teacher (admins and active registered teachers, for pickers). */
export function seesAllTeachers(actor: Actor): boolean {
  return actor.type === 'admin' || isWorkingTeacher(actor);
}

/** Whether the actor may list students at all (students and unfinished accounts may not). */
export function canListStudents(actor: Actor): boolean {
  return actor.type === 'admin' || isWorkingTeacher(actor);
}

/**
 * Whether the actor may activate, inactivate or delete a student already known to be in their
 * scope: admins, and the student's coordinating teacher (teacherRef) — not a teacher who only
 * sees them through a competition.
 */
export function canManageStudent(actor: Actor, student: { teacherRef: string | null }): boolean {
  return actor.type === 'admin' || (isWorkingTeacher(actor) && student.teacherRef === actor.id);
}

/** Only admins change teachers' state or delete teachers. */
export function canManageTeachers(actor: Actor): boolean {
  return actor.type === 'admin';
}

/** `?examAdmin=<exam>`: admins, and teachers with a role (admin or staff) on that competition. */
export function canUseExamAdmin(actor: Actor, hasRoleOnExam: boolean): boolean {
  return actor.type === 'admin' || (isWorkingTeacher(actor) && hasRoleOnExam);
}

/** Anonymising is for admins, and never of an admin account (that would lock people out). */
export function canAnonymise(actor: Actor, target: { type: string }): boolean {
  return actor.type === 'admin' && target.type !== 'admin';
}

/** A teacher changes their own team code; admins change anyone's. */
export function canChangeTeacherCode(actor: Actor, target: { id: string }): boolean {
  return actor.type === 'admin' || actor.id === target.id;
}

/** Who the actor may read by id or e-mail: themself, their students' scope, and teachers. */
export function visibilityOf(actor: Actor) {
  return {
    actorId: actor.id,
    scope: studentScopeOf(actor),
    seesTeachers: seesAllTeachers(actor),
  };
}
