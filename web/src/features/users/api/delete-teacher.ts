import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../api/client.js';
import { TEACHERS_KEY } from './get-teachers.js';

/** DELETE /user-mgmt/teachers/{id}; 409 USER_HAS_RESULTS when results must be kept. */
export const deleteTeacher = (id: string) =>
  api<void>(`/user-mgmt/teachers/${encodeURIComponent(id)}`, { method: 'DELETE' });

export function useDeleteTeacher() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteTeacher,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: TEACHERS_KEY }),
  });
}
