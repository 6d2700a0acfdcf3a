import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { FailedStudents, PhaseResultsInput } from '../../../../../shared/schemas/exams.js';
import { api } from '../../../api/client.js';
import { phaseStudentsKey } from './get-phase-students.js';
import { type PhaseIds, phasePath } from './keys.js';

/**
 * PUT …/phases/{phaseId}/students/: marks students admitted or rejected; success means an
 * empty `failedStudents` (SPEC.md §4).
 */
export const setPhaseResults = (
  { examId, editionId, phaseId }: PhaseIds,
  body: PhaseResultsInput,
) =>
  api<FailedStudents>(`${phasePath(examId, editionId, phaseId)}/students/`, {
    method: 'PUT',
    body,
  });

export function useSetPhaseResults(ids: PhaseIds) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: PhaseResultsInput) => setPhaseResults(ids, body),
    onSettled: () => queryClient.invalidateQueries({ queryKey: phaseStudentsKey(ids) }),
  });
}
