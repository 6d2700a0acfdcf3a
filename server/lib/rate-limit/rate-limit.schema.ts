import { integer, pgTable, text } from 'drizzle-orm/pg-core';
import { tz } from '../../db/columns.js';

/**
 * Requests counted per key (a route and a client address) in a fixed window, for the routes
 * whose limit holds across every server process (`server/lib/rate-limit/store.ts`).
 */
export const rateLimitHits = pgTable('rate_limit_hits', {
  key: text('key').primaryKey(),
  windowStart: tz('window_start').notNull(),
  hits: integer('hits').notNull(),
});
