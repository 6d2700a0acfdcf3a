import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { NodePgDatabase } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgliteDatabase } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import type { Database } from './client.js';
import { withStatementTimeout } from './statement-timeout.js';

export const migrationsFolder = path.join(
  path.dirname(fileURLToPath(import.meta.url)),
  'migrations',
);

// Any constant works; every instance uses the same one so only one migrates at a time.
const MIGRATION_LOCK = 727_001;

/** Applies the versioned SQL migrations; safe when several instances start together. */
export async function migrate(database: Database): Promise<void> {
  if (database.kind === 'pglite') {
    await migratePglite(database.db as unknown as PgliteDatabase, { migrationsFolder });
    return;
  }
  const pool = database.pool;
  if (!pool) throw new Error('PostgreSQL database without a pool');
  // No limit: waiting for another instance's migration, or building an index on a big table,
  // may take longer than any request's statement may.
  await withStatementTimeout(0, () => migrateLocked(database, pool));
}

async function migrateLocked(database: Database, pool: NonNullable<Database['pool']>) {
  const lock = await pool.connect();
  try {
    await lock.query('select pg_advisory_lock($1)', [MIGRATION_LOCK]);
    await migratePg(database.db as unknown as NodePgDatabase, { migrationsFolder });
  } finally {
    await lock.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => {});
    lock.release();
  }
}
