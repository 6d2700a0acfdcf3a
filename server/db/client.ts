import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import type { ExtractTablesWithRelations } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import type pg from 'pg';
import * as schema from './schema.js';
import { BoundedPool, DEFAULT_STATEMENT_TIMEOUTS } from './statement-timeout.js';

export type Schema = typeof schema;
/** The database handle every repo takes; a transaction is one too. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
export type Tx = PgTransaction<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;

export type Database = {
  db: Db;
  kind: 'pg' | 'pglite';
  /** The PostgreSQL pool (absent on PGlite), for session-level locks. */
  pool?: pg.Pool;
  /**
   * Set when `pool` goes through a pooler in transaction mode (PgBouncer): PostgreSQL itself,
   * for what needs a session of its own (LISTEN, the migration lock).
   */
  directUrl?: string;
  /** Runs plain SQL (migrations, health checks, test setup). */
  exec(sqlText: string): Promise<void>;
  close(): Promise<void>;
};

export type DatabaseOptions = {
  databaseUrl?: string;
  /** PGlite data directory; `memory://` for a throwaway database. */
  pgliteDir?: string;
  poolSize?: number;
  /** Keeps every connection the pool opened (the server; tests let idle ones go). */
  keepConnections?: boolean;
  /** PostgreSQL: every connection's own statement limit (statement-timeout.ts, `examDay`). */
  statementTimeoutMs?: number;
  /**
   * `databaseUrl` is a pooler in transaction mode and this is PostgreSQL itself
   * (`DATABASE_DIRECT_URL`); absent: `databaseUrl` is PostgreSQL.
   */
  directUrl?: string;
};

/** The rows of a `db.execute` answer (node-postgres and PGlite both answer `{ rows }`). */
export const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;

const CONNECT_TIMEOUT_MS = 15_000;

/** PostgreSQL when a URL is given, else PGlite persisted under `pgliteDir`. */
export async function openDatabase(opts: DatabaseOptions): Promise<Database> {
  if (opts.databaseUrl) {
    const max = opts.poolSize ?? 20;
    const pool = new BoundedPool({
      connectionString: opts.databaseUrl,
      max,
      min: opts.keepConnections ? max : 0,
      idleTimeoutMillis: 30_000,
      // A database out of reach (no answer at all) must not hold requests until TCP gives up:
      // after this a request is refused as 503 DATABASE_UNAVAILABLE and may be sent again. It
      // also bounds a wait for a free connection, far above exam day's (milliseconds).
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
      statementTimeoutMs: opts.statementTimeoutMs ?? DEFAULT_STATEMENT_TIMEOUTS.examDayMs,
      transactionPooler: opts.directUrl !== undefined,
    });
    // A dropped idle connection must not crash the process; the pool replaces it.
    pool.on('error', () => {});
    // Nor one dropped while handed out (the database restarted under a transaction): pg-pool
    // listens only to idle ones. The caller's statement fails, and the pool drops it on release.
    pool.on('connect', (client) => client.on('error', () => {}));
    const db = drizzlePg(pool, { schema }) as unknown as Db;
    return {
      db,
      kind: 'pg',
      pool,
      ...(opts.directUrl === undefined ? {} : { directUrl: opts.directUrl }),
      exec: async (text) => {
        await pool.query(text);
      },
      close: () => pool.end(),
    };
  }
  const dir = opts.pgliteDir ?? 'memory://';
  if (!dir.startsWith('memory://')) mkdirSync(path.dirname(dir), { recursive: true });
  // pg_trgm backs the name search indexes, as on PostgreSQL.
  const client = await PGlite.create(dir, { extensions: { pg_trgm } });
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  return {
    db,
    kind: 'pglite',
    exec: async (text) => {
      await client.exec(text);
    },
    close: () => client.close(),
  };
}

/**
 * Opens every connection of the pool now and runs `warm` on each, so that a burst (exam day's
 * first second) finds backends started, catalogs read and hot statements planned instead of
 * paying for all of it at once. A connection that fails is skipped: the pool opens another
 * when needed.
 */
export async function warmPool(
  pool: pg.Pool,
  warm: (client: pg.PoolClient) => Promise<void>,
): Promise<number> {
  const size = pool.options.max ?? 10;
  const opened = await Promise.allSettled(Array.from({ length: size }, () => pool.connect()));
  const clients = opened.flatMap((o) => (o.status === 'fulfilled' ? [o.value] : []));
  await Promise.all(
    clients.map(async (client) => {
      try {
        await warm(client);
        client.release();
      } catch (err) {
        client.release(err instanceof Error ? err : true);
      }
    }),
  );
  return clients.length;
}
