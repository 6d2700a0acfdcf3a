import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { Person } from '../../../../../shared/schemas/people.js';
import { api } from '../../../api/client.js';
import type { ListFilter } from '../../../components/list/use-paged-list.js';

/** Every students query starts with this key; mutations invalidate it whole. */
export const STUDENTS_KEY = ['people', 'students'] as const;
export const studentsListKey = (filter: ListFilter, examAdmin?: string) =>
  [...STUDENTS_KEY, 'list', filter, examAdmin ?? null] as const;

/** GET /user-mgmt/students?filter=…: one page of students in the caller's scope. */
export const getStudents = (filter: ListFilter, examAdmin?: string) =>
  api<Person[]>('/user-mgmt/students', { query: { filter, examAdmin } });

/** One page of students; the previous page stays shown while the next one loads. */
export const useStudents = (filter: ListFilter, examAdmin?: string) =>
  useQuery({
    queryKey: studentsListKey(filter, examAdmin),
    queryFn: () => getStudents(filter, examAdmin),
    placeholderData: keepPreviousData,
  });
