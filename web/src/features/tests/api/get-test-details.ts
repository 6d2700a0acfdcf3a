import { useQuery } from '@tanstack/react-query';
import type { TestDetails } from '../../../../../shared/schemas/tests.js';
import { api } from '../../../api/client.js';
import { type TestIds, testKey, testPath } from './keys.js';

/**
 * GET …/tests/{testId}/details: the test with its items, their scores and correct answers,
 * and the exam, edition and phase names for the paper's header.
 */
export const getTestDetails = (ids: TestIds) => api<TestDetails>(`${testPath(ids)}/details`);

export const useTestDetails = (ids: TestIds, enabled = true) =>
  useQuery({
    queryKey: [...testKey(ids), 'details'],
    queryFn: () => getTestDetails(ids),
    enabled,
    retry: false,
  });
