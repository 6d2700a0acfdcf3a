import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../db/client.js';
import { playerApp } from '../player/player.fixtures.js';

// The database goes away (a restart's terminated connections, then no new ones) and comes back:
// every request in between is refused as 503 DATABASE_UNAVAILABLE with Retry-After, never a
// 500, readiness says not ready, and afterwards the same requests succeed. PostgreSQL only: the
// embedded database cannot go away from under its own process.
describe.skipIf(!process.env.DATABASE_URL)('when the database goes away', () => {
  let ctx: Awaited<ReturnType<typeof playerApp>>;
  let admin: pg.Client;
  let name = '';

  /** Ends every connection to the test database and lets no new one in (or lets them in again). */
  async function databaseAway(away: boolean) {
    await admin.query(`alter database ${name} allow_connections ${away ? 'false' : 'true'}`);
    if (away) {
      await admin.query(
        'select pg_terminate_backend(pid) from pg_stat_activity where datname = $1',
        [name],
      );
    }
  }

  beforeAll(async () => {
    ctx = await playerApp();
    const [row] = rowsOf<{ name: string }>(
      await ctx.t.database.db.execute(sql`select current_database() as name`),
    );
    name = row?.name ?? '';
    admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await admin.connect();
  });
  afterAll(async () => {
    if (name) await databaseAway(false).catch(() => {});
    await admin?.end();
    await ctx?.t.close();
  });

  it('refuses with 503 and Retry-After meanwhile, and works again once it is back', async () => {
    const { kit } = ctx;
    const w = await kit.world();
    expect((await kit.start(w.alice, w.test.id)).statusCode).toBe(200);
    const answer = (seq: number) =>
      kit.answer(w.alice, w.test.id, { itemId: w.q.single, submittedAnswer: [seq % 2], seq });
    expect((await answer(1)).statusCode).toBe(200);

    await databaseAway(true);
    for (const res of [
      await answer(2),
      await kit.myTests(w.bob),
      await ctx.t.app.inject({ method: 'GET', url: '/api/v1/health/ready' }),
    ]) {
      expect(res.statusCode, res.body).toBe(503);
    }
    const refused = await answer(3);
    expect(refused.statusCode).toBe(503);
    expect(refused.headers['retry-after']).toBe('2');
    expect(refused.json().error.code).toBe('DATABASE_UNAVAILABLE');

    await databaseAway(false);
    // The player sends the kept answer again: it is stored as if nothing had happened.
    const again = await answer(3);
    expect(again.statusCode, again.body).toBe(200);
    expect((await kit.myTests(w.bob)).statusCode).toBe(200);
    const items = (await kit.items(w.alice, w.test.id)).json() as {
      items: { itemId: string; submittedAnswer: unknown }[];
    };
    expect(items.items.find((i) => i.itemId === w.q.single)?.submittedAnswer).toEqual([1]);
  });
});
