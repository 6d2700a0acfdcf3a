import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../api/client.js';
import { type PhaseIds, phaseKey } from '../../../components/phase/get-phase-context.js';
import { phaseTestsKey, testPath } from './keys.js';

/** DELETE …/tests/{testId}: refused (TEST_HAS_ATTEMPTS) once a student has started it. */
export const deleteTest = (ids: PhaseIds, testId: string) =>
  api<void>(testPath({ ...ids, testId }), { method: 'DELETE' });

export function useDeleteTest(ids: PhaseIds) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (testId: string) => deleteTest(ids, testId),
    // Its questions become deletable again; the bank's key is features/questions' bankKey.
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: phaseTestsKey(ids) }),
        queryClient.invalidateQueries({ queryKey: phaseKey(ids) }),
        queryClient.invalidateQueries({
          queryKey: ['questions', ids.examId, ids.editionId, ids.phaseId],
        }),
      ]),
  });
}
