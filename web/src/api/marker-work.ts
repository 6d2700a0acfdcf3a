import { useQuery } from '@tanstack/react-query';
import type { AdminDecisionPhase, MarkerPhase } from '../../../shared/schemas/reviews.js';
import { api } from './client.js';

/**
 * Where the signed-in teacher marks: asked by the app frame (the menu's "To mark") and by the
 * marking screens. It lives here, not in features/reviews, so that the frame every student
 * loads does not pull the marking screens with it.
 */

/** Under the marking root, so that a mark saved anywhere refreshes the open counts too. */
export const myPhasesKey = ['reviews', 'my-phases'] as const;

/** GET /test-review/my-phases: where the signed-in teacher marks or mediates, with open work. */
export const getMyPhases = () => api<MarkerPhase[]>('/test-review/my-phases');

/** The teacher's marking phases; `enabled` false for those who cannot mark (students, guests). */
export const useMyPhases = (enabled = true) =>
  useQuery({ queryKey: myPhasesKey, queryFn: getMyPhases, enabled, staleTime: 60_000 });

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

/** Under the marking root, so that a decision saved anywhere refreshes the count too. */
export const adminDecisionsKey = ['reviews', 'admin-decisions'] as const;

/**
 * How many appeals wait for the signed-in user as an exam admin (GET
 * /test-review/admin-decisions): those short of re-markers, or whose mediator is barred, that
 * the rules let them decide. The menu shows it on "Competitions". Asked only for those who may
 * administer a competition (teachers and admins).
 */
export function useAdminDecisions(enabled: boolean) {
  const phases =
    useQuery({
      queryKey: adminDecisionsKey,
      queryFn: () => api<AdminDecisionPhase[]>('/test-review/admin-decisions'),
      enabled,
      staleTime: 60_000,
    }).data ?? [];
  return phases.reduce((n, p) => n + p.appeals, 0);
}
