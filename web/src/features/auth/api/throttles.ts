import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ThrottleView } from '../../../../../shared/schemas/auth.js';
import { api } from '../../../api/client.js';

const THROTTLES_KEY = ['auth', 'throttles'] as const;

/** GET /auth-service/auth/throttles (admins): sign-in failure counters, waits first. */
export const getThrottles = () => api<ThrottleView[]>('/auth-service/auth/throttles');

export const useThrottles = () =>
  useQuery({ queryKey: THROTTLES_KEY, queryFn: getThrottles, refetchInterval: 30_000 });

/** DELETE /auth-service/auth/throttles/{id}: clears one counter (audited). */
export const clearThrottle = (id: string) =>
  api<{ ok: true }>(`/auth-service/auth/throttles/${encodeURIComponent(id)}`, {
    method: 'DELETE',
  });

export function useClearThrottle() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: clearThrottle,
    onSettled: () => queryClient.invalidateQueries({ queryKey: THROTTLES_KEY }),
  });
}
