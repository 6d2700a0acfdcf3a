import type { PhaseIds } from '../../../components/phase/get-phase-context.js';

/**
 * Query-key roots and API paths of the ranking screens. Keys nest under the phase the
 * competition screens use (['exams', 'exam', …, 'phase', phaseId]), so closing a phase there
 * refreshes its ranking here too.
 */
export const RANKINGS_PATH = '/ranking-service';
const enc = encodeURIComponent;

export const rankingPhasePath = ({ examId, editionId, phaseId }: PhaseIds) =>
  `${RANKINGS_PATH}/exams/${enc(examId)}/editions/${enc(editionId)}/phases/${enc(phaseId)}`;

export const rankingPhaseKey = (ids: PhaseIds) =>
  ['exams', 'exam', ids.examId, 'edition', ids.editionId, 'phase', ids.phaseId] as const;
export const rankingKey = (ids: PhaseIds) => [...rankingPhaseKey(ids), 'ranking'] as const;
export const rulesKey = (ids: PhaseIds) => [...rankingPhaseKey(ids), 'rules'] as const;
export const MY_RANKINGS_KEY = ['my-rankings'] as const;
export const RULE_PRESETS_KEY = ['rule-presets'] as const;
