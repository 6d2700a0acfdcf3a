import { useQueries } from '@tanstack/react-query';
import { apiBlob } from '../../api/client.js';

export const fileKey = (fileId: string) => ['files', fileId] as const;

/** GET /resource-mgmt/files/{id}: a stored image, fetched with the user's credentials. */
export const getFile = (fileId: string) =>
  apiBlob(`/resource-mgmt/files/${encodeURIComponent(fileId)}`);

/**
 * Object URLs of stored images, by id (missing while loading or when refused). An `<img>`
 * cannot send the bearer token, so statements show the bytes fetched here. The URLs live as
 * long as the page: the same image is shown again and again (list, dialog, preview).
 */
export function useFileUrls(fileIds: readonly string[]): Record<string, string | undefined> {
  const results = useQueries({
    queries: fileIds.map((id) => ({
      queryKey: fileKey(id),
      queryFn: async () => URL.createObjectURL(await getFile(id)),
      staleTime: Number.POSITIVE_INFINITY,
      gcTime: Number.POSITIVE_INFINITY,
    })),
  });
  const urls: Record<string, string | undefined> = {};
  fileIds.forEach((id, i) => {
    urls[id] = results[i]?.data;
  });
  return urls;
}
