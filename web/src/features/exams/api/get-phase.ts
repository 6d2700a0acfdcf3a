import { useQuery } from '@tanstack/react-query';
import type { Phase } from '../../../../../shared/schemas/exams.js';
import { api } from '../../../api/client.js';
import { type PhaseIds, phaseKey, phasePath } from './keys.js';

export const phaseDetailKey = ({ examId, editionId, phaseId }: PhaseIds) =>
  [...phaseKey(examId, editionId, phaseId), 'detail'] as const;

/** GET …/phases/{phaseId}. */
export const getPhase = ({ examId, editionId, phaseId }: PhaseIds) =>
  api<Phase>(phasePath(examId, editionId, phaseId));

export const usePhase = (ids: PhaseIds) =>
  useQuery({ queryKey: phaseDetailKey(ids), queryFn: () => getPhase(ids) });
