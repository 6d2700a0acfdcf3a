import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { StateFailure, TeachersStateBody } from '../../../../../shared/schemas/people.js';
import { api } from '../../../api/client.js';
import { TEACHERS_KEY } from './get-teachers.js';

/**
 * POST /user-mgmt/teachers/state: activates or inactivates teachers; answers the failures
 * (SPEC.md §4: success means an empty list).
 */
export const setTeachersState = (body: TeachersStateBody) =>
  api<StateFailure[]>('/user-mgmt/teachers/state', { method: 'POST', body });

export function useSetTeachersState() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setTeachersState,
    onSettled: () => queryClient.invalidateQueries({ queryKey: TEACHERS_KEY }),
  });
}
