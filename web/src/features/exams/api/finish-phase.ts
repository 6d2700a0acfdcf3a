import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { PhaseFinishInput } from '../../../../../shared/schemas/exams.js';
import type { PhaseClosed } from '../../../../../shared/schemas/phase-reopen.js';
import { api } from '../../../api/client.js';
import { editionKey, type PhaseIds, phasePath } from './keys.js';

/**
 * PUT …/phases/{phaseId}/finish: closes the phase and moves its admitted students to the next
 * one; EDITION_PHASE_NOT_CREATED when there is no next phase, RESULTS_INCOMPLETE (with what is
 * open) while a score is not final, unless `acceptOpen` names exactly the open work.
 */
export const finishPhase = (
  { examId, editionId, phaseId }: PhaseIds,
  body: PhaseFinishInput = {},
) =>
  api<PhaseClosed>(`${phasePath(examId, editionId, phaseId)}/finish`, {
    method: 'PUT',
    body,
  });

export function useFinishPhase(ids: PhaseIds) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: PhaseFinishInput | undefined) => finishPhase(ids, body),
    // Every phase of the edition may now list other students.
    onSettled: () =>
      queryClient.invalidateQueries({ queryKey: editionKey(ids.examId, ids.editionId) }),
  });
}
