import { EventEmitter } from 'node:events';
import pg from 'pg';
import type { Database } from '../db/client.js';

/**
 * Short notices from one server process to whichever process holds the listener: staff give
 * a student extra minutes on one process, the student's open event stream is on another. On
 * PostgreSQL they travel by NOTIFY on one channel (delivered after commit, to every process);
 * on PGlite there is one process and they stay in it. A notice is a nudge, not a record: the
 * database holds the truth, and a notice missed while a listener reconnects is caught up by
 * the player's next state check.
 */
export type Notices = {
  publish(topic: string, payload: Record<string, unknown>): Promise<void>;
  /**
   * Calls `listener` for every notice on `topic` until the returned function is called;
   * resolves once notices published from now on will arrive.
   */
  subscribe(
    topic: string,
    listener: (payload: Record<string, unknown>) => void,
  ): Promise<() => void>;
  close(): Promise<void>;
};

const CHANNEL = 'podium_notices';
/** PostgreSQL refuses NOTIFY payloads of 8,000 bytes or more. */
const MAX_PAYLOAD = 7_900;
const RECONNECT_MS = [500, 1_000, 2_000, 5_000, 10_000];

type Log = { warn: (obj: object, msg?: string) => void };

export function createNotices(database: Pick<Database, 'pool' | 'directUrl'>, log?: Log): Notices {
  const local = new EventEmitter();
  local.setMaxListeners(0);
  const deliver = (topic: string, payload: Record<string, unknown>) => {
    local.emit(topic, payload);
  };
  /** The text NOTIFY carries; the same limit holds in one process, so no notice works only there. */
  const encode = (topic: string, payload: Record<string, unknown>) => {
    const text = JSON.stringify({ topic, payload });
    if (Buffer.byteLength(text) > MAX_PAYLOAD) throw new Error(`notice too long: ${topic}`);
    return text;
  };
  const { pool } = database;
  if (!pool) {
    return {
      async publish(topic, payload) {
        encode(topic, payload);
        deliver(topic, payload);
      },
      async subscribe(topic, listener) {
        local.on(topic, listener);
        return () => local.off(topic, listener);
      },
      close: async () => {
        local.removeAllListeners();
      },
    };
  }

  let listener: pg.Client | undefined;
  let connecting: Promise<void> | undefined;
  let closed = false;
  let failures = 0;

  // Behind a transaction pooler, LISTEN goes to PostgreSQL itself: a pooler hands the session
  // to others after each statement and would not deliver. NOTIFY needs no session and is sent
  // through the pool.
  const listenTo: pg.ClientConfig | undefined =
    database.directUrl === undefined
      ? pool?.options
      : { connectionString: database.directUrl, connectionTimeoutMillis: 15_000 };

  /** One connection per process LISTENs, opened with the first subscriber, reopened if lost. */
  function listen(): Promise<void> {
    if (listener || connecting || closed) return connecting ?? Promise.resolve();
    const client = new pg.Client(listenTo);
    connecting = (async () => {
      try {
        client.on('notification', (message) => {
          if (message.channel !== CHANNEL || !message.payload) return;
          try {
            const { topic, payload } = JSON.parse(message.payload) as {
              topic: string;
              payload: Record<string, unknown>;
            };
            deliver(topic, payload);
          } catch {
            // Not one of ours; ignore.
          }
        });
        client.on('error', () => lost(client));
        client.on('end', () => lost(client));
        await client.connect();
        await client.query(`LISTEN ${CHANNEL}`);
        if (closed) {
          await client.end().catch(() => {});
          return;
        }
        listener = client;
        failures = 0;
      } catch (err) {
        log?.warn({ err }, 'notices: could not listen; trying again');
        lost(client);
      } finally {
        connecting = undefined;
      }
    })();
    return connecting;
  }

  const gone = new WeakSet<pg.Client>();
  /** A listening connection failed or ended (reported once, whichever event comes first). */
  function lost(client: pg.Client) {
    if (gone.has(client)) return;
    gone.add(client);
    if (listener === client) listener = undefined;
    client.removeAllListeners('end');
    void client.end().catch(() => {});
    if (closed || local.eventNames().length === 0) return;
    const wait = RECONNECT_MS[Math.min(failures, RECONNECT_MS.length - 1)] ?? 10_000;
    failures += 1;
    setTimeout(() => void listen(), wait).unref();
  }

  return {
    async publish(topic, payload) {
      await pool.query('select pg_notify($1, $2)', [CHANNEL, encode(topic, payload)]);
    },
    async subscribe(topic, fn) {
      local.on(topic, fn);
      await listen();
      return () => local.off(topic, fn);
    },
    async close() {
      closed = true;
      local.removeAllListeners();
      await connecting;
      const client = listener;
      listener = undefined;
      if (client) {
        client.removeAllListeners('end');
        await client.end().catch(() => {});
      }
    },
  };
}
