import { useQueries } from '@tanstack/react-query';
import { apiBlob } from '../../../api/client.js';
import { cacheFile, readCachedFile } from '../lib/idb.js';
import { myTestPath, PLAYER_KEY } from './keys.js';

/** GET /test-player/mytests/{testId}/files/{fileId}: an image of the attempt's statements. */
export const getTestFile = (testId: string, fileId: string) =>
  apiBlob(`${myTestPath(testId)}/files/${encodeURIComponent(fileId)}`);

/**
 * Object URLs of the attempt's images, by id. Each image is kept on the device with the
 * attempt, so a reload without network still shows the statements whole.
 */
export function useTestFileUrls(
  testId: string,
  attemptKey: string,
  fileIds: readonly string[],
): Record<string, string | undefined> {
  const results = useQueries({
    queries: fileIds.map((fileId) => ({
      queryKey: [...PLAYER_KEY, 'file', testId, fileId],
      queryFn: async () => {
        const cached = await readCachedFile(attemptKey, fileId);
        if (cached) return URL.createObjectURL(cached);
        const blob = await getTestFile(testId, fileId);
        await cacheFile(attemptKey, fileId, blob);
        return URL.createObjectURL(blob);
      },
      staleTime: Number.POSITIVE_INFINITY,
      gcTime: Number.POSITIVE_INFINITY,
      retry: 5,
      retryDelay: (n: number) => Math.min(15_000, 1000 * 2 ** n),
    })),
  });
  const urls: Record<string, string | undefined> = {};
  fileIds.forEach((id, i) => {
    urls[id] = results[i]?.data;
  });
  return urls;
}
