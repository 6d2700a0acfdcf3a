import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Phase, PhaseCreateInput } from '../../../../../shared/schemas/exams.js';
import { api } from '../../../api/client.js';
import { type EditionIds, editionKey, editionPath } from './keys.js';

/**
 * POST …/editions/{editionId}/phases. Bad dates answer INVALID_PHASE_DATES or
 * OVERLAPPING_PHASE_DATES with both date fields marked `invalid_date`.
 */
export const createPhase = ({ examId, editionId }: EditionIds, body: PhaseCreateInput) =>
  api<Phase>(`${editionPath(examId, editionId)}/phases`, { method: 'POST', body });

export function useCreatePhase(ids: EditionIds) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: PhaseCreateInput) => createPhase(ids, body),
    onSuccess: () =>
      queryClient.invalidateQueries({ queryKey: editionKey(ids.examId, ids.editionId) }),
  });
}
