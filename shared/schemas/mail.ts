import { z } from 'zod';

export const MAIL_STATES = ['queued', 'sending', 'retrying', 'sent', 'failed', 'limited'] as const;
export type MailState = (typeof MAIL_STATES)[number];

/** One mail of the outbox as admins see it (no link: links are made when a mail is sent). */
export const outboxMailSchema = z.object({
  _id: z.string().uuid(),
  to: z.string(),
  template: z.string(),
  state: z.enum(MAIL_STATES),
  attempts: z.number().int().nonnegative(),
  lastError: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  sentAt: z.string().nullable(),
  nextAttemptAt: z.string().nullable(),
});
export type OutboxMail = z.infer<typeof outboxMailSchema>;

const filterText = () => z.string().max(100_000).optional();
/** GET /mail-service/outbox?filter=… */
export const outboxQuerySchema = z.object({ filter: filterText() }).strict();
/** GET /mail-service/outbox/count?where=… */
export const outboxCountQuerySchema = z.object({ where: filterText() }).strict();
