import { useQuery } from '@tanstack/react-query';
import type { ExternalRegistration } from '../../../../../shared/schemas/exams.js';
import { api } from '../../../api/client.js';
import { EXAMS_KEY } from './keys.js';

export const MY_REGISTRATIONS_KEY = [...EXAMS_KEY, 'my-registrations'] as const;

/** GET /exam-mgmt/external-registrations: the editions the student is enrolled in. */
export const getMyRegistrations = () =>
  api<ExternalRegistration[]>('/exam-mgmt/external-registrations');

export const useMyRegistrations = () =>
  useQuery({ queryKey: MY_REGISTRATIONS_KEY, queryFn: getMyRegistrations });
