import { useQuery } from '@tanstack/react-query';
import type { Exam } from '../../../../../shared/schemas/exams.js';
import { api } from '../../../api/client.js';
import { examKey, examPath } from './keys.js';

export const examDetailKey = (examId: string) => [...examKey(examId), 'detail'] as const;

/** GET /exam-mgmt/exams/{examId}: the competition, with the caller's role on it. */
export const getExam = (examId: string) => api<Exam>(examPath(examId));

export const useExam = (examId: string) =>
  useQuery({ queryKey: examDetailKey(examId), queryFn: () => getExam(examId) });
