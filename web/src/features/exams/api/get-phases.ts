import { useQuery } from '@tanstack/react-query';
import type { PhaseListItem } from '../../../../../shared/schemas/exams.js';
import { api } from '../../../api/client.js';
import { type EditionIds, editionKey, editionPath } from './keys.js';

export const phasesKey = ({ examId, editionId }: EditionIds) =>
  [...editionKey(examId, editionId), 'phases'] as const;

/** DESIGN.md: phases are ordered by their start dates. */
const PHASES_FILTER = { order: 'startDate ASC', limit: 100, skip: 0 };

/** GET …/editions/{editionId}/phases: the edition's phases, first one first. */
export const getPhases = ({ examId, editionId }: EditionIds) =>
  api<PhaseListItem[]>(`${editionPath(examId, editionId)}/phases`, {
    query: { filter: PHASES_FILTER },
  });

export const usePhases = (ids: EditionIds) =>
  useQuery({ queryKey: phasesKey(ids), queryFn: () => getPhases(ids) });
