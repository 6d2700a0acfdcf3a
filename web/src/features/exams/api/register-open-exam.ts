import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../api/client.js';
import { MY_REGISTRATIONS_KEY } from './get-my-registrations.js';
import { OPEN_EXAMS_KEY } from './get-open-exams.js';

export type SignUpAction = 'register' | 'unregister';

/**
 * PUT /exam-mgmt/open-exams/{id}/register or /unregister: the student signs up for an open
 * edition or withdraws (only while its phase takes sign-ups).
 */
export const changeSignUp = (id: string, action: SignUpAction) =>
  api<unknown>(`/exam-mgmt/open-exams/${encodeURIComponent(id)}/${action}`, { method: 'PUT' });

export function useChangeSignUp() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, action }: { id: string; action: SignUpAction }) => changeSignUp(id, action),
    onSettled: async () => {
      await queryClient.invalidateQueries({ queryKey: OPEN_EXAMS_KEY });
      await queryClient.invalidateQueries({ queryKey: MY_REGISTRATIONS_KEY });
    },
  });
}
