import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../test/db.js';
import { type Database, openDatabase, rowsOf } from './client.js';

// A connection whose link ends while it is handed out must not keep its place in the pool: a
// caller may never release it (drizzle's transaction, when its `begin` fails, as every `begin`
// does through PgBouncer while PostgreSQL is away). One connection per pool, so a place kept
// would leave nothing for the next request. PostgreSQL only (PGlite has no pool).
describe.skipIf(!process.env.DATABASE_URL)('a connection broken while handed out', () => {
  let t: TestDatabase;
  let url: string;
  const opened: Database[] = [];

  beforeAll(async () => {
    t = await createTestDatabase();
    const [row] = rowsOf<{ name: string }>(
      await t.db.execute(sql`select current_database() as name`),
    );
    const u = new URL(process.env.DATABASE_URL ?? '');
    u.pathname = `/${row?.name}`;
    url = u.toString();
  });
  afterAll(async () => {
    for (const d of opened) await d.close().catch(() => {});
    await t?.drop();
  });

  const breakLink = (client: object) =>
    (client as { connection: { stream: { destroy(): void } } }).connection.stream.destroy();

  for (const pooler of [false, true]) {
    it(`goes back to the pool by itself, and a late release changes nothing (${pooler ? 'behind a transaction pooler' : 'on PostgreSQL'})`, async () => {
      const database = await openDatabase({
        databaseUrl: url,
        poolSize: 1,
        ...(pooler ? { directUrl: url } : {}),
      });
      opened.push(database);
      const pool = database.pool;
      if (!pool) throw new Error('PostgreSQL database without a pool');

      const lost = await pool.connect();
      breakLink(lost);
      // Never released by its caller: the next request still gets a connection, at once.
      const started = Date.now();
      const { rows } = await pool.query<{ one: number }>('select 1 as one');
      expect(rows[0]?.one).toBe(1);
      expect(Date.now() - started).toBeLessThan(5_000);
      expect(pool.totalCount).toBe(1);

      // The caller that does release it later does no harm (pg-pool throws on a double release).
      expect(() => lost.release()).not.toThrow();
      const again = await database.db.transaction(async (tx) =>
        rowsOf<{ two: number }>(await tx.execute(sql`select 2 as two`)),
      );
      expect(again[0]?.two).toBe(2);
      expect(pool.totalCount).toBe(1);
      expect(pool.idleCount).toBe(1);
    }, 30_000);
  }
});
