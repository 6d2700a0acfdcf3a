import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Exam, ExamPatchInput } from '../../../../../shared/schemas/exams.js';
import { api } from '../../../api/client.js';
import { EXAMS_KEY, examPath } from './keys.js';

/**
 * PATCH /exam-mgmt/exams/{examId}: changes what is sent; `adminTeacherIds` and
 * `staffTeacherIds` replace the whole list.
 */
export const patchExam = (examId: string, body: ExamPatchInput) =>
  api<Exam>(examPath(examId), { method: 'PATCH', body });

export function usePatchExam(examId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ExamPatchInput) => patchExam(examId, body),
    // The list shows names and subjects too.
    onSettled: () => queryClient.invalidateQueries({ queryKey: EXAMS_KEY }),
  });
}
