import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { EditionStudentsInput, FailedStudents } from '../../../../../shared/schemas/exams.js';
import { api } from '../../../api/client.js';
import { type EditionIds, EXAMS_KEY, editionPath } from './keys.js';

/** DELETE …/editions/{editionId}/students with `{students}`: un-enrols them. */
export const removeEditionStudents = (
  { examId, editionId }: EditionIds,
  body: EditionStudentsInput,
) => api<FailedStudents>(`${editionPath(examId, editionId)}/students`, { method: 'DELETE', body });

export function useRemoveEditionStudents(ids: EditionIds) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: EditionStudentsInput) => removeEditionStudents(ids, body),
    onSettled: () => queryClient.invalidateQueries({ queryKey: EXAMS_KEY }),
  });
}
