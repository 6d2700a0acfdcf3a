import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { CountAnswer } from '../../../../../shared/schemas/people.js';
import { api } from '../../../api/client.js';
import type { Where } from '../../../components/list/where.js';
import { OUTBOX_KEY } from './get-outbox.js';

/** GET /mail-service/outbox/count?where=…: how many mails match (for the pager). */
export const countOutbox = (where: Where | undefined) =>
  api<CountAnswer>('/mail-service/outbox/count', { query: { where } });

export const useOutboxCount = (where: Where | undefined) =>
  useQuery({
    queryKey: [...OUTBOX_KEY, 'count', where ?? null],
    queryFn: () => countOutbox(where),
    select: (answer) => answer.count,
    placeholderData: keepPreviousData,
    refetchInterval: 10_000,
  });
