import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { Count } from '../../../../../shared/schemas/exams.js';
import { api } from '../../../api/client.js';
import type { Where } from '../../../components/list/where.js';
import { phaseStudentsKey } from './get-phase-students.js';
import { type PhaseIds, phasePath } from './keys.js';

/** GET …/phases/{phaseId}/students/count?where=…: answers `{count}` (SPEC.md §7). */
export const countPhaseStudents = (
  { examId, editionId, phaseId }: PhaseIds,
  where: Where | undefined,
) => api<Count>(`${phasePath(examId, editionId, phaseId)}/students/count`, { query: { where } });

export const usePhaseStudentsCount = (ids: PhaseIds, where: Where | undefined) =>
  useQuery({
    queryKey: [...phaseStudentsKey(ids), 'count', where ?? null],
    queryFn: () => countPhaseStudents(ids, where),
    select: (answer) => answer.count,
    placeholderData: keepPreviousData,
  });
