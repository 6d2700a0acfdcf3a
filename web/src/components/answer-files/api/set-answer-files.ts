import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Answer } from '../../../../../shared/schemas/uploads.js';
import { api } from '../../../api/client.js';
import { type TestIds, uploadsTestKey, uploadTestPath } from '../paths.js';

/** PATCH …/answers/{answerId} `{answerFiles}`: the files to keep, in order (delete, reorder). */
export const setAnswerFiles = (ids: TestIds, answerId: string, answerFiles: string[]) =>
  api<Answer>(`${uploadTestPath(ids)}/answers/${encodeURIComponent(answerId)}`, {
    method: 'PATCH',
    body: { answerFiles },
  });

export function useSetAnswerFiles(ids: TestIds) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { answerId: string; answerFiles: string[] }) =>
      setAnswerFiles(ids, input.answerId, input.answerFiles),
    onSettled: () => queryClient.invalidateQueries({ queryKey: uploadsTestKey(ids.testId) }),
  });
}
