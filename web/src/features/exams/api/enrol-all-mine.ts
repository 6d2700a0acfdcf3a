import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { BulkEnrolResult } from '../../../../../shared/schemas/exams.js';
import { api } from '../../../api/client.js';
import { type EditionIds, EXAMS_KEY, editionPath } from './keys.js';

/** POST …/editions/{editionId}/students/all-mine: enrols every student of the calling teacher. */
export const enrolAllMine = ({ examId, editionId }: EditionIds) =>
  api<BulkEnrolResult>(`${editionPath(examId, editionId)}/students/all-mine`, { method: 'POST' });

export function useEnrolAllMine(ids: EditionIds) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => enrolAllMine(ids),
    onSettled: () => queryClient.invalidateQueries({ queryKey: EXAMS_KEY }),
  });
}
