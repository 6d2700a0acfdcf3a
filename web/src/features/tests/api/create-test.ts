import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Test, TestCreateInput } from '../../../../../shared/schemas/tests.js';
import { api } from '../../../api/client.js';
import { type PhaseIds, phaseKey } from '../../../components/phase/get-phase-context.js';
import { phaseTestsKey, testsPath } from './keys.js';

/**
 * POST …/tests: draws the test from the phase's bank. Refusals: TEST_ALREADY_EXISTS
 * (`test_grade_duplicate` on grades), INVALID_TEST_DATE (on startDate),
 * INSUFFICIENT_TEST_ITEMS_FOR_CRITERIA (what the bank lacks, per difficulty, in details).
 */
export const createTest = (ids: PhaseIds, body: TestCreateInput) =>
  api<Test>(testsPath(ids), { method: 'POST', body });

export function useCreateTest(ids: PhaseIds) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: TestCreateInput) => createTest(ids, body),
    // A new test resets the phase's all-published flag, and its questions become undeletable.
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
