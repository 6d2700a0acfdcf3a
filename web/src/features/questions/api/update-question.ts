import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Question, QuestionPatchInput } from '../../../../../shared/schemas/questions.js';
import { api } from '../../../api/client.js';
import type { PhaseIds } from '../../../components/phase/get-phase-context.js';
import { bankKey, questionPath } from './keys.js';

/** PATCH …/items/{questionId}: changes what is sent; the result is checked as a whole. */
export const updateQuestion = (ids: PhaseIds, questionId: string, body: QuestionPatchInput) =>
  api<Question>(questionPath(ids, questionId), { method: 'PATCH', body });

export function useUpdateQuestion(ids: PhaseIds) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ questionId, body }: { questionId: string; body: QuestionPatchInput }) =>
      updateQuestion(ids, questionId, body),
    onSuccess: () => client.invalidateQueries({ queryKey: bankKey(ids) }),
  });
}
