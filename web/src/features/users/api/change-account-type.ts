import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { User } from '../../../../../shared/schemas/users.js';
import { api } from '../../../api/client.js';
import { STUDENTS_KEY } from './get-students.js';
import { TEACHERS_KEY } from './get-teachers.js';

/**
 * PUT /user-mgmt/users/{email}/type (admins): makes a student account a teacher one or the
 * other way round; 409 USER_HAS_RESULTS once it has enrolments, roles or students.
 */
export const changeAccountType = ({
  email,
  type,
}: {
  email: string;
  type: 'student' | 'teacher';
}) =>
  api<User>(`/user-mgmt/users/${encodeURIComponent(email)}/type`, {
    method: 'PUT',
    body: { type },
  });

export function useChangeAccountType() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: changeAccountType,
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: STUDENTS_KEY });
      await queryClient.invalidateQueries({ queryKey: TEACHERS_KEY });
    },
  });
}
