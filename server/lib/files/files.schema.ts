import { index, integer, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { createdAt } from '../../db/columns.js';

/** Metadata of stored files; the bytes live in the file storage under `storageKey`. */
export const files = pgTable(
  'files',
  {
    id: uuid('id').primaryKey(),
    storageKey: text('storage_key').notNull(),
    mime: text('mime').notNull(),
    size: integer('size').notNull(),
    sha256: text('sha256').notNull(),
    ownerId: uuid('owner_id'),
    originalName: text('original_name'),
    /**
     * The version of the metadata stripping (strip.ts STRIP_VERSION) the stored bytes went
     * through; null for bytes stored as they came (pages from before stripping existed).
     */
    strippedVersion: integer('stripped_version'),
    createdAt: createdAt(),
  },
  (t) => [index('files_owner_idx').on(t.ownerId)],
);
