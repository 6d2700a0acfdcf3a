import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../api/client.js';
import { EXAMS_KEY, examPath } from './keys.js';

/** DELETE /exam-mgmt/exams/{examId}: admins only; refused with EXAM_HAS_EDITIONS while it has editions. */
export const deleteExam = (examId: string) => api<null>(examPath(examId), { method: 'DELETE' });

export function useDeleteExam() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (examId: string) => deleteExam(examId),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: EXAMS_KEY }),
  });
}
