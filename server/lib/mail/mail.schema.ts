import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { createdAt, tz } from '../../db/columns.js';
import { users } from '../../modules/users/users.schema.js';

/**
 * Mail waiting to be sent, sent, or given up on: written in the transaction of what caused it
 * and sent by the mail worker of any instance (rows claimed with SKIP LOCKED). Rows hold no
 * secret: a mail's one-time link is made when it is sent. `userId` is unset for a
 * password-reset request whose address the worker resolves (an unknown one sends nothing).
 */
export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: uuid('id').primaryKey(),
    template: text('template').notNull(),
    toAddress: text('to_address').notNull(),
    userId: uuid('user_id').references(() => users.id),
    locale: text('locale'),
    params: jsonb('params').$type<Record<string, string>>().notNull().default({}),
    state: text('state', {
      enum: ['queued', 'sending', 'retrying', 'sent', 'failed', 'limited'],
    }).notNull(),
    attempts: integer('attempts').notNull().default(0),
    /** When a worker may take it next (while sending: when its claim lapses). */
    nextAttemptAt: tz('next_attempt_at').notNull(),
    lastError: text('last_error'),
    createdAt: createdAt(),
    updatedAt: tz('updated_at').notNull().defaultNow(),
    sentAt: tz('sent_at'),
  },
  (t) => [
    index('mail_outbox_due_idx')
      .on(t.nextAttemptAt)
      .where(sql`${t.state} in ('queued', 'sending', 'retrying')`),
    index('mail_outbox_recipient_idx').on(t.toAddress, t.createdAt),
    index('mail_outbox_created_idx').on(t.createdAt, t.id),
  ],
);
