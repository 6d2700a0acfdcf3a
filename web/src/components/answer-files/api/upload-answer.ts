import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { UploadResult } from '../../../../../shared/schemas/uploads.js';
import { api } from '../../../api/client.js';
import { type TestIds, uploadsTestKey, uploadTestPath } from '../paths.js';

export type UploadAnswerInput = {
  itemId: string;
  files: readonly File[];
  /** Staff entering a paper answer name the student; a student uploads their own. */
  studentId?: string;
};

/**
 * POST …/items/{itemId}/answers (own answer) or …/students/{studentId}/items/{itemId}/answers
 * (staff entry): multipart `item_0`, `item_1`, … (SPEC.md §3).
 */
export function uploadAnswer(ids: TestIds, { itemId, files, studentId }: UploadAnswerInput) {
  const form = new FormData();
  files.forEach((file, i) => {
    form.append(`item_${i}`, file, file.name);
  });
  const student = studentId ? `/students/${encodeURIComponent(studentId)}` : '';
  return api<UploadResult>(
    `${uploadTestPath(ids)}${student}/items/${encodeURIComponent(itemId)}/answers`,
    { method: 'POST', body: form },
  );
}

export function useUploadAnswer(ids: TestIds) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: UploadAnswerInput) => uploadAnswer(ids, input),
    onSettled: () => queryClient.invalidateQueries({ queryKey: uploadsTestKey(ids.testId) }),
  });
}
