import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { EditionStudentsInput, FailedStudents } from '../../../../../shared/schemas/exams.js';
import { api } from '../../../api/client.js';
import { type EditionIds, EXAMS_KEY, editionPath } from './keys.js';

/**
 * POST …/editions/{editionId}/students: enrols students (their `studentEditions` gain the
 * edition); success means an empty `failedStudents`.
 */
export const addEditionStudents = ({ examId, editionId }: EditionIds, body: EditionStudentsInput) =>
  api<FailedStudents>(`${editionPath(examId, editionId)}/students`, { method: 'POST', body });

export function useAddEditionStudents(ids: EditionIds) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: EditionStudentsInput) => addEditionStudents(ids, body),
    // The edition's phases and the enrolment picker change too.
    onSettled: () => queryClient.invalidateQueries({ queryKey: EXAMS_KEY }),
  });
}
