import { useQuery } from '@tanstack/react-query';
import type { CmsCredential } from '../../../../../shared/schemas/exams.js';
import { api } from '../../../api/client.js';
import { EXAMS_KEY } from './keys.js';

/** GET /exam-mgmt/cms-credentials: the student's own accounts on the programming judge. */
export const getCmsCredentials = () => api<CmsCredential[]>('/exam-mgmt/cms-credentials');

/** Fetched only while the dialog is open; never kept after it closes. */
export const useCmsCredentials = (enabled: boolean) =>
  useQuery({
    queryKey: [...EXAMS_KEY, 'cms-credentials'],
    queryFn: getCmsCredentials,
    enabled,
    gcTime: 0,
    retry: false,
  });
