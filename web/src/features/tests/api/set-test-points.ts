import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TestPointsInput, TestPointsResult } from '../../../../../shared/schemas/tests.js';
import { api } from '../../../api/client.js';
import { phaseTestsKey, type TestIds, testPath } from './keys.js';

/**
 * PUT …/tests/{testId}/items: each question's points (adding up to the test's total); the
 * attempts already scored are scored again, and the answer says how many students that was.
 */
export const setTestPoints = (ids: TestIds, body: TestPointsInput) =>
  api<TestPointsResult>(`${testPath(ids)}/items`, { method: 'PUT', body });

export function useSetTestPoints(ids: TestIds) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: TestPointsInput) => setTestPoints(ids, body),
    // The list, the preview and the details all show the points.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: phaseTestsKey(ids) }),
  });
}
