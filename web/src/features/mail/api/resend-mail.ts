import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { OutboxMail } from '../../../../../shared/schemas/mail.js';
import { api } from '../../../api/client.js';
import { OUTBOX_KEY } from './get-outbox.js';

/** POST /mail-service/outbox/{id}/resend: queues the mail again (a fresh link if it has one). */
export const resendMail = (id: string) =>
  api<OutboxMail>(`/mail-service/outbox/${id}/resend`, { method: 'POST' });

export function useResendMail() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: resendMail,
    onSettled: () => queryClient.invalidateQueries({ queryKey: OUTBOX_KEY }),
  });
}
