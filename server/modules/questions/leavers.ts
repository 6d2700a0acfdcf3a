import type { Db } from '../../db/client.js';
import { appendAudit } from '../../lib/audit.js';
import * as repo from './questions.repo.js';

/**
 * Takes a person who leaves (deleted or anonymised) out of every question's pool: no longer a
 * grading teacher nor the mediator of any question, so no later mark, mediation or appeal is
 * assigned to someone who cannot sign in. The marks they gave stay. Each question changed is
 * audited like an organiser's removal. Answers how many questions changed.
 */
export async function leaveQuestionPools(tx: Db, teacherId: string, actorId: string) {
  const held = await repo.findPoolsHolding(tx, teacherId);
  for (const q of held) {
    const gradingTeachers = q.reviewers.filter((id) => id !== teacherId);
    const mediatorTeacher = q.mediatorTeacherId === teacherId ? null : q.mediatorTeacherId;
    await repo.removeReviewers(tx, q.id, [teacherId]);
    if (q.mediatorTeacherId === teacherId) {
      await repo.updateQuestion(tx, q.id, { mediatorTeacherId: null });
    }
    await appendAudit(tx, {
      actorId,
      action: 'question.teachers.remove',
      entityType: 'question',
      entityId: q.id,
      before: { mediatorTeacher: q.mediatorTeacherId, gradingTeachers: q.reviewers },
      after: { mediatorTeacher, gradingTeachers },
      reason: 'user.leave',
    });
  }
  return held.length;
}
