import { useQuery } from '@tanstack/react-query';
import type { HistoryEvent } from '../../../../../shared/schemas/reviews.js';
import { api } from '../../../api/client.js';
import type { PhaseIds } from '../../../components/phase/get-phase-context.js';
import type { EntryKind } from '../paths.js';
import { entryKey, entryPath } from './paths.js';

/** GET P/reviews/{reviewId}/history (or appeals): the entry's audit trail, oldest first. */
export const getHistory = (ids: PhaseIds, kind: EntryKind, reviewId: string) =>
  api<HistoryEvent[]>(`${entryPath(ids, kind, reviewId)}/history`);

export const useHistory = (ids: PhaseIds, kind: EntryKind, reviewId: string, enabled: boolean) =>
  useQuery({
    queryKey: [...entryKey(ids.phaseId, kind, reviewId), 'history'],
    queryFn: () => getHistory(ids, kind, reviewId),
    enabled,
  });
