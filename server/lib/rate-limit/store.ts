import { createRequire } from 'node:module';
import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import { lt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { rateLimitHits } from '../../db/schema.js';
import type { Clock } from '../clock.js';

/**
 * @fastify/rate-limit's store contract: `incr` counts one request of `key` and answers how many
 * there were in the current window and how long it still lasts (ms).
 */
type Counted = { current: number; ttl: number };
type Callback = (error: Error | null, result?: Counted) => void;
type Store = FastifyRateLimitStore;
/**
 * What `child` is really given: a route's `config.rateLimit` merged with the plugin's options
 * (the plugin's types call it the route's options).
 */
type RouteLimit = { acrossProcesses?: boolean; routeInfo?: { url?: string; method?: string } };
type ChildParams = Parameters<Store['child']>[0];

/** The plugin's own in-process store, which it uses when given none (it is not exported). */
const LocalStore = createRequire(import.meta.url)(
  '@fastify/rate-limit/store/LocalStore.js',
) as new (
  continueExceeding: boolean,
  exponentialBackoff: boolean,
) => Store;

/** Rows of ended windows are deleted once every this many counted requests of a process. */
const PRUNE_EVERY = 1_000;

/**
 * The rate-limit store of the app: a route whose `config.rateLimit` says
 * `acrossProcesses: true` is counted in the database (`rate_limit_hits`, one row per route and
 * address, one upsert per request), so every server process on the database shares one count;
 * other routes keep the plugin's in-process counter (a flood guard of each process).
 */
export function rateLimitStore({ db, clock }: { db: Db; clock: Clock }): FastifyRateLimitStoreCtor {
  let counted = 0;

  const databaseStore = (route: string): Store => ({
    incr(key, callback, timeWindow) {
      countHit(`${route} ${key}`, timeWindow).then(
        (result) => callback(null, result),
        (error: Error) => callback(error),
      );
    },
    child: (params) => databaseStore(routeName(params as unknown as RouteLimit)),
  });

  async function countHit(key: string, windowMs: number): Promise<Counted> {
    const now = clock.now();
    const windowEndsBefore = new Date(now.getTime() - windowMs);
    // One statement: a row whose window has ended starts again at 1, so two processes counting
    // the same address at once both land in one count.
    const [row] = await db
      .insert(rateLimitHits)
      .values({ key, windowStart: now, hits: 1 })
      .onConflictDoUpdate({
        target: rateLimitHits.key,
        set: {
          hits: sql`case when ${rateLimitHits.windowStart} <= ${windowEndsBefore} then 1 else ${rateLimitHits.hits} + 1 end`,
          windowStart: sql`case when ${rateLimitHits.windowStart} <= ${windowEndsBefore} then ${now} else ${rateLimitHits.windowStart} end`,
        },
      })
      .returning({ hits: rateLimitHits.hits, windowStart: rateLimitHits.windowStart });
    counted += 1;
    if (counted % PRUNE_EVERY === 0) {
      await db.delete(rateLimitHits).where(lt(rateLimitHits.windowStart, windowEndsBefore));
    }
    const startedAt = row?.windowStart.getTime() ?? now.getTime();
    return { current: row?.hits ?? 1, ttl: Math.max(0, startedAt + windowMs - now.getTime()) };
  }

  return class DatabaseBackedStore {
    private readonly local: Store;
    constructor(params: { continueExceeding?: boolean; exponentialBackoff?: boolean }) {
      this.local = new LocalStore(!!params.continueExceeding, !!params.exponentialBackoff);
    }
    incr(key: string, callback: Callback, timeWindow: number, max: number) {
      this.local.incr(key, callback, timeWindow, max);
    }
    child(params: ChildParams): Store {
      const limit = params as unknown as RouteLimit;
      return limit.acrossProcesses ? databaseStore(routeName(limit)) : this.local.child(params);
    }
  };
}

const routeName = (params: RouteLimit) =>
  `${params.routeInfo?.method ?? ''} ${params.routeInfo?.url ?? ''}`.trim();
