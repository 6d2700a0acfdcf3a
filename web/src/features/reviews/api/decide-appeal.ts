import { useMutation, useQueryClient } from '@tanstack/react-query';
import type {
  AppealDecisionInput,
  ContestationEntry,
} from '../../../../../shared/schemas/reviews.js';
import { api } from '../../../api/client.js';
import type { PhaseIds } from '../../../components/phase/get-phase-context.js';
import { entryPath, reviewPhaseKey } from './paths.js';

/** PUT P/appeals/{reviewId}/decision: the exam's admins close a committee appeal (score kept). */
export const decideAppeal = (ids: PhaseIds, reviewId: string, body: AppealDecisionInput) =>
  api<ContestationEntry>(`${entryPath(ids, 'appeals', reviewId)}/decision`, {
    method: 'PUT',
    body,
  });

export function useDecideAppeal(ids: PhaseIds, reviewId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: AppealDecisionInput) => decideAppeal(ids, reviewId, body),
    onSettled: () => queryClient.invalidateQueries({ queryKey: reviewPhaseKey(ids.phaseId) }),
  });
}
