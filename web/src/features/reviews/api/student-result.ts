import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  AppealInput,
  StudentResult,
  StudentReviewItem,
} from '../../../../../shared/schemas/reviews.js';
import { api } from '../../../api/client.js';
import { studentResultKey, studentTestPath } from './paths.js';

/** GET /test-review/tests/{testId}/items: the student's own result, item by item. */
export const getStudentResult = (testId: string) =>
  api<StudentResult>(`${studentTestPath(testId)}/items`);

export const useStudentResult = (testId: string) =>
  useQuery({ queryKey: studentResultKey(testId), queryFn: () => getStudentResult(testId) });

/** PUT /test-review/tests/{testId}/items/{itemId}/appeal: the student contests an item. */
export const fileAppeal = (testId: string, itemId: string, body: AppealInput) =>
  api<StudentReviewItem>(`${studentTestPath(testId)}/items/${encodeURIComponent(itemId)}/appeal`, {
    method: 'PUT',
    body,
  });

export function useFileAppeal(testId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ itemId, reason }: { itemId: string; reason: string }) =>
      fileAppeal(testId, itemId, { reason }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: studentResultKey(testId) }),
  });
}
