import { useQuery } from '@tanstack/react-query';
import type { MarkerPhase, ReviewScope } from '../../../../../shared/schemas/reviews.js';
import { api } from '../../../api/client.js';
import type { PhaseIds } from '../../../components/phase/get-phase-context.js';
import { reviewPhaseKey, reviewPhasePath } from './paths.js';

/** Under the marking root, so that a mark saved anywhere refreshes the open counts too. */
export const myPhasesKey = ['reviews', 'my-phases'] as const;

/** GET /test-review/my-phases: where the signed-in teacher marks or mediates, with open work. */
export const getMyPhases = () => api<MarkerPhase[]>('/test-review/my-phases');

/** The teacher's marking phases; `enabled` false for those who cannot mark (students, guests). */
export const useMyPhases = (enabled = true) =>
  useQuery({ queryKey: myPhasesKey, queryFn: getMyPhases, enabled, staleTime: 60_000 });

/** GET P/scope: the phase's names and whether the caller sees it whole (staff) or marks in it. */
export const getReviewScope = (ids: PhaseIds) => api<ReviewScope>(`${reviewPhasePath(ids)}/scope`);

export const useReviewScope = (ids: PhaseIds) =>
  useQuery({
    queryKey: [...reviewPhaseKey(ids.phaseId), 'scope'],
    queryFn: () => getReviewScope(ids),
    retry: false,
  });

/**
 * Whether the signed-in user marks anywhere, and how much waits for them: the menu shows
 * "To mark" to teachers (and admins) who do. Asked only for those who may mark.
 */
export function useMarkerWork(canMark: boolean) {
  const phases = useMyPhases(canMark).data ?? [];
  const waiting = phases
    .filter((p) => p.reviewStarted)
    .reduce(
      (n, p) => n + p.open.reviews + p.open.mediations + p.open.appeals + p.open.appealMediations,
      0,
    );
  return { marks: canMark && phases.length > 0, waiting };
}
