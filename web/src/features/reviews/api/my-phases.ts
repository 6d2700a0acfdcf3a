import { useQuery } from '@tanstack/react-query';
import type { ReviewScope } from '../../../../../shared/schemas/reviews.js';
import { api } from '../../../api/client.js';
import type { PhaseIds } from '../../../components/phase/get-phase-context.js';
import { reviewPhaseKey, reviewPhasePath } from './paths.js';

export { getMyPhases, myPhasesKey, useMyPhases } from '../../../api/marker-work.js';

/** GET P/scope: the phase's names and whether the caller sees it whole (staff) or marks in it. */
export const getReviewScope = (ids: PhaseIds) => api<ReviewScope>(`${reviewPhasePath(ids)}/scope`);

export const useReviewScope = (ids: PhaseIds) =>
  useQuery({
    queryKey: [...reviewPhaseKey(ids.phaseId), 'scope'],
    queryFn: () => getReviewScope(ids),
    retry: false,
  });
