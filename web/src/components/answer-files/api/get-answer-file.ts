import { useQuery } from '@tanstack/react-query';
import { apiBlob } from '../../../api/client.js';
import { type TestIds, uploadTestPath } from '../paths.js';

const filesPath = (ids: TestIds, answerId: string) =>
  `${uploadTestPath(ids)}/answers/${encodeURIComponent(answerId)}/files`;

/** GET …/answers/{answerId}/files?fileId=…: one page of an answer. */
export const getAnswerFile = (ids: TestIds, answerId: string, fileId: string) =>
  apiBlob(filesPath(ids, answerId), { query: { fileId } });

/** GET …/answers/{answerId}/files: every page as response_{answerId}.zip. */
export const getAnswerZip = (ids: TestIds, answerId: string) => apiBlob(filesPath(ids, answerId));

/**
 * An object URL of one page, for thumbnails and the preview (an `<img>` cannot send the
 * bearer token). A file id never changes its bytes, so the URL is kept for the page's life.
 */
export function useAnswerFileUrl(ids: TestIds, answerId: string, fileId: string, enabled = true) {
  return useQuery({
    queryKey: ['uploads', 'file', answerId, fileId],
    queryFn: async () => URL.createObjectURL(await getAnswerFile(ids, answerId, fileId)),
    enabled,
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: Number.POSITIVE_INFINITY,
  });
}
