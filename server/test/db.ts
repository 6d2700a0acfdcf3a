import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { type Database, openDatabase } from '../db/client.js';
import { migrate } from '../db/migrate.js';

export type TestDatabase = Database & { drop(): Promise<void> };

/**
 * A fresh, migrated database for one test file: a new PostgreSQL database when
 * DATABASE_URL is set (dropped afterwards), otherwise an in-memory PGlite.
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  const url = process.env.DATABASE_URL;
  if (!url) {
    const database = await openDatabase({ pgliteDir: 'memory://' });
    await migrate(database);
    return { ...database, drop: () => database.close() };
  }
  const name = `podium_t_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const testUrl = new URL(url);
  testUrl.pathname = `/${name}`;
  const database = await openDatabase({ databaseUrl: testUrl.toString(), poolSize: 10 });
  await migrate(database);
  // A query sent on a connection still running another (a Promise.all inside a transaction)
  // is queued by pg today and refused by its next major version: the file fails on it.
  const overlapping: string[] = [];
  const onWarning = (warning: Error) => {
    if (warning.message.includes('already executing a query')) {
      overlapping.push(warning.stack ?? warning.message);
    }
  };
  process.on('warning', onWarning);
  return {
    ...database,
    drop: async () => {
      process.off('warning', onWarning);
      if (overlapping.length > 0) {
        throw new Error(`queries overlapped on one connection:\n${overlapping.join('\n')}`);
      }
      await database.close();
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

/**
 * A transaction on its own connection of `pool`, left open after `work` until `commit` (or
 * `rollback`): one side of a race between two transactions, held while the other is started.
 */
export async function heldTransaction(pool: pg.Pool, work: (c: pg.PoolClient) => Promise<unknown>) {
  const client = await pool.connect();
  const end = async (command: 'commit' | 'rollback') => {
    try {
      await client.query(command);
    } finally {
      client.release();
    }
  };
  try {
    await client.query('begin');
    await work(client);
  } catch (err) {
    await end('rollback');
    throw err;
  }
  return { commit: () => end('commit'), rollback: () => end('rollback') };
}

/** Resolves once another session of the pool's database waits for a lock (fails after ~5 s). */
export async function someoneWaits(pool: pg.Pool) {
  for (let i = 0; i < 200; i += 1) {
    const { rows } = await pool.query<{ n: number }>(
      `select count(*)::int as n from pg_stat_activity
       where datname = current_database() and wait_event_type = 'Lock'`,
    );
    if ((rows[0]?.n ?? 0) > 0) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error('nobody waited for the held transaction');
}
