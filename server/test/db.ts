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
  return {
    ...database,
    drop: async () => {
      await database.close();
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}
