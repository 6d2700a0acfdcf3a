import type { ThrottleView } from '../../../shared/schemas/auth.js';
import type { Config } from '../../config.js';
import type { Db } from '../../db/client.js';
import { appendAudit } from '../../lib/audit.js';
import type { Actor } from '../../lib/auth-guard.js';
import type { Clock } from '../../lib/clock.js';
import { AppError, notFound } from '../../lib/errors.js';
import { sha256 } from '../../lib/secrets.js';
import * as repo from './throttle.repo.js';
import {
  addressOf,
  blockedUntil,
  keysOf,
  rulesOf,
  type Scope,
  type ThrottleKey,
} from './throttle.rules.js';

export type ThrottleDeps = { db: Db; config: Config; clock: Clock };

const LIST_LIMIT = 500;

/** Thrown inside the counting transaction to undo it: the attempt must wait. */
class MustWait extends Error {}

/**
 * Sign-in throttling (rules in throttle.rules.ts), kept in PostgreSQL so that it holds across
 * instances. An attempt takes its place in its counters before the password is checked, in one
 * transaction under the counters' row locks, so concurrent guesses are counted one by one.
 */
export function throttleService({ db, config, clock }: ThrottleDeps) {
  const rules = rulesOf(config.auth);
  const windowStart = (now: Date) =>
    new Date(now.getTime() - config.auth.failureWindowMinutes * 60_000);

  async function secondsToWait(keys: Record<Scope, ThrottleKey>, now: Date): Promise<number> {
    const rows = await repo.findCounters(
      db,
      Object.values(keys).map((k) => k.key),
    );
    let until = now.getTime();
    for (const row of rows) {
      const scope = (Object.keys(keys) as Scope[]).find((s) => keys[s].key === row.key);
      if (!scope || row.lastFailureAt <= windowStart(now)) continue;
      const blocked = blockedUntil(row.failures, row.lastFailureAt, rules[scope]);
      if (blocked) until = Math.max(until, blocked.getTime());
    }
    return Math.max(1, Math.ceil((until - now.getTime()) / 1000));
  }

  return {
    /**
     * Counts a sign-in attempt of `email` from `ip` as a failure until it succeeds, or throws
     * TOO_MANY_ATTEMPTS with `retryAfter` seconds (and counts nothing) when it must wait.
     */
    async admit(email: string, ip: string | undefined): Promise<void> {
      const now = clock.now();
      const keys = keysOf(email, addressOf(ip));
      const q = { now, windowStart: windowStart(now) };
      try {
        await db.transaction(async (tx) => {
          // Always pair, account, address: the same order in every transaction, no deadlock.
          const pair = await repo.charge(tx, keys.pair, rules.pair, { ...q, add: 1 });
          if (pair === undefined) throw new MustWait();
          if ((await repo.charge(tx, keys.account, rules.account, { ...q, add: 1 })) === undefined)
            throw new MustWait();
          // The address counts accounts: only an account's first failure from it adds one.
          const add = pair === 1 ? 1 : 0;
          if ((await repo.charge(tx, keys.address, rules.address, { ...q, add })) === undefined)
            throw new MustWait();
        });
      } catch (e) {
        if (!(e instanceof MustWait)) throw e;
        throw new AppError('TOO_MANY_ATTEMPTS', 'Too many failed sign-ins; wait and try again', {
          retryAfter: await secondsToWait(keys, now),
        });
      }
    },

    /** The sign-in of `email` from `ip` succeeded: the owner's own failures are forgiven. */
    async succeeded(email: string, ip: string | undefined): Promise<void> {
      const keys = keysOf(email, addressOf(ip));
      await db.transaction((tx) =>
        repo.forgive(tx, {
          pair: keys.pair.key,
          account: keys.account.key,
          address: keys.address.key,
        }),
      );
    },

    /**
     * True when `token` is a browser `userId` signed in from and it has failed fewer than
     * AUTH_PAIR_FAILURES_BEFORE_DELAY times since; the attempt is counted on the browser.
     */
    async isTrustedDevice(userId: string, token: string | undefined): Promise<boolean> {
      if (!token) return false;
      return repo.chargeDevice(db, {
        userId,
        tokenHash: sha256(token),
        limit: config.auth.pairFailuresBeforeDelay,
      });
    },

    /** Remembers the browser of a new session, with a clean count. */
    async rememberDevice(userId: string, token: string | undefined, tx: Db = db): Promise<void> {
      if (!token) return;
      await repo.rememberDevice(tx, { userId, tokenHash: sha256(token), now: clock.now() });
    },

    /** Forgets the counters of an account whose password was just reset. */
    forgetAccount: (email: string, tx: Db = db) => repo.deleteAccountCounters(tx, email),

    /** The counters with failures in the window, the ones making someone wait first. */
    async list(): Promise<ThrottleView[]> {
      const now = clock.now();
      const rows = await repo.listCounters(db, windowStart(now), LIST_LIMIT);
      const views = rows.map((r) => {
        const until = blockedUntil(r.failures, r.lastFailureAt, rules[r.scope]);
        return {
          _id: r.id,
          scope: r.scope,
          email: r.email,
          address: r.address,
          failures: r.failures,
          lastFailureAt: r.lastFailureAt.toISOString(),
          blockedUntil: until && until > now ? until.toISOString() : null,
        } satisfies ThrottleView;
      });
      // ISO strings of one format sort as the instants they name.
      const waitOf = (v: ThrottleView) => v.blockedUntil ?? '';
      return views.sort((a, b) => waitOf(b).localeCompare(waitOf(a)) || b.failures - a.failures);
    },

    /** Clears one counter (an admin helping someone who waits), audited. */
    async clear(actor: Actor, id: string): Promise<{ ok: true }> {
      return db.transaction(async (tx) => {
        const row = await repo.deleteCounter(tx, id);
        if (!row) throw notFound('throttle');
        await appendAudit(tx, {
          actorId: actor.id,
          action: 'auth.throttle.clear',
          entityType: 'auth_throttle',
          entityId: row.id,
          before: {
            scope: row.scope,
            email: row.email,
            address: row.address,
            failures: row.failures,
            lastFailureAt: row.lastFailureAt.toISOString(),
          },
        });
        return { ok: true as const };
      });
    },

    /** Deletes counters whose window has passed (a periodic job). */
    cleanup: () => repo.deleteStaleCounters(db, windowStart(clock.now())),
  };
}

export type ThrottleService = ReturnType<typeof throttleService>;
