import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Phase, PhasePatchInput } from '../../../../../shared/schemas/exams.js';
import { api } from '../../../api/client.js';
import { editionKey, type PhaseIds, phasePath } from './keys.js';

/** PATCH …/phases/{phaseId}: name, type, dates, registration open/closed (what is sent). */
export const patchPhase = ({ examId, editionId, phaseId }: PhaseIds, body: PhasePatchInput) =>
  api<Phase>(phasePath(examId, editionId, phaseId), { method: 'PATCH', body });

export function usePatchPhase(ids: PhaseIds) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: PhasePatchInput) => patchPhase(ids, body),
    // The edition's phase list shows dates and states too.
    onSettled: () =>
      queryClient.invalidateQueries({ queryKey: editionKey(ids.examId, ids.editionId) }),
  });
}
