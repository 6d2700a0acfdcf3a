import type { Db } from '../../db/client.js';
import type { Actor } from '../../lib/auth-guard.js';
import { notFound } from '../../lib/errors.js';
import type { EditionRow } from './editions.repo.js';
import { canSeeEdition, canSeeExam, type ExamAccess, NO_ACCESS } from './exams.policy.js';
import { type ExamRow, findExamPath, findExamRoles, isExamOpenToStudent } from './exams.repo.js';
import type { PhaseRow } from './phases.repo.js';

/** What the actor is on this exam (the input of every exams.policy.ts decision). */
export async function loadExamAccess(db: Db, actor: Actor, examId: string): Promise<ExamAccess> {
  if (actor.type === 'admin') return { ...NO_ACCESS, isAdmin: true };
  if (actor.type === 'student') {
    return { ...NO_ACCESS, isOpenToStudent: await isExamOpenToStudent(db, examId, actor.id) };
  }
  const { roles, coordinatedEditionIds } = await findExamRoles(db, examId, actor.id);
  return {
    ...NO_ACCESS,
    isExamAdmin: roles.includes('admin'),
    isStaff: roles.includes('staff'),
    coordinatedEditionIds,
  };
}

export type ExamContext = { exam: ExamRow; access: ExamAccess };
export type EditionContext = ExamContext & { edition: EditionRow };
export type PhaseContext = EditionContext & { phase: PhaseRow };

type PathIds = { examId: string; editionId?: string; phaseId?: string };

/**
 * The exam (with the edition and phase asked for) and the actor's access to it, in one round
 * trip for staff and admins (a student's sign-up state is one more); "not found" for the exam
 * when it is outside their scope.
 */
async function loadPath(db: Db, actor: Actor, ids: PathIds) {
  const path = await findExamPath(db, ids, actor.type === 'teacher' ? actor.id : undefined);
  if (!path) throw notFound('exam');
  const access: ExamAccess =
    actor.type === 'teacher'
      ? {
          ...NO_ACCESS,
          isExamAdmin: path.roles.includes('admin'),
          isStaff: path.roles.includes('staff'),
          coordinatedEditionIds: path.coordinatedEditionIds,
        }
      : await loadExamAccess(db, actor, path.exam.id);
  if (!canSeeExam(access)) throw notFound('exam');
  return { ...path, access };
}

/** The exam and the actor's access to it; "not found" when it is outside their scope. */
export async function requireExam(db: Db, actor: Actor, examId: string): Promise<ExamContext> {
  const { exam, access } = await loadPath(db, actor, { examId });
  return { exam, access };
}

/** The edition of that exam, if the actor sees it (a coordinator sees only theirs). */
export async function requireEdition(
  db: Db,
  actor: Actor,
  examId: string,
  editionId: string,
): Promise<EditionContext> {
  const { exam, access, edition } = await loadPath(db, actor, { examId, editionId });
  if (!edition || !canSeeEdition(access, edition.id)) throw notFound('edition');
  return { exam, access, edition };
}

/** The phase of that edition, if the actor sees the edition. */
export async function requirePhase(
  db: Db,
  actor: Actor,
  examId: string,
  editionId: string,
  phaseId: string,
): Promise<PhaseContext> {
  const { exam, access, edition, phase } = await loadPath(db, actor, {
    examId,
    editionId,
    phaseId,
  });
  if (!edition || !canSeeEdition(access, edition.id)) throw notFound('edition');
  if (!phase) throw notFound('phase');
  return { exam, access, edition, phase };
}
