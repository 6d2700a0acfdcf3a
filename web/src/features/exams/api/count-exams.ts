import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { Count } from '../../../../../shared/schemas/exams.js';
import { api } from '../../../api/client.js';
import type { Where } from '../../../components/list/where.js';
import { EXAMS_KEY, EXAMS_PATH } from './keys.js';

export const examsCountKey = (where: Where | undefined) =>
  [...EXAMS_KEY, 'count', where ?? null] as const;

/** GET /exam-mgmt/exams/count?where=…: how many competitions match (for the pager). */
export const countExams = (where: Where | undefined) =>
  api<Count>(`${EXAMS_PATH}/count`, { query: { where } });

export const useExamsCount = (where: Where | undefined) =>
  useQuery({
    queryKey: examsCountKey(where),
    queryFn: () => countExams(where),
    select: (answer) => answer.count,
    placeholderData: keepPreviousData,
  });
