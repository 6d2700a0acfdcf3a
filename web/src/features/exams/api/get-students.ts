import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { Person } from '../../../../../shared/schemas/people.js';
import { api } from '../../../api/client.js';
import type { ListFilter } from '../../../components/list/use-paged-list.js';
import { EXAMS_KEY } from './keys.js';

/** A students page with each one's editions, so the picker can tell who is enrolled. */
export type StudentsPickerFilter = ListFilter & { fields: string[]; include: 'studentEditions' };

/** GET /user-mgmt/students?filter=…: the students in the caller's scope (to enrol them). */
export const getStudents = (filter: StudentsPickerFilter) =>
  api<Person[]>('/user-mgmt/students', { query: { filter } });

export const useStudentsToEnrol = (filter: StudentsPickerFilter, enabled: boolean) =>
  useQuery({
    queryKey: [...EXAMS_KEY, 'students-to-enrol', filter],
    queryFn: () => getStudents(filter),
    placeholderData: keepPreviousData,
    enabled,
  });
