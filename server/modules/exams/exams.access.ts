import type { Db } from '../../db/client.js';
import type { Actor } from '../../lib/auth-guard.js';
import { notFound } from '../../lib/errors.js';
import { type EditionRow, findEdition } from './editions.repo.js';
import { canSeeEdition, canSeeExam, type ExamAccess, NO_ACCESS } from './exams.policy.js';
import { type ExamRow, findExam, findExamRoles, isExamOpenToStudent } from './exams.repo.js';
import { findPhase, type PhaseRow } from './phases.repo.js';

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

/** The exam and the actor's access to it; "not found" when it is outside their scope. */
export async function requireExam(db: Db, actor: Actor, examId: string): Promise<ExamContext> {
  const exam = await findExam(db, examId);
  if (!exam) throw notFound('exam');
  const access = await loadExamAccess(db, actor, exam.id);
  if (!canSeeExam(access)) throw notFound('exam');
  return { exam, access };
}

/** The edition of that exam, if the actor sees it (a coordinator sees only theirs). */
export async function requireEdition(
  db: Db,
  actor: Actor,
  examId: string,
  editionId: string,
): Promise<EditionContext> {
  const context = await requireExam(db, actor, examId);
  const edition = await findEdition(db, examId, editionId);
  if (!edition || !canSeeEdition(context.access, edition.id)) throw notFound('edition');
  return { ...context, edition };
}

/** The phase of that edition, if the actor sees the edition. */
export async function requirePhase(
  db: Db,
  actor: Actor,
  examId: string,
  editionId: string,
  phaseId: string,
): Promise<PhaseContext> {
  const context = await requireEdition(db, actor, examId, editionId);
  const phase = await findPhase(db, editionId, phaseId);
  if (!phase) throw notFound('phase');
  return { ...context, phase };
}
