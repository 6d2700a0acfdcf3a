import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Question, QuestionTeachersInput } from '../../../../../shared/schemas/questions.js';
import { api } from '../../../api/client.js';
import { bankKey, type QuestionIds, questionPath } from './keys.js';

/** DELETE …/items/{questionId}/teachers: removes the named mediator or reviewers. */
export const removeQuestionTeachers = (
  { questionId, ...ids }: QuestionIds,
  body: QuestionTeachersInput,
) => api<Question>(`${questionPath(ids, questionId)}/teachers`, { method: 'DELETE', body });

export function useRemoveQuestionTeachers(ids: QuestionIds) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: QuestionTeachersInput) => removeQuestionTeachers(ids, body),
    onSettled: () => client.invalidateQueries({ queryKey: bankKey(ids) }),
  });
}
