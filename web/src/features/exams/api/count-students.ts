import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { CountAnswer } from '../../../../../shared/schemas/people.js';
import { api } from '../../../api/client.js';
import type { Where } from '../../../components/list/where.js';
import { EXAMS_KEY } from './keys.js';

/** GET /user-mgmt/students/count?where=…: how many students the enrolment picker can page. */
export const countStudents = (where: Where | undefined) =>
  api<CountAnswer>('/user-mgmt/students/count', { query: { where } });

export const useStudentsToEnrolCount = (where: Where | undefined, enabled: boolean) =>
  useQuery({
    queryKey: [...EXAMS_KEY, 'students-to-enrol', 'count', where ?? null],
    queryFn: () => countStudents(where),
    select: (answer) => answer.count,
    placeholderData: keepPreviousData,
    enabled,
  });
