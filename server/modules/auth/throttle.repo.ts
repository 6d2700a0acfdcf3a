import { and, desc, eq, gt, inArray, lt, lte, notInArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { authThrottles, knownDevices } from '../../db/schema.js';
import { uuidv7 } from '../../lib/ids.js';
import type { Rule, ThrottleKey } from './throttle.rules.js';

const t = authThrottles;

/** Known browsers kept per user; signing in from another one forgets the oldest. */
const DEVICES_PER_USER = 20;

/** throttle.rules.ts blockedUntil(), in SQL: null when the counter makes nobody wait. */
const blockedUntilSql = (rule: Rule) =>
  sql`case when ${t.failures} >= ${rule.free}::int then ${t.lastFailureAt} + least(power(2, least(${t.failures} - ${rule.free}::int, 30)), ${rule.maxDelaySeconds}::int) * interval '1 second' end`;

/**
 * Counts one attempt on a counter (`add` failures, 0 or 1) unless the counter makes it wait,
 * in one statement under the counter's row lock; a counter past `windowStart` starts again.
 * Returns the failures now counted, or undefined when the attempt must wait.
 */
export async function charge(
  db: Db,
  k: ThrottleKey,
  rule: Rule,
  q: { now: Date; windowStart: Date; add: 0 | 1 },
): Promise<number | undefined> {
  const stale = sql`${t.lastFailureAt} <= ${q.windowStart}::timestamptz`;
  const [row] = await db
    .insert(t)
    .values({ id: uuidv7(), ...k, failures: q.add, lastFailureAt: q.now })
    .onConflictDoUpdate({
      target: t.key,
      set: {
        failures: sql`case when ${stale} then ${q.add}::int else ${t.failures} + ${q.add}::int end`,
        lastFailureAt: q.now,
      },
      setWhere: sql`${stale} or coalesce(${blockedUntilSql(rule)} <= ${q.now}::timestamptz, true)`,
    })
    .returning({ failures: t.failures });
  return row?.failures;
}

/** The counters of these keys (for how long to wait). */
export async function findCounters(db: Db, keys: string[]) {
  return db
    .select({ key: t.key, failures: t.failures, lastFailureAt: t.lastFailureAt })
    .from(t)
    .where(inArray(t.key, keys));
}

/**
 * A sign-in succeeded: its account-and-address counter goes, and what that counter held is
 * taken off the account's and the address's (the owner's own typing errors). Returns the
 * failures forgiven.
 */
export async function forgive(
  db: Db,
  keys: { pair: string; account: string; address: string },
): Promise<number> {
  const [pair] = await db.delete(t).where(eq(t.key, keys.pair)).returning({ failures: t.failures });
  const failures = pair?.failures ?? 0;
  if (failures > 0) {
    await db
      .update(t)
      .set({ failures: sql`greatest(${t.failures} - ${failures}::int, 0)` })
      .where(eq(t.key, keys.account));
    await db
      .update(t)
      .set({ failures: sql`greatest(${t.failures} - 1, 0)` })
      .where(eq(t.key, keys.address));
  }
  return failures;
}

/** Forgets every counter of one account (its password was just reset). */
export async function deleteAccountCounters(db: Db, email: string) {
  await db.delete(t).where(and(eq(t.email, email), inArray(t.scope, ['pair', 'account'])));
}

/** Counters with failures in the window, newest first (admins' list). */
export async function listCounters(db: Db, windowStart: Date, limit: number) {
  return db
    .select()
    .from(t)
    .where(and(gt(t.failures, 0), gt(t.lastFailureAt, windowStart)))
    .orderBy(desc(t.lastFailureAt))
    .limit(limit);
}

/** Deletes one counter and returns it, or undefined when it was not there. */
export async function deleteCounter(db: Db, id: string) {
  const [row] = await db.delete(t).where(eq(t.id, id)).returning();
  return row;
}

/** Deletes counters whose window has passed; returns how many. */
export async function deleteStaleCounters(db: Db, windowStart: Date): Promise<number> {
  const gone = await db.delete(t).where(lte(t.lastFailureAt, windowStart)).returning({ id: t.id });
  return gone.length;
}

/**
 * Counts one attempt from a browser the user signed in from, if it has failed fewer than
 * `limit` times since; in one statement, so concurrent attempts cannot all pass. True when
 * the browser is known and still trusted.
 */
export async function chargeDevice(
  db: Db,
  q: { userId: string; tokenHash: string; limit: number },
): Promise<boolean> {
  const rows = await db
    .update(knownDevices)
    .set({ failures: sql`${knownDevices.failures} + 1` })
    .where(
      and(
        eq(knownDevices.userId, q.userId),
        eq(knownDevices.tokenHash, q.tokenHash),
        lt(knownDevices.failures, q.limit),
      ),
    )
    .returning({ id: knownDevices.id });
  return rows.length > 0;
}

/** Remembers (or refreshes) a browser the user just signed in from; keeps the newest few. */
export async function rememberDevice(db: Db, q: { userId: string; tokenHash: string; now: Date }) {
  await db
    .insert(knownDevices)
    .values({ id: uuidv7(), userId: q.userId, tokenHash: q.tokenHash, lastSignInAt: q.now })
    .onConflictDoUpdate({
      target: [knownDevices.userId, knownDevices.tokenHash],
      set: { failures: 0, lastSignInAt: q.now },
    });
  const keep = db
    .select({ id: knownDevices.id })
    .from(knownDevices)
    .where(eq(knownDevices.userId, q.userId))
    .orderBy(desc(knownDevices.lastSignInAt))
    .limit(DEVICES_PER_USER);
  await db
    .delete(knownDevices)
    .where(and(eq(knownDevices.userId, q.userId), notInArray(knownDevices.id, keep)));
}
