import type { FieldCode } from '../../../shared/errors.js';
import { MAX_REVIEWERS, type Question } from '../../../shared/schemas/questions.js';
import type { Db } from '../../db/client.js';
import { appendAudit } from '../../lib/audit.js';
import type { Actor } from '../../lib/auth-guard.js';
import { fieldError, notFound } from '../../lib/errors.js';
import { toQuestionDto } from './questions.dto.js';
import * as repo from './questions.repo.js';
import type { PhaseParams, QuestionsService } from './questions.service.js';

export type QuestionTeachersDeps = { db: Db; questions: QuestionsService };
export type TeachersChange = { mediatorTeacher: string | null; gradingTeachers: string[] };

const refuse = (field: keyof TeachersChange, code: FieldCode) =>
  fieldError({ [field]: [code] }, 'Invalid teacher assignment');

/**
 * The teachers of a question (SPEC.md §5): one mediator and the grading teachers (reviewers).
 * The mediator settles disagreements between reviewers, so nobody is both on one question.
 */
export function questionTeachersService({ db, questions }: QuestionTeachersDeps) {
  async function change(
    actor: Actor,
    p: PhaseParams,
    questionId: string,
    body: TeachersChange,
    mode: 'add' | 'remove',
  ): Promise<Question> {
    const ctx = await questions.requireBank(actor, p, 'manage');
    if (!body.mediatorTeacher && body.gradingTeachers.length === 0) {
      throw refuse('gradingTeachers', 'required');
    }
    return db.transaction(async (tx) => {
      const row = await repo.lockQuestion(tx, ctx.phase.id, questionId);
      if (!row) throw notFound('question');
      const reviewers = (await repo.findReviewers(tx, [questionId])).get(questionId) ?? [];
      const named = [...new Set(body.gradingTeachers.map((id) => id.toLowerCase()))];
      let mediator = row.mediatorTeacherId;
      let nextReviewers = reviewers;
      if (mode === 'add') {
        const newMediator = body.mediatorTeacher?.toLowerCase() ?? null;
        const isMediatorChange = newMediator !== null && newMediator !== mediator;
        const added = named.filter((id) => !reviewers.includes(id));
        // Teachers already in place stay even if inactive since; new ones must be active.
        const active = await repo.findActiveTeachers(tx, [
          ...added,
          ...(isMediatorChange && newMediator ? [newMediator] : []),
        ]);
        if (isMediatorChange && newMediator && !active.has(newMediator)) {
          throw refuse('mediatorTeacher', 'teacher_not_found');
        }
        if (added.some((id) => !active.has(id))) {
          throw refuse('gradingTeachers', 'teacher_not_found');
        }
        if (newMediator) mediator = newMediator;
        nextReviewers = [...reviewers, ...added];
        if (nextReviewers.length > MAX_REVIEWERS) throw refuse('gradingTeachers', 'too_long');
        // The mediator settles the reviewers' disagreements; as one of the reviewers they would
        // settle a disagreement with themselves, and the answer would lose its second,
        // independent mark. The refusal lands on the side this call changed.
        if (mediator && isMediatorChange && reviewers.includes(mediator)) {
          throw refuse('mediatorTeacher', 'invalid');
        }
        if (mediator && added.includes(mediator)) throw refuse('gradingTeachers', 'invalid');
        await repo.addReviewers(tx, questionId, added);
      } else {
        // Removing someone who is not (or no longer) there changes nothing.
        if (body.mediatorTeacher && body.mediatorTeacher.toLowerCase() === mediator)
          mediator = null;
        nextReviewers = reviewers.filter((id) => !named.includes(id));
        await repo.removeReviewers(tx, questionId, named);
      }
      const updated =
        mediator === row.mediatorTeacherId
          ? row
          : await repo.updateQuestion(tx, questionId, { mediatorTeacherId: mediator });
      if (!updated) throw notFound('question');
      if (mediator !== row.mediatorTeacherId || nextReviewers.join() !== reviewers.join()) {
        await appendAudit(tx, {
          actorId: actor.id,
          action: mode === 'add' ? 'question.teachers.add' : 'question.teachers.remove',
          entityType: 'question',
          entityId: questionId,
          before: { mediatorTeacher: row.mediatorTeacherId, gradingTeachers: reviewers },
          after: { mediatorTeacher: mediator, gradingTeachers: nextReviewers },
        });
      }
      const inTest = (await repo.findQuestionsInTests(tx, [questionId])).size > 0;
      return toQuestionDto(
        updated,
        { examId: ctx.exam.id, editionId: ctx.edition.id },
        nextReviewers,
        inTest,
        ctx.view,
      );
    });
  }

  return {
    /** Sets the named mediator and appends the named reviewers (active teachers only). */
    addTeachers: (actor: Actor, p: PhaseParams, questionId: string, body: TeachersChange) =>
      change(actor, p, questionId, body, 'add'),
    /** Removes the named mediator (if it is the current one) and the named reviewers. */
    removeTeachers: (actor: Actor, p: PhaseParams, questionId: string, body: TeachersChange) =>
      change(actor, p, questionId, body, 'remove'),
  };
}

export type QuestionTeachersService = ReturnType<typeof questionTeachersService>;
