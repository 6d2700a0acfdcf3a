import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Rubric, RubricInput } from '../../../../../shared/schemas/reviews.js';
import { api } from '../../../api/client.js';
import type { PhaseIds } from '../../../components/phase/get-phase-context.js';
import { reviewPhaseKey, reviewPhasePath } from './paths.js';

const rubricPath = (ids: PhaseIds, itemId: string) =>
  `${reviewPhasePath(ids)}/items/${encodeURIComponent(itemId)}/rubric`;
const rubricKey = (phaseId: string, itemId: string) =>
  [...reviewPhaseKey(phaseId), 'rubric', itemId] as const;

/** GET P/items/{itemId}/rubric: the question's marking scheme (no criteria: free marks). */
export const getRubric = (ids: PhaseIds, itemId: string) => api<Rubric>(rubricPath(ids, itemId));

/** PUT P/items/{itemId}/rubric: the exam's staff set the scheme. */
export const saveRubric = (ids: PhaseIds, itemId: string, body: RubricInput) =>
  api<Rubric>(rubricPath(ids, itemId), { method: 'PUT', body });

export const useRubric = (ids: PhaseIds, itemId: string, enabled: boolean) =>
  useQuery({
    queryKey: rubricKey(ids.phaseId, itemId),
    queryFn: () => getRubric(ids, itemId),
    enabled,
  });

export function useSaveRubric(ids: PhaseIds, itemId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: RubricInput) => saveRubric(ids, itemId, body),
    onSettled: () => queryClient.invalidateQueries({ queryKey: reviewPhaseKey(ids.phaseId) }),
  });
}
