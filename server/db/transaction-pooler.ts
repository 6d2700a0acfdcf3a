import type pg from 'pg';

/**
 * A connection to a pooler in transaction mode (PgBouncer's `pool_mode = transaction`): each
 * transaction, and each statement outside one, may run on another server connection, so
 * nothing may rest on the session.
 *
 * - No named prepared statements: the name is dropped and the statement goes unnamed (parse,
 *   bind and execute in one message batch, which a pooler keeps together). Exam day's hot
 *   statements and drizzle's `.prepare(name)` run so unchanged.
 * - A statement limit other than the server's default (the role's `statement_timeout`, set
 *   by migrate.ts to the `examDay` one) is `SET LOCAL` in the statement's own transaction: a
 *   transaction's `begin` carries it in the same round trip; a statement outside one is
 *   wrapped in `begin; set local …` and `commit` (two round trips more, paid by the lists and
 *   exports only: exam day runs under the default).
 */
type Checkout = { limitMs: number | undefined; inTransaction: boolean };

type Callback = (err: Error | null, result?: unknown) => void;
type QueryConfig = { text: string; name?: string; values?: unknown[] } & Record<string, unknown>;

const checkouts = new WeakMap<pg.ClientBase, Checkout>();

const BEGIN = /^\s*(begin|start\s+transaction)\b/i;
const END = /^\s*(commit|end|abort|rollback)\b(?!\s+(transaction\s+|work\s+)?to\b)/i;

/** `set local` of a whole number of milliseconds (checked: it is written into the text). */
export function setLocalTimeout(ms: number): string {
  if (!Number.isSafeInteger(ms) || ms < 0) throw new Error(`bad statement timeout ${ms}`);
  return `set local statement_timeout = ${ms}`;
}

const isSubmittable = (v: unknown) =>
  typeof v === 'object' && v !== null && typeof (v as { submit?: unknown }).submit === 'function';

/**
 * Makes `client` fit a transaction pooler (once per connection) and gives this checkout the
 * statement limit `limitMs` (undefined: the server's default).
 */
export function checkOutThroughPooler(client: pg.PoolClient, limitMs: number | undefined): void {
  const known = checkouts.get(client);
  if (known) {
    known.limitMs = limitMs;
    known.inTransaction = false;
    return;
  }
  const checkout: Checkout = { limitMs, inTransaction: false };
  checkouts.set(client, checkout);
  const original = client.query.bind(client) as (...args: unknown[]) => Promise<unknown>;

  const run = async (config: QueryConfig): Promise<unknown> => {
    const { limitMs: ms } = checkout;
    if (BEGIN.test(config.text)) {
      checkout.inTransaction = true;
      if (ms === undefined) return original(config);
      if (config.values && config.values.length > 0) {
        const began = await original(config);
        await original(setLocalTimeout(ms));
        return began;
      }
      // One simple-protocol message: both statements, one round trip. The answer of `begin`
      // is the first of the two.
      const both = (await original({
        ...config,
        text: `${config.text}; ${setLocalTimeout(ms)}`,
      })) as unknown[] | unknown;
      return Array.isArray(both) ? both[0] : both;
    }
    if (END.test(config.text)) {
      checkout.inTransaction = false;
      return original(config);
    }
    if (checkout.inTransaction || ms === undefined) return original(config);
    await original(`begin; ${setLocalTimeout(ms)}`);
    try {
      const result = await original(config);
      await original('commit');
      return result;
    } catch (err) {
      await original('rollback').catch(() => {});
      throw err;
    }
  };

  // node-postgres' forms: (text | config, values?, callback?); a Submittable (a cursor) goes as
  // it is and is not used here.
  const query = (first: unknown, second?: unknown, third?: unknown): unknown => {
    if (isSubmittable(first)) return original(first, second, third);
    const callback = [second, third].find((v) => typeof v === 'function') as Callback | undefined;
    const values = typeof second === 'function' ? undefined : (second as unknown[] | undefined);
    const base: QueryConfig =
      typeof first === 'string' ? { text: first } : { ...(first as QueryConfig) };
    delete base.name;
    if (values !== undefined) base.values = values;
    const done = run(base);
    if (!callback) return done;
    done.then(
      (result) => callback(null, result),
      (err: unknown) => callback(err instanceof Error ? err : new Error(String(err))),
    );
    return undefined;
  };
  client.query = query as typeof client.query;
}
