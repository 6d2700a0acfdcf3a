import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { User } from '../../../../../shared/schemas/users.js';
import { api } from '../../../api/client.js';

/**
 * POST /user-mgmt/users/{id}/anonymise (admins): what a refused deletion offers instead —
 * personal data cleared, results kept.
 */
export const anonymiseUser = (id: string) =>
  api<User>(`/user-mgmt/users/${encodeURIComponent(id)}/anonymise`, { method: 'POST' });

export function useAnonymiseUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: anonymiseUser,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['people'] }),
  });
}
