import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { Person } from '../../../../../shared/schemas/people.js';
import { api } from '../../../api/client.js';
import type { ListFilter } from '../../../components/list/use-paged-list.js';

/** A teachers filter, projected (`fields`) to what the teacher pickers show. */
export type TeachersFilter = Partial<ListFilter> & { fields?: string[] };

// Under the people screens' root key, so their changes (state, deletion) refresh the pickers.
export const teachersListKey = (filter: TeachersFilter) =>
  ['people', 'teachers', 'list', filter] as const;

/** GET /user-mgmt/teachers?filter=…: teachers to choose the mediator and reviewers from. */
export const getTeachers = (filter: TeachersFilter) =>
  api<Person[]>('/user-mgmt/teachers', { query: { filter } });

export const useTeachers = (filter: TeachersFilter, options: { enabled?: boolean } = {}) =>
  useQuery({
    queryKey: teachersListKey(filter),
    queryFn: () => getTeachers(filter),
    placeholderData: keepPreviousData,
    enabled: options.enabled,
  });
