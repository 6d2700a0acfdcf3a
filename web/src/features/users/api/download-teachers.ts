import { useMutation } from '@tanstack/react-query';
import { apiBlob } from '../../../api/client.js';
import type { DownloadFilter } from './download-students.js';

/** GET /user-mgmt/teachers/downloads?filter=…: the teachers as a spreadsheet. */
export const downloadTeachers = (filter: DownloadFilter) =>
  apiBlob('/user-mgmt/teachers/downloads', { query: { filter } });

export const useDownloadTeachers = () => useMutation({ mutationFn: downloadTeachers });
