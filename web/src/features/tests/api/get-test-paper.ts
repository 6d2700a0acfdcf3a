import { useQuery } from '@tanstack/react-query';
import type { TestPaper } from '../../../../../shared/schemas/tests.js';
import { api } from '../../../api/client.js';
import { type TestIds, testKey, testPath } from './keys.js';

/** GET …/tests/{testId}/paper: what the printed paper shows (the PDF prints the same). */
export const getTestPaper = (ids: TestIds) => api<TestPaper>(`${testPath(ids)}/paper`);

export const useTestPaper = (ids: TestIds, enabled = true) =>
  useQuery({
    queryKey: [...testKey(ids), 'paper'],
    queryFn: () => getTestPaper(ids),
    enabled,
    retry: false,
  });
