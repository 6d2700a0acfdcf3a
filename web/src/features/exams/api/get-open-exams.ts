import { useQuery } from '@tanstack/react-query';
import type { OpenExam } from '../../../../../shared/schemas/exams.js';
import { api } from '../../../api/client.js';
import { EXAMS_KEY } from './keys.js';

export const OPEN_EXAMS_KEY = [...EXAMS_KEY, 'open'] as const;

/** GET /exam-mgmt/open-exams: editions taking sign-ups for the student's grade. */
export const getOpenExams = () => api<OpenExam[]>('/exam-mgmt/open-exams');

export const useOpenExams = () => useQuery({ queryKey: OPEN_EXAMS_KEY, queryFn: getOpenExams });
