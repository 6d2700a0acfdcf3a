import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../test/db.js';
import { createNotices, type Notices } from './notices.js';

let database: TestDatabase;
const opened: Notices[] = [];
const notices = () => {
  const made = createNotices(database);
  opened.push(made);
  return made;
};

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  for (const n of opened) await n.close();
  await database.drop();
});

/** The next payload on `topic`, or a rejection after `ms`. */
function nextOn(n: Notices, topic: string, ms = 5_000) {
  return new Promise<Record<string, unknown>>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`nothing on ${topic} in ${ms} ms`)), ms);
    void n.subscribe(topic, (payload) => {
      clearTimeout(timer);
      resolve(payload);
    });
  });
}

describe('notices', () => {
  it('reach the subscribers of their topic (sent from another process on PostgreSQL)', async () => {
    const listener = notices();
    // PGlite serves from one process: there the sender is the listener's own instance.
    const sender = database.pool ? notices() : listener;
    const heard: unknown[] = [];
    const stop = await listener.subscribe('attempt:a', (payload) => heard.push(payload));
    await listener.subscribe('attempt:b', (payload) => heard.push({ wrong: payload }));
    const arrived = nextOn(listener, 'attempt:a');
    await sender.publish('attempt:a', { deadline: '2026-11-23T10:40:00.000Z' });
    expect(await arrived).toEqual({ deadline: '2026-11-23T10:40:00.000Z' });
    expect(heard).toEqual([{ deadline: '2026-11-23T10:40:00.000Z' }]);

    stop();
    const again = nextOn(listener, 'attempt:a');
    await sender.publish('attempt:a', { deadline: 'later' });
    await again;
    expect(heard).toHaveLength(1);
  });

  it('refuses a notice too long for NOTIFY, sending nothing', async () => {
    await expect(notices().publish('big', { text: 'x'.repeat(8_000) })).rejects.toThrow(/too long/);
  });

  it.skipIf(!process.env.DATABASE_URL)(
    'listens again after its connection is cut',
    async () => {
      const listener = notices();
      await listener.subscribe('attempt:c', () => {});
      const pool = database.pool;
      if (!pool) throw new Error('PostgreSQL expected');
      const cut = await pool.query(
        `select pg_terminate_backend(pid) from pg_stat_activity
         where datname = current_database() and query ilike 'listen%'`,
      );
      expect(cut.rowCount).toBeGreaterThan(0);
      // Published until heard: the listener comes back after its first backoff (0.5 s).
      const arrived = nextOn(listener, 'attempt:c', 10_000);
      let heard = false;
      void arrived.then(() => {
        heard = true;
      });
      for (let i = 0; i < 40 && !heard; i += 1) {
        await notices().publish('attempt:c', { deadline: 'after the cut' });
        await new Promise((r) => setTimeout(r, 250));
      }
      expect(await arrived).toEqual({ deadline: 'after the cut' });
    },
    15_000,
  );
});
