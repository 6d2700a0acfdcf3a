import { useQuery } from '@tanstack/react-query';
import type { MarkingScope } from '../../../../../shared/schemas/reviews.js';
import { api } from '../../../api/client.js';
import type { PhaseIds } from '../../../components/phase/get-phase-context.js';
import { reviewPhaseKey, reviewPhasePath } from './paths.js';

/** GET P/marking-scope: how many of the phase's questions people mark (0: nothing to start). */
export const getMarkingScope = (ids: PhaseIds) =>
  api<MarkingScope>(`${reviewPhasePath(ids)}/marking-scope`);

export const useMarkingScope = (ids: PhaseIds) =>
  useQuery({
    queryKey: [...reviewPhaseKey(ids.phaseId), 'marking-scope'],
    queryFn: () => getMarkingScope(ids),
  });
