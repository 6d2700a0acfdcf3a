import { useMutation } from '@tanstack/react-query';
import { apiBlob } from '../../../api/client.js';
import type { Where } from '../../../components/list/where.js';

export type DownloadFilter = { where?: Where; order?: string };

/** GET /user-mgmt/students/downloads?filter=…: the active students as a spreadsheet. */
export const downloadStudents = (filter: DownloadFilter) =>
  apiBlob('/user-mgmt/students/downloads', { query: { filter } });

export const useDownloadStudents = () => useMutation({ mutationFn: downloadStudents });
