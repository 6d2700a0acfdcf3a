import type { Db } from '../../db/client.js';
import type { Actor } from '../../lib/auth-guard.js';
import { notFound } from '../../lib/errors.js';
import { type ExamAccess, requirePhase } from '../exams/index.js';
import { canEnterAnswers, ownerScope, type TestRole } from './uploads.policy.js';
import * as repo from './uploads.repo.js';

export type TestIds = { examId: string; editionId: string; phaseId: string; testId: string };

/** The test as the caller reaches it, and what they are on it. */
export type TestScope = {
  actor: Actor;
  role: TestRole;
  test: repo.TestPathRow;
  /** The teacher's or admin's access to the exam (undefined for a student). */
  access: ExamAccess | undefined;
  /** A coordinator's id: they reach only their own students. */
  ownerId: string | undefined;
};

/**
 * The test, if the caller may reach it, else 404. Teachers and admins through their role on
 * the exam (exams.access.ts: a coordinator only in their own edition); a student only for a
 * hybrid test of a phase they take part in, whose grades include theirs.
 */
export async function requireTest(db: Db, actor: Actor, ids: TestIds): Promise<TestScope> {
  if (actor.type === 'student') {
    const test = await repo.findTestPath(db, ids);
    if (test?.phaseType !== 'hybrid') throw notFound('test');
    if (!(await repo.findTestStudent(db, test, actor.id))) throw notFound('test');
    return { actor, role: 'student', test, access: undefined, ownerId: undefined };
  }
  const { access } = await requirePhase(db, actor, ids.examId, ids.editionId, ids.phaseId);
  const test = await repo.findTestPath(db, ids);
  if (!test) throw notFound('test');
  return {
    actor,
    role: canEnterAnswers(access) ? 'manager' : 'viewer',
    test,
    access,
    ownerId: ownerScope(actor, access),
  };
}

/**
 * One of the test's students, if the caller may reach them, else 404: a student only
 * themselves, a coordinator only their own students, the exam's staff any.
 */
export async function requireTestStudent(scope: TestScope, db: Db, studentId: string) {
  if (scope.role === 'student' && studentId !== scope.actor.id) throw notFound('student');
  const student = await repo.findTestStudent(db, scope.test, studentId);
  if (!student) throw notFound('student');
  if (scope.ownerId !== undefined && student.teacherRef !== scope.ownerId) {
    throw notFound('student');
  }
  return student;
}
