import { AsyncLocalStorage } from 'node:async_hooks';
import pg from 'pg';
import { checkOutThroughPooler } from './transaction-pooler.js';

/**
 * Every statement a request runs has a time limit (PostgreSQL's `statement_timeout`), by the
 * request's class:
 *
 * - `examDay` — the connection's own default, set when it opens (a startup parameter: no
 *   statement, no round trip). Exam day's hot statements go straight to the pool
 *   (server/lib/hot-statement.ts), as do the sweeper and every job, and so run under it as
 *   they are: the fast path pays nothing for the limit.
 * - `request` — every other API route (lists, counts, forms): a moderate limit.
 * - `export` — spreadsheets, CSV and archives, which read whole lists: a longer one.
 *
 * A route's class is decided once, when it is registered (app.ts); its handler then runs
 * inside `withStatementTimeout`. The pool remembers each connection's limit and, when it hands
 * a connection out, sets the limit of the caller's class only if the connection carries
 * another one (one `set`): a connection keeps what it was last given, so a run of list
 * requests pays nothing after the first, and exam day's statements pay one `set` only on a
 * connection a list used last. A statement past its limit is cancelled by PostgreSQL
 * (SQLSTATE 57014) and the request answers 503 QUERY_TIMEOUT.
 *
 * Behind a pooler in transaction mode (`DATABASE_POOLER=transaction`) a connection is no session:
 * the `examDay` limit is the role's default in the database (migrate.ts sets it), and any other
 * is `SET LOCAL` in the statement's own transaction (transaction-pooler.ts).
 *
 * PGlite runs in this process on one thread and has no timer to cancel a statement with: there
 * a statement's cost is bounded before it runs instead (the filter's pattern limits,
 * server/lib/filter/regexp.ts), and these limits do not apply.
 */
export type StatementTimeouts = { examDayMs: number; requestMs: number; exportMs: number };

export const DEFAULT_STATEMENT_TIMEOUTS: StatementTimeouts = {
  examDayMs: 5_000,
  requestMs: 15_000,
  exportMs: 120_000,
};

/** PostgreSQL's SQLSTATE for a statement cancelled by its timeout (or by a cancel request). */
export const QUERY_CANCELED = '57014';

const limitOfRequest = new AsyncLocalStorage<number>();

/** Runs `work` with its statements limited to `ms` (on PostgreSQL, see the file comment). */
export function withStatementTimeout<T>(ms: number, work: () => T): T {
  return limitOfRequest.run(ms, work);
}

const whole = (ms: number) => {
  if (!Number.isSafeInteger(ms) || ms < 0) throw new Error(`bad statement timeout ${ms}`);
  return ms;
};

type ConnectCallback = (err: Error | undefined, client?: pg.PoolClient, done?: () => void) => void;

/**
 * The pool: connections open with the `examDay` limit; one handed out inside
 * `withStatementTimeout` carries that limit, one handed out outside it the `examDay` one.
 * With `transactionPooler`, the connections go to a pooler in transaction mode and each
 * checkout is fitted to it instead (see the file comment).
 */
/**
 * A connection whose link ends while it is handed out goes back to the pool at once, as broken,
 * and a later release of it does nothing. Without this, a caller that never gets to release it
 * keeps its place in the pool for good: drizzle's `transaction` sends `begin` outside its
 * try/finally, so a `begin` that fails leaks the connection. Through PgBouncer every `begin`
 * while PostgreSQL is away fails so (`server login has been failing`, the connection closed):
 * in `npm run bench -- db-outage` both instances' pools were all leaked within seconds, and they
 * stayed refusing every request as 503 long after PostgreSQL was back.
 */
export function givenBackWhenBroken(client: pg.PoolClient): pg.PoolClient {
  const release = client.release;
  let released = false;
  const giveBack = (err?: Error | boolean) => {
    if (released) return;
    released = true;
    client.removeListener('end', onEnd);
    release(err);
  };
  const onEnd = () => giveBack(new Error('the connection ended while handed out'));
  client.release = giveBack;
  client.once('end', onEnd);
  return client;
}

export class BoundedPool extends pg.Pool {
  private readonly ownLimit: number;
  private readonly transactionPooler: boolean;
  /** Each connection's limit when it is not the one it opened with. */
  private readonly limits = new WeakMap<pg.PoolClient, number>();

  constructor(config: pg.PoolConfig & { statementTimeoutMs: number; transactionPooler?: boolean }) {
    const { statementTimeoutMs, transactionPooler = false, ...rest } = config;
    // A pooler refuses start-up parameters it does not know (PgBouncer: "unsupported startup
    // parameter"), and would not keep one for the next transaction anyway.
    super(transactionPooler ? rest : { ...rest, statement_timeout: whole(statementTimeoutMs) });
    this.ownLimit = whole(statementTimeoutMs);
    this.transactionPooler = transactionPooler;
  }

  /** The client as a transaction pooler needs it, for a caller under the limit `ms`. */
  private throughPooler(client: pg.PoolClient, ms: number): pg.PoolClient {
    checkOutThroughPooler(client, ms === this.ownLimit ? undefined : ms);
    return client;
  }

  /** Gives the client the limit `ms` unless it has it already. */
  private async limit(client: pg.PoolClient, ms: number): Promise<pg.PoolClient> {
    try {
      await client.query(`set statement_timeout = ${whole(ms)}`);
    } catch (err) {
      client.release(err instanceof Error ? err : true);
      throw err;
    }
    if (ms === this.ownLimit) this.limits.delete(client);
    else this.limits.set(client, ms);
    return client;
  }

  // pg-pool calls connect(callback) itself for pool.query; both forms are kept.
  override connect(): Promise<pg.PoolClient>;
  override connect(callback: ConnectCallback): void;
  override connect(callback?: ConnectCallback): Promise<pg.PoolClient> | undefined {
    const ms = limitOfRequest.getStore() ?? this.ownLimit;
    if (this.transactionPooler) {
      if (!callback) {
        return super
          .connect()
          .then((client) => this.throughPooler(givenBackWhenBroken(client), ms));
      }
      super.connect(((err: Error | undefined, client?: pg.PoolClient, done?: () => void) => {
        if (err || !client) {
          callback(err, client, done);
          return;
        }
        const guarded = givenBackWhenBroken(client);
        callback(undefined, this.throughPooler(guarded, ms), guarded.release);
      }) as never);
      return undefined;
    }
    const fits = (client: pg.PoolClient) => (this.limits.get(client) ?? this.ownLimit) === ms;
    if (!callback) {
      return super.connect().then((handed) => {
        const client = givenBackWhenBroken(handed);
        return fits(client) ? client : this.limit(client, ms);
      });
    }
    super.connect(((err: Error | undefined, handed?: pg.PoolClient, done?: () => void) => {
      if (err || !handed) {
        callback(err, handed, done);
        return;
      }
      const client = givenBackWhenBroken(handed);
      if (fits(client)) {
        callback(undefined, client, client.release);
        return;
      }
      this.limit(client, ms).then(
        (limited) => callback(undefined, limited, client.release),
        (limitError: unknown) =>
          callback(limitError instanceof Error ? limitError : new Error(String(limitError))),
      );
    }) as never);
    return undefined;
  }
}
