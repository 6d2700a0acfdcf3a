import { useQuery } from '@tanstack/react-query';
import type { TestSummary } from '../../../../../shared/schemas/uploads.js';
import { api } from '../../../api/client.js';
import {
  type TestIds,
  uploadsTestKey,
  uploadTestPath,
} from '../../../components/answer-files/paths.js';

/** GET /upload-mgmt/…/tests/{testId}: the test, and whether the caller enters answers now. */
export const getTestSummary = (ids: TestIds) => api<TestSummary>(uploadTestPath(ids));

export const useTestSummary = (ids: TestIds) =>
  useQuery({
    queryKey: [...uploadsTestKey(ids.testId), 'summary'],
    queryFn: () => getTestSummary(ids),
  });
