import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { Count, EditionListItem } from '../../../../../shared/schemas/exams.js';
import { api } from '../../../api/client.js';
import type { ListFilter } from '../../../components/list/use-paged-list.js';
import type { Where } from '../../../components/list/where.js';
import { examKey, examPath } from './keys.js';

export const editionsKey = (examId: string) => [...examKey(examId), 'editions'] as const;

/** GET /exam-mgmt/exams/{examId}/editions?filter=…: one page of the editions the caller sees. */
export const getEditions = (examId: string, filter: ListFilter) =>
  api<EditionListItem[]>(`${examPath(examId)}/editions`, { query: { filter } });

export const useEditions = (examId: string, filter: ListFilter) =>
  useQuery({
    queryKey: [...editionsKey(examId), 'list', filter],
    queryFn: () => getEditions(examId, filter),
    placeholderData: keepPreviousData,
  });

/** GET /exam-mgmt/exams/{examId}/editions/count?where=…: how many (for the pager). */
export const countEditions = (examId: string, where: Where | undefined) =>
  api<Count>(`${examPath(examId)}/editions/count`, { query: { where } });

export const useEditionsCount = (examId: string, where: Where | undefined) =>
  useQuery({
    queryKey: [...editionsKey(examId), 'count', where ?? null],
    queryFn: () => countEditions(examId, where),
    select: (answer) => answer.count,
    placeholderData: keepPreviousData,
  });
