import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { Question, QuestionTeachersInput } from '../../../../shared/schemas/questions.js';
import { ApiError } from '../../api/client.js';
import { useAddQuestionTeachers } from './api/add-question-teachers.js';
import { questionKey } from './api/get-question.js';
import type { QuestionIds } from './api/keys.js';
import { useRemoveQuestionTeachers } from './api/remove-question-teachers.js';
import {
  addReviewerBody,
  type QuestionTeacherRole,
  type QuestionTeachers,
  questionTeacherMessages,
  removeMediatorBody,
  removeReviewerBody,
  setMediatorBody,
} from './question-teachers.js';
import { failureKey, useQuestionReport } from './use-question-report.js';

/** Why the server refused a change of a question's teachers, when it said which teacher was wrong. */
function refusalDetail(error: unknown): string | undefined {
  if (!(error instanceof ApiError)) return undefined;
  const codes = Object.values(error.fieldErrors).flat();
  if (codes.includes('teacher_not_found')) return 'questions.questionTeachers.notActive';
  if (codes.includes('too_long')) return 'questions.questionTeachers.tooMany';
  if (codes.includes('invalid')) return 'questions.questionTeachers.bothRoles';
  return undefined;
}

export type UpdateError = { key: string; detail?: string };

/**
 * Adding and removing a question's mediator or reviewers (SPEC.md §4–§5): `updateInProgress`
 * while a call runs (the page disables its buttons), `updateError` after a failure, cleared
 * by the next attempt. The answer (the question with its new the question's teachers) is shown at once.
 */
export function useQuestionTeachers(ids: QuestionIds, role: QuestionTeacherRole) {
  const client = useQueryClient();
  const report = useQuestionReport();
  const add = useAddQuestionTeachers(ids);
  const remove = useRemoveQuestionTeachers(ids);
  const [updateError, setUpdateError] = useState<UpdateError | null>(null);

  const run = async (change: 'add' | 'remove', body: QuestionTeachersInput) => {
    const keys = questionTeacherMessages(role, change);
    setUpdateError(null);
    try {
      const updated: Question = await (change === 'add' ? add : remove).mutateAsync(body);
      client.setQueryData(questionKey(ids), updated);
      report.success(keys.success);
    } catch (e) {
      setUpdateError({ key: failureKey(e, keys.error), detail: refusalDetail(e) });
      report.failure(e, keys.error);
    }
  };

  return {
    updateInProgress: add.isPending || remove.isPending,
    updateError,
    assign: (q: QuestionTeachers, teacherId: string) =>
      run(
        'add',
        role === 'mediator' ? setMediatorBody(q, teacherId) : addReviewerBody(q, teacherId),
      ),
    unassign: (q: QuestionTeachers, teacherId: string) =>
      run('remove', role === 'mediator' ? removeMediatorBody(q) : removeReviewerBody(teacherId)),
  };
}
