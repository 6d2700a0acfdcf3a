import { useQuery } from '@tanstack/react-query';
import type { TestPreview } from '../../../../../shared/schemas/tests.js';
import { api } from '../../../api/client.js';
import { type TestIds, testKey, testPath } from './keys.js';

/** GET …/tests/{testId}: the test and its items as the paper shows them, no correct answers. */
export const getTest = (ids: TestIds) => api<TestPreview>(testPath(ids));

export const useTestPreview = (ids: TestIds, enabled = true) =>
  useQuery({
    queryKey: [...testKey(ids), 'preview'],
    queryFn: () => getTest(ids),
    enabled,
    retry: false,
  });
