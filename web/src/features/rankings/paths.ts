import type { PhaseIds } from '../../components/phase/get-phase-context.js';

/** The screens of this feature under a phase, and the phase page they return to. */
export const phasePagePath = (ids: PhaseIds) =>
  `/examene/${ids.examId}/editii/${ids.editionId}/phases/${ids.phaseId}`;
export const rankingPagePath = (ids: PhaseIds) => `${phasePagePath(ids)}/clasament`;
export const rulesPagePath = (ids: PhaseIds) => `${phasePagePath(ids)}/reguli`;
/** A student's view of a phase's published ranking (reached from My tests). */
export const publishedRankingPath = (ids: PhaseIds) =>
  `/tests/clasament/${ids.examId}/${ids.editionId}/${ids.phaseId}`;
