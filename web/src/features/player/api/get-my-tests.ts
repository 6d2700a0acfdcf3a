import { useQuery } from '@tanstack/react-query';
import type { MyTest } from '../../../../../shared/schemas/player.js';
import { api } from '../../../api/client.js';
import { MY_TESTS_PATH, PLAYER_KEY } from './keys.js';

export const MY_TESTS_KEY = [...PLAYER_KEY, 'mytests'] as const;

/** GET /test-player/mytests: the student's tests with their state, timer and score. */
export const getMyTests = () => api<MyTest[]>(MY_TESTS_PATH);

/** Refreshed every 30 s: a test opens, an attempt ends, a result appears while it is open. */
export const useMyTests = () =>
  useQuery({ queryKey: MY_TESTS_KEY, queryFn: getMyTests, staleTime: 0, refetchInterval: 30_000 });
