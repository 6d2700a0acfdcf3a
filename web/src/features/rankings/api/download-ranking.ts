import { useMutation } from '@tanstack/react-query';
import { apiBlob } from '../../../api/client.js';
import type { Where } from '../../../components/list/where.js';
import type { PhaseIds } from '../../../components/phase/get-phase-context.js';
import { rankingPhasePath } from './keys.js';

/**
 * GET …/rankings/download?filter=: every row the screen's conditions match, in its order, as
 * the server's `elevi.csv` (the server ignores limit and skip).
 */
export const useDownloadRanking = (ids: PhaseIds) =>
  useMutation({
    mutationFn: (filter: { order: string; where?: Where }) =>
      apiBlob(`${rankingPhasePath(ids)}/rankings/download`, { query: { filter } }),
  });
