import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { Person } from '../../../../../shared/schemas/people.js';
import { api } from '../../../api/client.js';
import type { Where } from '../../../components/list/where.js';
import { EXAMS_KEY } from './keys.js';

/** A projected teachers query for the pickers (admin teachers, staff, coordinators). */
export type TeachersQuery = { where?: Where; limit: number; order?: string; fields: string[] };

export const TEACHER_FIELDS = ['_id', 'familyName', 'givenName', 'email', 'county', 'state'];

/** GET /user-mgmt/teachers?filter=…: teachers for a picker or to name the chosen ones. */
export const getTeachers = (filter: TeachersQuery) =>
  api<Person[]>('/user-mgmt/teachers', { query: { filter: { skip: 0, ...filter } } });

export const useTeachers = (filter: TeachersQuery, enabled = true) =>
  useQuery({
    queryKey: [...EXAMS_KEY, 'teachers', filter],
    queryFn: () => getTeachers(filter),
    placeholderData: keepPreviousData,
    enabled,
  });

/** The named teachers (by id), for showing who is on a list. */
export function useTeachersById(ids: readonly string[]) {
  const sorted = [...ids].sort();
  return useTeachers(
    {
      where: { _id: { inq: sorted } },
      limit: Math.max(sorted.length, 1),
      order: 'familyName ASC',
      fields: TEACHER_FIELDS,
    },
    sorted.length > 0,
  );
}
