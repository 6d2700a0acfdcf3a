import { useQuery } from '@tanstack/react-query';
import type { Edition, Exam, Phase } from '../../../../shared/schemas/exams.js';
import { api } from '../../api/client.js';

/** The three ids of every screen under a phase. */
export type PhaseIds = { examId: string; editionId: string; phaseId: string };

const enc = encodeURIComponent;
export const examPath = (examId: string) => `/exam-mgmt/exams/${enc(examId)}`;
export const editionPath = (ids: Omit<PhaseIds, 'phaseId'>) =>
  `${examPath(ids.examId)}/editions/${enc(ids.editionId)}`;
export const phasePath = (ids: PhaseIds) => `${editionPath(ids)}/phases/${enc(ids.phaseId)}`;

// The same keys as the competition screens (features/exams/api/keys.ts), so both share the
// cache and an invalidation there (phase edited, closed) refreshes these screens too.
export const examDetailKey = (examId: string) => ['exams', 'exam', examId, 'detail'] as const;
export const editionDetailKey = (ids: Omit<PhaseIds, 'phaseId'>) =>
  ['exams', 'exam', ids.examId, 'edition', ids.editionId, 'detail'] as const;
export const phaseKey = (ids: PhaseIds) =>
  ['exams', 'exam', ids.examId, 'edition', ids.editionId, 'phase', ids.phaseId] as const;
export const phaseDetailKey = (ids: PhaseIds) => [...phaseKey(ids), 'detail'] as const;

export type PhaseContext = { exam: Exam; edition: Edition; phase: Phase };

/**
 * GET /exam-mgmt/exams/{examId}, …/editions/{editionId} and …/phases/{phaseId}: what a
 * phase's question and test screens show in their header and offer by default (the
 * competition's subject and grades, the phase's dates, the caller's role).
 */
export function usePhaseContext(ids: PhaseIds) {
  const exam = useQuery({
    queryKey: examDetailKey(ids.examId),
    queryFn: () => api<Exam>(examPath(ids.examId)),
  });
  const edition = useQuery({
    queryKey: editionDetailKey(ids),
    queryFn: () => api<Edition>(editionPath(ids)),
  });
  const phase = useQuery({
    queryKey: phaseDetailKey(ids),
    queryFn: () => api<Phase>(phasePath(ids)),
  });
  const data: PhaseContext | undefined =
    exam.data && edition.data && phase.data
      ? { exam: exam.data, edition: edition.data, phase: phase.data }
      : undefined;
  return { data, error: exam.error ?? edition.error ?? phase.error };
}

/** Managers (platform admins, the competition's admin teachers) change the bank and tests. */
export const canManagePhaseContent = (exam: Pick<Exam, 'myRole'>) =>
  exam.myRole === 'admin' || exam.myRole === 'examAdmin';
