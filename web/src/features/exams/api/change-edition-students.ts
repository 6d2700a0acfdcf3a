import { useMutation, useQueryClient } from '@tanstack/react-query';
import type {
  EditionStudentChangesInput,
  FailedStudents,
} from '../../../../../shared/schemas/exams.js';
import { api } from '../../../api/client.js';
import { type EditionIds, EXAMS_KEY, editionPath } from './keys.js';

/** PUT …/editions/{editionId}/students: changes enrolled students' grade or exam location. */
export const changeEditionStudents = (
  { examId, editionId }: EditionIds,
  body: EditionStudentChangesInput,
) => api<FailedStudents>(`${editionPath(examId, editionId)}/students`, { method: 'PUT', body });

export function useChangeEditionStudents(ids: EditionIds) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: EditionStudentChangesInput) => changeEditionStudents(ids, body),
    onSettled: () => queryClient.invalidateQueries({ queryKey: EXAMS_KEY }),
  });
}
