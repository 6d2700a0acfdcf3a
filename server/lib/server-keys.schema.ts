import { pgTable, text } from 'drizzle-orm/pg-core';
import { createdAt } from '../db/columns.js';

/**
 * Random keys the server draws once and every process shares (server/lib/server-keys.ts):
 * one row per use, never shown to anyone.
 */
export const serverKeys = pgTable('server_keys', {
  name: text('name').primaryKey(),
  /** 32 random bytes, hex. */
  secret: text('secret').notNull(),
  createdAt: createdAt(),
});
