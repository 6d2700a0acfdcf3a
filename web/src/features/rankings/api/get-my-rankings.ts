import { useQuery } from '@tanstack/react-query';
import type { MyRanking } from '../../../../../shared/schemas/rankings.js';
import { api } from '../../../api/client.js';
import { MY_RANKINGS_KEY, RANKINGS_PATH } from './keys.js';

/** GET /ranking-service/my-rankings: the student's own rank in every phase with a result. */
export const useMyRankings = () =>
  useQuery({
    queryKey: MY_RANKINGS_KEY,
    queryFn: () => api<MyRanking[]>(`${RANKINGS_PATH}/my-rankings`),
    staleTime: 0,
  });
