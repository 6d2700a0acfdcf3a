import { sql } from 'drizzle-orm';
import { index, jsonb, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt, tz } from '../../db/columns.js';
import { users } from '../users/users.schema.js';

/**
 * What the bell in the top bar lists for one person: written with the mail of the same event
 * (in its transaction) or by the event itself when it sends no mail (an enrolment, a phase's
 * results published, marking assigned, a test about to open). `params` are names the screen
 * shows (a test's, a phase's), never another person's; `link` is a path inside the app.
 * `dedupeKey` keeps one row per event that could be noticed twice (a test opening soon).
 */
export const notifications = pgTable(
  'notifications',
  {
    id: uuid('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    params: jsonb('params').$type<Record<string, string>>().notNull().default({}),
    link: text('link'),
    dedupeKey: text('dedupe_key'),
    createdAt: createdAt(),
    readAt: tz('read_at'),
  },
  (t) => [
    index('notifications_user_idx').on(t.userId, t.createdAt),
    index('notifications_unread_idx').on(t.userId).where(sql`${t.readAt} is null`),
    uniqueIndex('notifications_dedupe_key').on(t.userId, t.dedupeKey),
  ],
);
