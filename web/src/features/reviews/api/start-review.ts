import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Phase } from '../../../../../shared/schemas/exams.js';
import { api } from '../../../api/client.js';
import { type PhaseIds, phaseKey, phasePath } from '../../../components/phase/get-phase-context.js';
import { reviewPhaseKey } from './paths.js';

/**
 * PUT /exam-mgmt/…/phases/{phaseId}/review: starts marking (uploads stop, every answer gets
 * its two reviewers); 409 INSUFFICIENT_TEACHERS_FOR_TEST_ITEMS names the questions still
 * missing a mediator or reviewers, TESTS_STILL_RUNNING while an online test runs.
 */
export const startReview = (ids: PhaseIds) =>
  api<Phase>(`${phasePath(ids)}/review`, { method: 'PUT' });

export function useStartReview(ids: PhaseIds) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => startReview(ids),
    onSettled: async () => {
      await queryClient.invalidateQueries({ queryKey: phaseKey(ids) });
      await queryClient.invalidateQueries({ queryKey: reviewPhaseKey(ids.phaseId) });
    },
  });
}
