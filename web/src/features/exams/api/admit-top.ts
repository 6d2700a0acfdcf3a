import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AdmitResult, AdmitTopInput } from '../../../../../shared/schemas/exams.js';
import { api } from '../../../api/client.js';
import { phaseStudentsKey } from './get-phase-students.js';
import { type PhaseIds, phasePath } from './keys.js';

/** POST …/phases/{phaseId}/students/admit-top: admits the best N of each grade (ties too). */
export const admitTop = ({ examId, editionId, phaseId }: PhaseIds, body: AdmitTopInput) =>
  api<AdmitResult>(`${phasePath(examId, editionId, phaseId)}/students/admit-top`, {
    method: 'POST',
    body,
  });

export function useAdmitTop(ids: PhaseIds) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: AdmitTopInput) => admitTop(ids, body),
    onSettled: () => queryClient.invalidateQueries({ queryKey: phaseStudentsKey(ids) }),
  });
}
