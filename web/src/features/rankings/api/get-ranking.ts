import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { Count } from '../../../../../shared/schemas/exams.js';
import type { RankingRow, RankingSummary } from '../../../../../shared/schemas/rankings.js';
import { api } from '../../../api/client.js';
import type { ListFilter } from '../../../components/list/use-paged-list.js';
import type { Where } from '../../../components/list/where.js';
import type { PhaseIds } from '../../../components/phase/get-phase-context.js';
import { rankingKey, rankingPhasePath } from './keys.js';

/**
 * GET …/rankings?filter=: a page (whole rows: no `fields` is ever sent) of the phase's ranking. Without a `studentGrade` condition
 * the server keeps the exam's first grade; `''` means every grade (SPEC.md §5).
 */
export const useRanking = (ids: PhaseIds, filter: ListFilter, enabled = true) =>
  useQuery({
    queryKey: [...rankingKey(ids), 'list', filter],
    queryFn: () => api<RankingRow[]>(`${rankingPhasePath(ids)}/rankings`, { query: { filter } }),
    placeholderData: keepPreviousData,
    enabled,
  });

/** GET …/rankings/count?where=: how many rows the same conditions match. */
export const useRankingCount = (ids: PhaseIds, where: Where | undefined, enabled = true) =>
  useQuery({
    queryKey: [...rankingKey(ids), 'count', where ?? null],
    queryFn: () => api<Count>(`${rankingPhasePath(ids)}/rankings/count`, { query: { where } }),
    select: (answer) => answer.count,
    placeholderData: keepPreviousData,
    enabled,
  });

/** How often a ranking being updated in the background is asked about again. */
const UPDATING_POLL_MS = 5000;

/**
 * GET …/rankings/summary: awaiting marking, provisional or final, and the size per grade;
 * asked again every few seconds while the ranking is being updated in the background.
 */
export const useRankingSummary = (ids: PhaseIds) =>
  useQuery({
    queryKey: [...rankingKey(ids), 'summary'],
    queryFn: () => api<RankingSummary>(`${rankingPhasePath(ids)}/rankings/summary`),
    refetchInterval: (query) => (query.state.data?.updating ? UPDATING_POLL_MS : false),
  });
