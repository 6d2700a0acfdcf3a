import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { NotificationsPage } from '../../../shared/schemas/notifications.js';
import { api } from './client.js';

// The bell of the app frame (notification-service). It lives here, beside the frame's other
// calls, so that every screen's frame has it without loading a feature.
const base = '/notification-service/notifications';
export const NOTIFICATIONS_KEY = ['notifications'] as const;
/** How often an open app asks again (a score changed while the student watches). */
const REFRESH_MS = 60_000;

/** GET /notifications: the newest ones and how many are unread. */
export const getNotifications = () => api<NotificationsPage>(base);

export const useNotifications = (enabled: boolean) =>
  useQuery({
    queryKey: NOTIFICATIONS_KEY,
    queryFn: getNotifications,
    enabled,
    refetchInterval: REFRESH_MS,
    staleTime: 30_000,
  });

/** POST …/:id/read, or …/read-all with `'all'`. */
export function useMarkRead() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (which: string) =>
      api<{ marked: number }>(
        which === 'all' ? `${base}/read-all` : `${base}/${encodeURIComponent(which)}/read`,
        { method: 'POST' },
      ),
    onSettled: () => client.invalidateQueries({ queryKey: NOTIFICATIONS_KEY }),
  });
}
