import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../api/client.js';
import type { PhaseIds } from '../../../components/phase/get-phase-context.js';
import { bankKey, questionPath } from './keys.js';

/** DELETE …/items/{questionId}: one question (refused with QUESTION_IN_TEST once drawn). */
export const deleteQuestion = (ids: PhaseIds, questionId: string) =>
  api<void>(questionPath(ids, questionId), { method: 'DELETE' });

export function useDeleteQuestion(ids: PhaseIds) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (questionId: string) => deleteQuestion(ids, questionId),
    onSettled: () => client.invalidateQueries({ queryKey: bankKey(ids) }),
  });
}
