import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { NodePgDatabase } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgliteDatabase } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { type Database, openDatabase } from './client.js';
import { DEFAULT_STATEMENT_TIMEOUTS, withStatementTimeout } from './statement-timeout.js';

export const migrationsFolder = path.join(
  path.dirname(fileURLToPath(import.meta.url)),
  'migrations',
);

// Any constant works; every instance uses the same one so only one migrates at a time.
const MIGRATION_LOCK = 727_001;

/**
 * Applies the versioned SQL migrations; safe when several instances start together. Behind a
 * transaction pooler they run on PostgreSQL itself (the lock is a session's), which then also
 * takes `examDayMs` as the role's default statement limit in this database: the pooler's
 * connections are not Podium's to start with a limit (statement-timeout.ts).
 */
export async function migrate(
  database: Database,
  examDayMs = DEFAULT_STATEMENT_TIMEOUTS.examDayMs,
): Promise<void> {
  if (database.directUrl !== undefined) {
    const direct = await openDatabase({
      databaseUrl: database.directUrl,
      poolSize: 2,
      statementTimeoutMs: 0,
    });
    try {
      await migrate(direct);
      await direct.exec(roleStatementTimeout(examDayMs));
    } finally {
      await direct.close();
    }
    return;
  }
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

/** The connecting role's default `statement_timeout` in the current database, in ms. */
export function roleStatementTimeout(ms: number): string {
  if (!Number.isSafeInteger(ms) || ms < 0) throw new Error(`bad statement timeout ${ms}`);
  return `do $$ begin
    execute format('alter role current_user in database %I set statement_timeout = ${ms}',
      current_database());
  end $$`;
}

/**
 * Behind a transaction pooler: undefined when a statement through it runs under `examDayMs`,
 * else what it runs under. The pooler's server connections opened before the role's default
 * changed keep the old one until they are replaced (PgBouncer: `RECONNECT`, or
 * `server_lifetime`).
 */
export async function poolerStatementTimeout(
  database: Database,
  examDayMs: number,
): Promise<string | undefined> {
  if (database.directUrl === undefined || !database.pool) return undefined;
  const { rows } = await database.pool.query<{ setting: string }>(
    `select setting from pg_settings where name = 'statement_timeout'`,
  );
  const setting = rows[0]?.setting ?? '';
  return setting === String(examDayMs) ? undefined : `${setting} ms`;
}
