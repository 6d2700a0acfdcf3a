import { useMutation, useQueryClient } from '@tanstack/react-query';
import type {
  PhaseReopenInput,
  PhaseReopenResult,
} from '../../../../../shared/schemas/phase-reopen.js';
import { api } from '../../../api/client.js';
import { type PhaseIds, phasePath } from './keys.js';

/**
 * PUT …/phases/{phaseId}/reopen: opens a closed phase again for a correction, with the reason
 * (audited); PHASE_NOT_CLOSED, NEXT_PHASE_STARTED or STUDENTS_ADVANCED when it cannot.
 */
export const reopenPhase = ({ examId, editionId, phaseId }: PhaseIds, body: PhaseReopenInput) =>
  api<PhaseReopenResult>(`${phasePath(examId, editionId, phaseId)}/reopen`, {
    method: 'PUT',
    body,
  });

export function useReopenPhase(ids: PhaseIds) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: PhaseReopenInput) => reopenPhase(ids, body),
    // The phase page, its students, its rules and its ranking all read its state; a reopening
    // is rare, so everything is read again.
    onSettled: () => queryClient.invalidateQueries(),
  });
}
