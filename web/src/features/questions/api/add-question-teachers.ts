import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Question, QuestionTeachersInput } from '../../../../../shared/schemas/questions.js';
import { api } from '../../../api/client.js';
import { bankKey, type QuestionIds, questionPath } from './keys.js';

/** POST …/items/{questionId}/teachers: sets the named mediator, appends the named reviewers. */
export const addQuestionTeachers = (
  { questionId, ...ids }: QuestionIds,
  body: QuestionTeachersInput,
) => api<Question>(`${questionPath(ids, questionId)}/teachers`, { method: 'POST', body });

export function useAddQuestionTeachers(ids: QuestionIds) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: QuestionTeachersInput) => addQuestionTeachers(ids, body),
    onSettled: () => client.invalidateQueries({ queryKey: bankKey(ids) }),
  });
}
