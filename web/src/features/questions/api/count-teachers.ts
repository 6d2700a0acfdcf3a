import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { CountAnswer } from '../../../../../shared/schemas/people.js';
import { api } from '../../../api/client.js';
import type { Where } from '../../../components/list/where.js';

export const teachersCountKey = (where: Where | undefined) =>
  ['people', 'teachers', 'count', where ?? null] as const;

/** GET /user-mgmt/teachers/count?where=…: how many teachers match (the picker's pager). */
export const countTeachers = (where: Where | undefined) =>
  api<CountAnswer>('/user-mgmt/teachers/count', { query: { where } });

export const useTeachersCount = (where: Where | undefined) =>
  useQuery({
    queryKey: teachersCountKey(where),
    queryFn: () => countTeachers(where),
    select: (answer) => answer.count,
    placeholderData: keepPreviousData,
  });
