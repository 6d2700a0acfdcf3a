import { useQuery } from '@tanstack/react-query';
import { apiBlob } from '../../../api/client.js';
import type { PhaseIds } from '../../../components/phase/get-phase-context.js';
import type { EntryKind } from '../paths.js';
import { entryPath } from './paths.js';

/** GET P/reviews/{reviewId}/answer (or appeals): every page as `response_{code}.zip`. */
export const getAnswerZip = (ids: PhaseIds, kind: EntryKind, reviewId: string) =>
  apiBlob(`${entryPath(ids, kind, reviewId)}/answer`);

/** GET P/reviews/{reviewId}/files/{fileId}: a page of the answer, or a statement image. */
export const getEntryFile = (ids: PhaseIds, kind: EntryKind, reviewId: string, fileId: string) =>
  apiBlob(`${entryPath(ids, kind, reviewId)}/files/${encodeURIComponent(fileId)}`);

/**
 * An object URL of one page (an `<img>` cannot send the bearer token). A file's bytes never
 * change, so the URL is kept for the page's life.
 */
export const useEntryFileUrl = (
  ids: PhaseIds,
  kind: EntryKind,
  reviewId: string,
  fileId: string | null,
) =>
  useQuery({
    queryKey: ['reviews', 'file', kind, reviewId, fileId],
    queryFn: async () => URL.createObjectURL(await getEntryFile(ids, kind, reviewId, fileId ?? '')),
    enabled: fileId !== null,
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: Number.POSITIVE_INFINITY,
  });
