import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { OutboxMail } from '../../../../../shared/schemas/mail.js';
import { api } from '../../../api/client.js';
import type { ListFilter } from '../../../components/list/use-paged-list.js';

export const OUTBOX_KEY = ['mail', 'outbox'] as const;

/** GET /mail-service/outbox?filter=…: the mails, newest first (admins only). */
export const getOutbox = (filter: ListFilter) =>
  api<OutboxMail[]>('/mail-service/outbox', { query: { filter } });

/** One page of mails, refreshed every 10 s while shown (states change as the worker runs). */
export const useOutbox = (filter: ListFilter) =>
  useQuery({
    queryKey: [...OUTBOX_KEY, 'list', filter],
    queryFn: () => getOutbox(filter),
    placeholderData: keepPreviousData,
    refetchInterval: 10_000,
  });
