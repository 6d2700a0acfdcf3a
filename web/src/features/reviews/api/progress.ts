import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  ReassignInput,
  ReassignResult,
  ReminderInput,
  ReminderResult,
  ReviewProgress,
} from '../../../../../shared/schemas/reviews.js';
import type { Test } from '../../../../../shared/schemas/tests.js';
import { api } from '../../../api/client.js';
import type { PhaseIds } from '../../../components/phase/get-phase-context.js';
import { progressKey, reviewPhaseKey, reviewPhasePath } from './paths.js';

/** GET P/progress: per question and per reviewer, how far marking has come (staff). */
export const getProgress = (ids: PhaseIds) =>
  api<ReviewProgress>(`${reviewPhasePath(ids)}/progress`);

export const useProgress = (ids: PhaseIds) =>
  useQuery({ queryKey: progressKey(ids.phaseId), queryFn: () => getProgress(ids) });

/** POST P/reminders: mails reviewers with open work (all of them, or those named). */
export const sendReminders = (ids: PhaseIds, body: ReminderInput) =>
  api<ReminderResult>(`${reviewPhasePath(ids)}/reminders`, { method: 'POST', body });

export const useSendReminders = (ids: PhaseIds) =>
  useMutation({ mutationFn: (body: ReminderInput) => sendReminders(ids, body) });

/** POST P/reassignments: a reviewer's open marks go to the question's other reviewers. */
export const reassign = (ids: PhaseIds, body: ReassignInput) =>
  api<ReassignResult>(`${reviewPhasePath(ids)}/reassignments`, { method: 'POST', body });

export function useReassign(ids: PhaseIds) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ReassignInput) => reassign(ids, body),
    onSettled: () => queryClient.invalidateQueries({ queryKey: reviewPhaseKey(ids.phaseId) }),
  });
}

/** GET /test-mgmt/…/tests: the phase's tests, to name each question's test in the progress. */
export const getPhaseTests = (ids: PhaseIds) =>
  api<Test[]>(
    `/test-mgmt/exams/${encodeURIComponent(ids.examId)}/editions/${encodeURIComponent(ids.editionId)}/phases/${encodeURIComponent(ids.phaseId)}/tests`,
  );

export const usePhaseTests = (ids: PhaseIds) =>
  useQuery({
    queryKey: [...reviewPhaseKey(ids.phaseId), 'tests'],
    queryFn: () => getPhaseTests(ids),
  });
