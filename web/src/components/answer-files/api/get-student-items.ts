import { useQuery } from '@tanstack/react-query';
import type { StudentItems } from '../../../../../shared/schemas/uploads.js';
import { ApiError, api } from '../../../api/client.js';
import { studentItemsKey, type TestIds, uploadTestPath } from '../paths.js';

/** GET …/tests/{testId}/students/{studentId}/items: the items with this student's answers. */
export const getStudentItems = (ids: TestIds, studentId: string) =>
  api<StudentItems>(`${uploadTestPath(ids)}/students/${encodeURIComponent(studentId)}/items`);

export const useStudentItems = (ids: TestIds, studentId: string) =>
  useQuery({
    queryKey: studentItemsKey(ids.testId, studentId),
    queryFn: () => getStudentItems(ids, studentId),
    enabled: studentId !== '',
    // A refusal (not open yet, not found, no rights) will not change by asking again at once.
    retry: (count, error) => count < 2 && !(error instanceof ApiError && error.status >= 400),
  });
