import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Edition, EditionPatchInput } from '../../../../../shared/schemas/exams.js';
import { api } from '../../../api/client.js';
import { type EditionIds, editionPath, examKey } from './keys.js';

/** PATCH …/editions/{editionId}: changes what is sent; `teacherIds` replaces the coordinators. */
export const patchEdition = ({ examId, editionId }: EditionIds, body: EditionPatchInput) =>
  api<Edition>(editionPath(examId, editionId), { method: 'PATCH', body });

export function usePatchEdition(ids: EditionIds) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: EditionPatchInput) => patchEdition(ids, body),
    // The exam page lists the edition too.
    onSettled: () => queryClient.invalidateQueries({ queryKey: examKey(ids.examId) }),
  });
}
