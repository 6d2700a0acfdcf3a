/**
 * Query-key roots and API paths of the exam-mgmt screens. Keys nest like the resources
 * (exam → edition → phase), so invalidating a parent refreshes everything under it.
 */
export const EXAMS_KEY = ['exams'] as const;
export const examKey = (examId: string) => [...EXAMS_KEY, 'exam', examId] as const;
export const editionKey = (examId: string, editionId: string) =>
  [...examKey(examId), 'edition', editionId] as const;
export const phaseKey = (examId: string, editionId: string, phaseId: string) =>
  [...editionKey(examId, editionId), 'phase', phaseId] as const;

export const EXAMS_PATH = '/exam-mgmt/exams';
export const examPath = (examId: string) => `${EXAMS_PATH}/${encodeURIComponent(examId)}`;
export const editionPath = (examId: string, editionId: string) =>
  `${examPath(examId)}/editions/${encodeURIComponent(editionId)}`;
export const phasePath = (examId: string, editionId: string, phaseId: string) =>
  `${editionPath(examId, editionId)}/phases/${encodeURIComponent(phaseId)}`;

/** The three ids of a phase page. */
export type PhaseIds = { examId: string; editionId: string; phaseId: string };
/** The two ids of an edition page. */
export type EditionIds = { examId: string; editionId: string };
