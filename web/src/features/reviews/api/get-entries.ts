import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type {
  AppealCountWhere,
  AppealListFilter,
  ContestationEntry,
  ReviewCountWhere,
  ReviewEntry,
  ReviewListFilter,
} from '../../../../../shared/schemas/reviews.js';
import { api } from '../../../api/client.js';
import type { PhaseIds } from '../../../components/phase/get-phase-context.js';
import type { EntryKind } from '../paths.js';
import { entriesKey, entriesPath } from './paths.js';

export type EntryOf<K extends EntryKind> = K extends 'reviews' ? ReviewEntry : ContestationEntry;
/** A list's `filter` (appeal lists add the committee's type to the review lists' ones). */
export type EntryListFilter = ReviewListFilter | AppealListFilter;
export type EntryCountWhere = ReviewCountWhere | AppealCountWhere;

/** GET P/reviews?filter=… or P/appeals?filter=…: one page of a list type. */
export const getEntries = <K extends EntryKind>(ids: PhaseIds, kind: K, filter: EntryListFilter) =>
  api<EntryOf<K>[]>(entriesPath(ids, kind), { query: { filter } });

/** GET P/reviews/count?where=… (or appeals): `{ count }` of the same list. */
export const countEntries = <K extends EntryKind>(ids: PhaseIds, kind: K, where: EntryCountWhere) =>
  api<{ count: number }>(`${entriesPath(ids, kind)}/count`, { query: { where } });

export const useEntries = <K extends EntryKind>(
  ids: PhaseIds,
  kind: K,
  filter: EntryListFilter,
  enabled = true,
) =>
  useQuery({
    queryKey: [...entriesKey(ids.phaseId, kind), 'list', filter],
    queryFn: () => getEntries(ids, kind, filter),
    placeholderData: keepPreviousData,
    enabled,
  });

export const useEntryCount = <K extends EntryKind>(
  ids: PhaseIds,
  kind: K,
  where: EntryCountWhere,
) =>
  useQuery({
    queryKey: [...entriesKey(ids.phaseId, kind), 'count', where],
    queryFn: () => countEntries(ids, kind, where),
    select: (answer) => answer.count,
    placeholderData: keepPreviousData,
  });
