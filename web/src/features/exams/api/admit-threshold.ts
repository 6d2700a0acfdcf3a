import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AdmitResult, AdmitThresholdInput } from '../../../../../shared/schemas/exams.js';
import { api } from '../../../api/client.js';
import { phaseStudentsKey } from './get-phase-students.js';
import { type PhaseIds, phasePath } from './keys.js';

/** POST …/phases/{phaseId}/students/admit-threshold: admits everyone scoring at least X. */
export const admitThreshold = (
  { examId, editionId, phaseId }: PhaseIds,
  body: AdmitThresholdInput,
) =>
  api<AdmitResult>(`${phasePath(examId, editionId, phaseId)}/students/admit-threshold`, {
    method: 'POST',
    body,
  });

export function useAdmitThreshold(ids: PhaseIds) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: AdmitThresholdInput) => admitThreshold(ids, body),
    onSettled: () => queryClient.invalidateQueries({ queryKey: phaseStudentsKey(ids) }),
  });
}
