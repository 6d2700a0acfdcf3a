// A throwaway PostgreSQL database for a benchmark run, refused unless commits are durable.

import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { type Database, openDatabase } from '../../server/db/client.js';
import { migrate } from '../../server/db/migrate.js';

const DEFAULT_PG = 'postgres://postgres@127.0.0.1:5432/postgres';

export type BenchDatabase = {
  url: string;
  name: string;
  database: Database;
  /**
   * Server settings that decide whether an acknowledged commit survives a crash, and when
   * PostgreSQL checkpoints (after one, the first change of every page logs the whole page).
   */
  durability: {
    synchronousCommit: string;
    fsync: string;
    version: string;
    checkpointTimeout: string;
    maxWalSize: string;
  };
  drop(): Promise<void>;
};

async function adminQuery(url: string, text: string) {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    await c.query(text);
  } finally {
    await c.end();
  }
}

/**
 * A fresh, migrated database on the PostgreSQL server of `server` (default DATABASE_URL's, else
 * the local one),
 * refused unless commits are durable: a benchmark on `synchronous_commit = off` or
 * `fsync = off` would measure acknowledgements that a crash can take back.
 */
export async function createBenchDatabase(
  prefix: string,
  server = process.env.DATABASE_URL || DEFAULT_PG,
): Promise<BenchDatabase> {
  const base = server;
  const name = `${prefix}_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  await adminQuery(base, `create database ${name}`);
  const drop = () => adminQuery(base, `drop database if exists ${name} with (force)`);
  const u = new URL(base);
  u.pathname = `/${name}`;
  const url = u.toString();
  // Seeding a large world is no request: no statement limit.
  const database = await openDatabase({ databaseUrl: url, poolSize: 4, statementTimeoutMs: 0 });
  try {
    await migrate(database);
    const pool = database.pool;
    if (!pool) throw new Error('PostgreSQL database without a pool');
    const setting = async (n: string) =>
      String((await pool.query(`select current_setting('${n}') as v`)).rows[0]?.v);
    const durability = {
      synchronousCommit: await setting('synchronous_commit'),
      fsync: await setting('fsync'),
      version: await setting('server_version'),
      checkpointTimeout: await setting('checkpoint_timeout'),
      maxWalSize: await setting('max_wal_size'),
    };
    if (durability.synchronousCommit === 'off' || durability.fsync !== 'on') {
      throw new Error(
        `PostgreSQL commits are not durable (synchronous_commit=${durability.synchronousCommit}, fsync=${durability.fsync}); the benchmark measures durable acknowledgements only`,
      );
    }
    return {
      url,
      name,
      database,
      durability,
      drop: async () => {
        await database.close().catch(() => {});
        await drop();
      },
    };
  } catch (err) {
    await database.close().catch(() => {});
    await drop().catch(() => {});
    throw err;
  }
}
