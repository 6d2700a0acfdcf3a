import { useMutation, useQueryClient } from '@tanstack/react-query';
import type {
  AddStudentsResult,
  EditionStudentsInput,
} from '../../../../../shared/schemas/exams.js';
import { api } from '../../../api/client.js';
import { type EditionIds, EXAMS_KEY, editionPath } from './keys.js';

/**
 * POST …/editions/{editionId}/students: enrols students (their `studentEditions` gain the
 * edition); `failures` says who was not enrolled and why.
 */
export const addEditionStudents = ({ examId, editionId }: EditionIds, body: EditionStudentsInput) =>
  api<AddStudentsResult>(`${editionPath(examId, editionId)}/students`, { method: 'POST', body });

export function useAddEditionStudents(ids: EditionIds) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: EditionStudentsInput) => addEditionStudents(ids, body),
    // The edition's phases and the enrolment picker change too.
    onSettled: () => queryClient.invalidateQueries({ queryKey: EXAMS_KEY }),
  });
}
