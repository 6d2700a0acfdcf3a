import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { BulkEnrolResult } from '../../../../../shared/schemas/exams.js';
import { api } from '../../../api/client.js';
import { type EditionIds, EXAMS_KEY, editionPath } from './keys.js';

/**
 * POST …/editions/{editionId}/students/for-coordinators: enrols the students of every
 * coordinator of the edition (exam managers).
 */
export const enrolForCoordinators = ({ examId, editionId }: EditionIds) =>
  api<BulkEnrolResult>(`${editionPath(examId, editionId)}/students/for-coordinators`, {
    method: 'POST',
  });

export function useEnrolForCoordinators(ids: EditionIds) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => enrolForCoordinators(ids),
    onSettled: () => queryClient.invalidateQueries({ queryKey: EXAMS_KEY }),
  });
}
