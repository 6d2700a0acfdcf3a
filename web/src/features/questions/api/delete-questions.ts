import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { BulkDeleteResult } from '../../../../../shared/schemas/questions.js';
import { api } from '../../../api/client.js';
import type { PhaseIds } from '../../../components/phase/get-phase-context.js';
import { bankKey, itemsPath } from './keys.js';

/** DELETE …/items with `{ids}`: answers the ids that were NOT deleted (empty: all done). */
export const deleteQuestions = (ids: PhaseIds, questionIds: string[]) =>
  api<BulkDeleteResult>(itemsPath(ids), { method: 'DELETE', body: { ids: questionIds } });

export function useDeleteQuestions(ids: PhaseIds) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (questionIds: string[]) => deleteQuestions(ids, questionIds),
    onSettled: () => client.invalidateQueries({ queryKey: bankKey(ids) }),
  });
}
