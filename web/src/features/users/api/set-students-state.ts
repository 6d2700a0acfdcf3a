import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { StateFailure, StudentsStateBody } from '../../../../../shared/schemas/people.js';
import { api } from '../../../api/client.js';
import { STUDENTS_KEY } from './get-students.js';

/**
 * POST /user-mgmt/students/state: activates or inactivates students; answers the failures
 * (SPEC.md §4: success means an empty list).
 */
export const setStudentsState = (body: StudentsStateBody) =>
  api<StateFailure[]>('/user-mgmt/students/state', { method: 'POST', body });

export function useSetStudentsState() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setStudentsState,
    onSettled: () => queryClient.invalidateQueries({ queryKey: STUDENTS_KEY }),
  });
}
