import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { EditionStudent } from '../../../../../shared/schemas/exams.js';
import { api } from '../../../api/client.js';
import type { ListFilter } from '../../../components/list/use-paged-list.js';
import { type EditionIds, editionKey, editionPath } from './keys.js';

export const editionStudentsKey = ({ examId, editionId }: EditionIds) =>
  [...editionKey(examId, editionId), 'students'] as const;

/** GET …/editions/{editionId}/students?filter=…: the enrolled students the caller sees. */
export const getEditionStudents = ({ examId, editionId }: EditionIds, filter: ListFilter) =>
  api<EditionStudent[]>(`${editionPath(examId, editionId)}/students`, { query: { filter } });

export const useEditionStudents = (ids: EditionIds, filter: ListFilter) =>
  useQuery({
    queryKey: [...editionStudentsKey(ids), 'list', filter],
    queryFn: () => getEditionStudents(ids, filter),
    placeholderData: keepPreviousData,
  });
