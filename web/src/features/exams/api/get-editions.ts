import { useQuery } from '@tanstack/react-query';
import { EDITION_LIST_LIMIT } from '../../../../../shared/constants.js';
import type { EditionListItem } from '../../../../../shared/schemas/exams.js';
import { api } from '../../../api/client.js';
import { examKey, examPath } from './keys.js';

export const editionsKey = (examId: string) => [...examKey(examId), 'editions'] as const;

/** SPEC.md §9: editions by name, at most 100. */
const EDITIONS_FILTER = { limit: EDITION_LIST_LIMIT, skip: 0, order: 'name ASC' };

/** GET /exam-mgmt/exams/{examId}/editions: the editions the caller sees. */
export const getEditions = (examId: string) =>
  api<EditionListItem[]>(`${examPath(examId)}/editions`, { query: { filter: EDITIONS_FILTER } });

export const useEditions = (examId: string) =>
  useQuery({ queryKey: editionsKey(examId), queryFn: () => getEditions(examId) });
