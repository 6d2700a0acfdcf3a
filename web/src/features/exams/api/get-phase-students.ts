import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { PhaseStudent } from '../../../../../shared/schemas/exams.js';
import { api } from '../../../api/client.js';
import type { ListFilter } from '../../../components/list/use-paged-list.js';
import { type PhaseIds, phaseKey, phasePath } from './keys.js';

export const phaseStudentsKey = ({ examId, editionId, phaseId }: PhaseIds) =>
  [...phaseKey(examId, editionId, phaseId), 'students'] as const;

/**
 * GET …/phases/{phaseId}/students?filter=…: the phase's students with their result. Without a
 * `studentGrade` condition the server keeps the exam's first grade; `''` means every grade.
 */
export const getPhaseStudents = ({ examId, editionId, phaseId }: PhaseIds, filter: ListFilter) =>
  api<PhaseStudent[]>(`${phasePath(examId, editionId, phaseId)}/students`, {
    query: { filter },
  });

export const usePhaseStudents = (ids: PhaseIds, filter: ListFilter) =>
  useQuery({
    queryKey: [...phaseStudentsKey(ids), 'list', filter],
    queryFn: () => getPhaseStudents(ids, filter),
    placeholderData: keepPreviousData,
  });
