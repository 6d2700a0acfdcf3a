import { useQuery } from '@tanstack/react-query';
import type { AppealDetail, ReviewDetail } from '../../../../../shared/schemas/reviews.js';
import { api } from '../../../api/client.js';
import type { PhaseIds } from '../../../components/phase/get-phase-context.js';
import type { EntryKind } from '../paths.js';
import { entryKey, entryPath } from './paths.js';

export type DetailOf<K extends EntryKind> = K extends 'reviews' ? ReviewDetail : AppealDetail;

/** GET P/reviews/{reviewId} (or appeals): the entry, the question, the answer, the rubric. */
export const getEntry = <K extends EntryKind>(ids: PhaseIds, kind: K, reviewId: string) =>
  api<DetailOf<K>>(entryPath(ids, kind, reviewId));

export const useEntry = <K extends EntryKind>(ids: PhaseIds, kind: K, reviewId: string) =>
  useQuery({
    queryKey: entryKey(ids.phaseId, kind, reviewId),
    queryFn: () => getEntry(ids, kind, reviewId),
  });
