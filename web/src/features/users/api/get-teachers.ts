import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { Person } from '../../../../../shared/schemas/people.js';
import { api } from '../../../api/client.js';
import type { ListFilter } from '../../../components/list/use-paged-list.js';

/** A teachers filter, optionally projected (`fields`) for pickers and look-ups. */
export type TeachersFilter = Partial<ListFilter> & { fields?: string[] };

/** Every teachers query starts with this key; mutations invalidate it whole. */
export const TEACHERS_KEY = ['people', 'teachers'] as const;
export const teachersListKey = (filter: TeachersFilter) =>
  [...TEACHERS_KEY, 'list', filter] as const;

/** GET /user-mgmt/teachers?filter=…: teachers (any active teacher or admin may list them). */
export const getTeachers = (filter: TeachersFilter) =>
  api<Person[]>('/user-mgmt/teachers', { query: { filter } });

/** One page of teachers; the previous page stays shown while the next one loads. */
export const useTeachers = (filter: TeachersFilter, options: { enabled?: boolean } = {}) =>
  useQuery({
    queryKey: teachersListKey(filter),
    queryFn: () => getTeachers(filter),
    placeholderData: keepPreviousData,
    enabled: options.enabled,
  });
