import type { PhaseIds } from '../../../components/phase/get-phase-context.js';

/**
 * Query keys and paths of the question bank (resource-mgmt). Keys nest like the resources, so
 * invalidating a phase's bank refreshes its list, counts and single questions together.
 */
export const QUESTIONS_KEY = ['questions'] as const;
export const bankKey = ({ examId, editionId, phaseId }: PhaseIds) =>
  [...QUESTIONS_KEY, examId, editionId, phaseId] as const;

const enc = encodeURIComponent;
export const itemsPath = ({ examId, editionId, phaseId }: PhaseIds) =>
  `/resource-mgmt/exams/${enc(examId)}/editions/${enc(editionId)}/phases/${enc(phaseId)}/items`;
export const questionPath = (ids: PhaseIds, questionId: string) =>
  `${itemsPath(ids)}/${enc(questionId)}`;

export type QuestionIds = PhaseIds & { questionId: string };
