import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { PhaseCloseResult } from '../../../../../shared/schemas/exams.js';
import { api } from '../../../api/client.js';
import { editionKey, type PhaseIds, phasePath } from './keys.js';

/**
 * PUT …/phases/{phaseId}/finish: closes the phase and moves its admitted students to the next
 * one; EDITION_PHASE_NOT_CREATED when there is no next phase.
 */
export const finishPhase = ({ examId, editionId, phaseId }: PhaseIds) =>
  api<PhaseCloseResult>(`${phasePath(examId, editionId, phaseId)}/finish`, { method: 'PUT' });

export function useFinishPhase(ids: PhaseIds) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => finishPhase(ids),
    // Every phase of the edition may now list other students.
    onSettled: () =>
      queryClient.invalidateQueries({ queryKey: editionKey(ids.examId, ids.editionId) }),
  });
}
