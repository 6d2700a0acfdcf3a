import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AccountSession, ChangePasswordInput } from '../../../../../shared/schemas/auth.js';
import { api } from '../../../api/client.js';

// The signed-in user's password and sessions (auth-service), one function per call.
const base = '/auth-service/auth';
export const SESSIONS_KEY = ['auth', 'sessions'] as const;

/** POST /auth/password/change: the other sessions end; how many did. */
export const changePassword = (body: ChangePasswordInput) =>
  api<{ ended: number }>(`${base}/password/change`, { method: 'POST', body });

/** GET /auth/sessions: the account's live sessions, this one marked. */
export const getSessions = () => api<AccountSession[]>(`${base}/sessions`);

export const useSessions = () => useQuery({ queryKey: SESSIONS_KEY, queryFn: getSessions });

/** DELETE /auth/sessions/:id, or every other one (`'others'`). */
export function useEndSessions() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (which: string) =>
      which === 'others'
        ? api<{ ended: number }>(`${base}/sessions/end-others`, { method: 'POST' })
        : api<{ ended: number }>(`${base}/sessions/${encodeURIComponent(which)}`, {
            method: 'DELETE',
          }),
    onSettled: () => client.invalidateQueries({ queryKey: SESSIONS_KEY }),
  });
}
