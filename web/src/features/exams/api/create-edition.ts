import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Edition, EditionCreateInput } from '../../../../../shared/schemas/exams.js';
import { api } from '../../../api/client.js';
import { editionsKey } from './get-editions.js';
import { examPath } from './keys.js';

/** POST /exam-mgmt/exams/{examId}/editions: a new edition (exam managers). */
export const createEdition = (examId: string, body: EditionCreateInput) =>
  api<Edition>(`${examPath(examId)}/editions`, { method: 'POST', body });

export function useCreateEdition(examId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: EditionCreateInput) => createEdition(examId, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: editionsKey(examId) }),
  });
}
