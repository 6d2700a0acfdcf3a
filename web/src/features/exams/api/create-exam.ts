import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Exam, ExamCreateInput } from '../../../../../shared/schemas/exams.js';
import { api } from '../../../api/client.js';
import { EXAMS_KEY, EXAMS_PATH } from './keys.js';

/** POST /exam-mgmt/exams/: a new competition (admins only). */
export const createExam = (body: ExamCreateInput) =>
  api<Exam>(`${EXAMS_PATH}/`, { method: 'POST', body });

export function useCreateExam() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createExam,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: EXAMS_KEY }),
  });
}
