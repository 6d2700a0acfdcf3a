import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hotStatement } from '../lib/hot-statement.js';
import { createTestDatabase, type TestDatabase } from '../test/db.js';
import { type Database, openDatabase, rowsOf } from './client.js';
import { migrate, poolerStatementTimeout } from './migrate.js';
import { withStatementTimeout } from './statement-timeout.js';

// The pool as it runs behind PgBouncer in transaction mode (DATABASE_POOLER=transaction), here
// pointed at PostgreSQL itself so that what each connection keeps can be read back: nothing of
// a request's may stay on it, since the pooler gives the server connection to someone else
// after each transaction. PostgreSQL only (PGlite has no pool and no statement limits).
describe.skipIf(!process.env.DATABASE_URL)('a pool behind a transaction pooler', () => {
  // The role's default in the test database: the `examDay` limit statements run under.
  const DEFAULT_MS = 100;
  let t: TestDatabase;
  let pooled: Database;
  let pool: NonNullable<Database['pool']>;

  const settingNow = async () =>
    (
      await pool.query<{ setting: string }>(
        `select setting from pg_settings where name = 'statement_timeout'`,
      )
    ).rows[0]?.setting;
  // drizzle wraps the driver's error (its `cause`).
  type Failure = { code?: string; cause?: { code?: string } };
  const codeOf = (work: () => Promise<unknown>) =>
    work().then(
      () => 'ok',
      (err: Failure) => String(err.code ?? err.cause?.code ?? err),
    );

  beforeAll(async () => {
    t = await createTestDatabase();
    const [row] = rowsOf<{ name: string }>(
      await t.db.execute(sql`select current_database() as name`),
    );
    const url = new URL(process.env.DATABASE_URL ?? '');
    url.pathname = `/${row?.name}`;
    // One connection: every statement of a test meets what the previous one left behind.
    pooled = await openDatabase({
      databaseUrl: url.toString(),
      directUrl: url.toString(),
      poolSize: 1,
      statementTimeoutMs: DEFAULT_MS,
    });
    await migrate(pooled, DEFAULT_MS);
    if (!pooled.pool) throw new Error('PostgreSQL database without a pool');
    pool = pooled.pool;
  });
  afterAll(async () => {
    await pooled?.close();
    await t?.drop();
  });

  it('runs under the role default the migration set, with no start-up parameter', async () => {
    expect(await settingNow()).toBe(String(DEFAULT_MS));
    expect(await poolerStatementTimeout(pooled, DEFAULT_MS)).toBeUndefined();
    expect(await poolerStatementTimeout(pooled, 5_000)).toBe(`${DEFAULT_MS} ms`);
    expect(await codeOf(() => pool.query('select pg_sleep(0.3)'))).toBe('57014');
  });

  it('sends hot statements and drizzle prepared ones unnamed', async () => {
    const hot = hotStatement<[number], { n: number }>(
      pooled,
      'pooler_hot_v1',
      'select $1::int as n',
    );
    expect(await hot([7])).toEqual([{ n: 7 }]);
    const named = await pooled.db
      .select({ n: sql<number>`1` })
      .from(sql`(select 1) as x`)
      .prepare('pooler_drizzle_v1')
      .execute();
    expect(named).toEqual([{ n: 1 }]);
    const { rows } = await pool.query<{ n: number }>(
      'select count(*)::int as n from pg_prepared_statements',
    );
    expect(rows[0]?.n).toBe(0);
  });

  it('gives a longer limit to a lone statement and a transaction, and none keeps it', async () => {
    await withStatementTimeout(10_000, async () => {
      expect(await codeOf(() => pool.query('select pg_sleep(0.3)'))).toBe('ok');
      expect(
        await codeOf(() =>
          pooled.db.transaction(async (tx) => {
            await tx.execute(sql`select pg_sleep(0.3)`);
            // A savepoint rolled back leaves the transaction, and its limit, as they were.
            await tx
              .transaction(async (inner) => {
                await inner.execute(sql`select 1`);
                throw new Error('inner');
              })
              .catch(() => undefined);
            await tx.execute(sql`select pg_sleep(0.3)`);
          }),
        ),
      ).toBe('ok');
    });
    expect(await settingNow()).toBe(String(DEFAULT_MS));
    expect(await codeOf(() => pool.query('select pg_sleep(0.3)'))).toBe('57014');
  });

  it('cancels past a shorter limit, rolls back, and leaves the connection usable', async () => {
    await pool.query('create table if not exists pooler_probe (n int)');
    const cancelled = await withStatementTimeout(20, () =>
      codeOf(() =>
        pooled.db.transaction(async (tx) => {
          await tx.execute(sql`insert into pooler_probe values (1)`);
          await tx.execute(sql`select pg_sleep(0.05)`);
        }),
      ),
    );
    expect(cancelled).toBe('57014');
    expect(
      await withStatementTimeout(20, () => codeOf(() => pool.query('select pg_sleep(0.05)'))),
    ).toBe('57014');
    const { rows } = await pool.query<{ n: number }>('select count(*)::int as n from pooler_probe');
    expect(rows[0]?.n).toBe(0);
    expect(await settingNow()).toBe(String(DEFAULT_MS));
  });
});
