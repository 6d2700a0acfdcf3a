import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { ExamListItem } from '../../../../../shared/schemas/exams.js';
import { api } from '../../../api/client.js';
import type { ListFilter } from '../../../components/list/use-paged-list.js';
import { EXAMS_KEY, EXAMS_PATH } from './keys.js';

/** A page of competitions, optionally projected (`fields`). */
export type ExamsFilter = ListFilter & { fields?: string[] };

export const examsListKey = (filter: ExamsFilter) => [...EXAMS_KEY, 'list', filter] as const;

/** GET /exam-mgmt/exams?filter=…: one page of the competitions the caller sees. */
export const getExams = (filter: ExamsFilter) =>
  api<ExamListItem[]>(EXAMS_PATH, { query: { filter } });

export const useExams = (filter: ExamsFilter) =>
  useQuery({
    queryKey: examsListKey(filter),
    queryFn: () => getExams(filter),
    placeholderData: keepPreviousData,
  });
