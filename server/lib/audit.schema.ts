import { sql } from 'drizzle-orm';
import { index, jsonb, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { tz } from '../db/columns.js';

/**
 * Append-only record of changes that matter (scores, states, deletions). A trigger in the
 * migrations refuses UPDATE and DELETE on it.
 */
export const auditEvents = pgTable(
  'audit_events',
  {
    id: uuid('id').primaryKey(),
    actorId: uuid('actor_id'),
    action: text('action').notNull(),
    entityType: text('entity_type').notNull(),
    entityId: text('entity_id').notNull(),
    before: jsonb('before'),
    after: jsonb('after'),
    reason: text('reason'),
    at: tz('at').notNull().default(sql`now()`),
  },
  (t) => [index('audit_events_entity_idx').on(t.entityType, t.entityId, t.at)],
);
