import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { CountAnswer } from '../../../../../shared/schemas/people.js';
import { api } from '../../../api/client.js';
import type { Where } from '../../../components/list/where.js';
import { STUDENTS_KEY } from './get-students.js';

export const studentsCountKey = (where: Where | undefined, examAdmin?: string) =>
  [...STUDENTS_KEY, 'count', where ?? null, examAdmin ?? null] as const;

/** GET /user-mgmt/students/count?where=…: how many students match (for the pager). */
export const countStudents = (where: Where | undefined, examAdmin?: string) =>
  api<CountAnswer>('/user-mgmt/students/count', { query: { where, examAdmin } });

export const useStudentsCount = (where: Where | undefined, examAdmin?: string) =>
  useQuery({
    queryKey: studentsCountKey(where, examAdmin),
    queryFn: () => countStudents(where, examAdmin),
    select: (answer) => answer.count,
    placeholderData: keepPreviousData,
  });
