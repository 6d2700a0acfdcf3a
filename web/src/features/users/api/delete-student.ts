import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../api/client.js';
import { STUDENTS_KEY } from './get-students.js';

/** DELETE /user-mgmt/students/{id}; 409 USER_HAS_RESULTS when results must be kept. */
export const deleteStudent = (id: string) =>
  api<void>(`/user-mgmt/students/${encodeURIComponent(id)}`, { method: 'DELETE' });

export function useDeleteStudent() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteStudent,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: STUDENTS_KEY }),
  });
}
