import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { User } from '../../../../../shared/schemas/users.js';
import { api } from '../../../api/client.js';
import { STUDENTS_KEY } from './get-students.js';

/**
 * PATCH /user-mgmt/users/{id} with only `bucharestSector` (admins may change anyone's
 * profile): sets a Bucharest student's sector, which the sectors rule needs to place them.
 */
export const setSector = ({ id, sector }: { id: string; sector: number }) =>
  api<User>(`/user-mgmt/users/${encodeURIComponent(id)}`, {
    method: 'PATCH',
    body: { bucharestSector: sector },
  });

export function useSetSector() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setSector,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: STUDENTS_KEY }),
  });
}
