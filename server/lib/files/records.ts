import { inArray } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { files } from './files.schema.js';

export type FileRecord = typeof files.$inferSelect;
export type NewFileRecord = typeof files.$inferInsert;

/**
 * Records stored files' metadata (the bytes are in the file storage already), in the caller's
 * transaction: the one writer of the `files` table, for every module that stores a file.
 */
export async function insertFileRecords(db: Db, rows: NewFileRecord[]): Promise<FileRecord[]> {
  if (rows.length === 0) return [];
  return db.insert(files).values(rows).returning();
}

/**
 * Removes files' records in the caller's transaction and returns their storage keys, whose
 * bytes the caller deletes after the commit (anonymising a person removes their pages).
 */
export async function deleteFileRecords(db: Db, ids: readonly string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const gone = await db
    .delete(files)
    .where(inArray(files.id, [...ids]))
    .returning({ storageKey: files.storageKey });
  return gone.map((g) => g.storageKey);
}
