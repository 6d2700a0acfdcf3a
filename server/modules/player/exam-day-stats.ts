import { hostname } from 'node:os';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import type { Clock } from '../../lib/clock.js';
import { uuidv7 } from '../../lib/ids.js';

// The answer writes' counts and latency, per minute, per test and per server process: counted
// in memory as the answers are acknowledged or refused (nothing is added to the write itself),
// then added to `exam_day_stats` by each process every few seconds, so the exam-day panel
// reads one table whichever instance answers it (DESIGN.md principle 1).

/** Upper bounds (ms) of the latency buckets; one more bucket counts everything slower. */
export const LATENCY_BOUNDS_MS = [2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000];
const BUCKETS = LATENCY_BOUNDS_MS.length + 1;
/** More distinct tests than this in one flush interval are counted without their test. */
const MAX_TESTS_PER_FLUSH = 500;
const NO_TEST = '00000000-0000-0000-0000-000000000000';
/** Rows older than this are deleted, by each process at most every PRUNE_EVERY_MS. */
const KEEP_MS = 24 * 60 * 60_000;
const PRUNE_EVERY_MS = 10 * 60_000;

type Counter = { writes: number; errors: number; buckets: number[] };

/** The bucket a latency falls in. */
export function bucketOf(ms: number): number {
  const i = LATENCY_BOUNDS_MS.findIndex((bound) => ms <= bound);
  return i === -1 ? LATENCY_BOUNDS_MS.length : i;
}

/**
 * The q-quantile of merged bucket counts, as the upper bound of the bucket it falls in (the
 * slowest bucket answers the last bound); null when nothing was counted.
 */
export function quantileOf(buckets: readonly number[], q: number): number | null {
  const total = buckets.reduce((sum, n) => sum + n, 0);
  if (total === 0) return null;
  const rank = Math.ceil(q * total);
  let seen = 0;
  for (let i = 0; i < buckets.length; i++) {
    seen += buckets[i] ?? 0;
    if (seen >= rank) return LATENCY_BOUNDS_MS[Math.min(i, LATENCY_BOUNDS_MS.length - 1)] ?? null;
  }
  return LATENCY_BOUNDS_MS.at(-1) ?? null;
}

/** This process's name in the table: host, process id and a random part (a restart is new). */
export function processName(): string {
  return `${hostname()}:${process.pid}:${uuidv7().slice(-8)}`;
}

/**
 * Counts this process's answer writes and adds them to `exam_day_stats`. `answered` costs a
 * map lookup; `flush` writes what was counted since the last one (kept for the next one when
 * the database refuses) and deletes rows older than a day.
 */
export function examDayStats({
  db,
  clock,
  instance = processName(),
}: {
  db: Db;
  clock: Clock;
  instance?: string;
}) {
  let pending = new Map<string, Counter>();
  let prunedAt = Number.NEGATIVE_INFINITY;

  function counterOf(minute: number, testId: string): Counter {
    const tested = pending.size >= MAX_TESTS_PER_FLUSH ? NO_TEST : testId;
    const key = `${minute} ${tested}`;
    let counter = pending.get(key);
    if (!counter) {
      counter = { writes: 0, errors: 0, buckets: new Array(BUCKETS).fill(0) };
      pending.set(key, counter);
    }
    return counter;
  }

  function merge(into: Map<string, Counter>, from: Map<string, Counter>) {
    for (const [key, c] of from) {
      const to = into.get(key);
      if (!to) {
        into.set(key, c);
        continue;
      }
      to.writes += c.writes;
      to.errors += c.errors;
      c.buckets.forEach((n, i) => {
        to.buckets[i] = (to.buckets[i] ?? 0) + n;
      });
    }
  }

  return {
    instance,

    /** One answer write answered: acknowledged (`ok`) or refused/failed, after `ms`. */
    answered(testId: string, ms: number, ok: boolean) {
      const minute = Math.floor(clock.now().getTime() / 60_000) * 60_000;
      const counter = counterOf(minute, testId);
      if (ok) {
        counter.writes++;
        const bucket = bucketOf(ms);
        counter.buckets[bucket] = (counter.buckets[bucket] ?? 0) + 1;
      } else {
        counter.errors++;
      }
    },

    /** Adds what was counted to the table, in one statement; then, now and then, deletes old rows. */
    async flush(): Promise<void> {
      const taken = pending;
      pending = new Map();
      if (taken.size > 0) {
        const rows = [...taken].map(([key, c]) => {
          const [minute, testId] = key.split(' ');
          return {
            minute: new Date(Number(minute)).toISOString(),
            test_id: testId,
            writes: c.writes,
            errors: c.errors,
            latency: c.buckets,
          };
        });
        try {
          await db.execute(sql`
            insert into exam_day_stats as s (minute, test_id, instance, writes, errors, latency)
            select r.minute, r.test_id, ${instance}, r.writes, r.errors,
              array(select (x #>> '{}')::int from jsonb_array_elements(r.latency) x)
            from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
              as r(minute timestamptz, test_id uuid, writes int, errors int, latency jsonb)
            on conflict (minute, test_id, instance) do update set
              writes = s.writes + excluded.writes,
              errors = s.errors + excluded.errors,
              latency = array(select coalesce(a, 0) + coalesce(b, 0)
                from unnest(s.latency, excluded.latency) as t(a, b))`);
        } catch (err) {
          // Kept for the next flush: a database that is restarting loses no count.
          merge(pending, taken);
          throw err;
        }
      }
      const now = clock.now().getTime();
      if (taken.size === 0 || Math.abs(now - prunedAt) < PRUNE_EVERY_MS) return;
      prunedAt = now;
      const cut = new Date(now - KEEP_MS).toISOString();
      await db.execute(sql`delete from exam_day_stats where minute < ${cut}::timestamptz`);
    },
  };
}

export type ExamDayStats = ReturnType<typeof examDayStats>;
