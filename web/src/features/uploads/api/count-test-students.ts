import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { Count } from '../../../../../shared/schemas/exams.js';
import { api } from '../../../api/client.js';
import { type TestIds, uploadTestPath } from '../../../components/answer-files/paths.js';
import type { Where } from '../../../components/list/where.js';
import { testStudentsKey } from './get-test-students.js';

/** GET …/tests/{testId}/students/count?where=…: answers `{count}`. */
export const countTestStudents = (ids: TestIds, where: Where | undefined) =>
  api<Count>(`${uploadTestPath(ids)}/students/count`, { query: { where } });

export const useTestStudentsCount = (ids: TestIds, where: Where | undefined) =>
  useQuery({
    queryKey: [...testStudentsKey(ids.testId), 'count', where ?? null],
    queryFn: () => countTestStudents(ids, where),
    select: (answer) => answer.count,
    placeholderData: keepPreviousData,
  });
