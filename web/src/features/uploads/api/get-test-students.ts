import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { TestStudent } from '../../../../../shared/schemas/uploads.js';
import { api } from '../../../api/client.js';
import {
  type TestIds,
  uploadsTestKey,
  uploadTestPath,
} from '../../../components/answer-files/paths.js';
import type { ListFilter } from '../../../components/list/use-paged-list.js';

export const testStudentsKey = (testId: string) => [...uploadsTestKey(testId), 'students'] as const;

/** GET …/tests/{testId}/students?filter=…: the test's students with status and score. */
export const getTestStudents = (ids: TestIds, filter: ListFilter) =>
  api<TestStudent[]>(`${uploadTestPath(ids)}/students`, { query: { filter } });

export const useTestStudents = (ids: TestIds, filter: ListFilter) =>
  useQuery({
    queryKey: [...testStudentsKey(ids.testId), 'list', filter],
    queryFn: () => getTestStudents(ids, filter),
    placeholderData: keepPreviousData,
  });
