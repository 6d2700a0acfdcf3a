import type { Config } from '../../config.js';
import type { Database, Db } from '../../db/client.js';
import type { Clock } from '../../lib/clock.js';
import type { FileStorage } from '../../lib/files/storage.js';
import type { Notices } from '../../lib/notices.js';
import { unansweredItemsJson } from './player.dto.js';
import type { AttemptRow } from './player.repo.js';
import * as repo from './player.repo.js';

export type PlayerDeps = {
  database: Pick<Database, 'db' | 'pool'>;
  clock: Clock;
  storage: FileStorage;
  config: Pick<Config, 'player'>;
  /** Where a changed deadline is announced to the student's open event stream. */
  notices?: Pick<Notices, 'publish'>;
};

/** How long a test's facts and item statements are served from memory. */
const CACHE_TTL_MS = 5_000;

/**
 * What every student of a test reads alike, kept CACHE_TTL_MS per test: on exam day
 * thousands start the same test in the same minute. An organiser's edit reaches students
 * who start (or reload) after that much time; a refusal is always decided on fresh rows.
 */
function perTestCache<T>(clock: Clock, read: (testId: string) => Promise<T>) {
  const entries = new Map<string, { at: number; value: Promise<T> }>();
  return (testId: string): Promise<T> => {
    const at = clock.now().getTime();
    const fresh = (entry: { at: number }) => at >= entry.at && at - entry.at < CACHE_TTL_MS;
    const hit = entries.get(testId);
    if (hit && fresh(hit)) return hit.value;
    if (entries.size > 200) {
      for (const [key, entry] of entries) if (!fresh(entry)) entries.delete(key);
    }
    const value = read(testId);
    entries.set(testId, { at, value });
    // A failed read is not kept.
    value.catch(() => {
      if (entries.get(testId)?.value === value) entries.delete(testId);
    });
    return value;
  };
}

/**
 * What the player's parts share: the database, the server's clock, the grace for answers in
 * flight, the prepared reads, and the per-test caches.
 */
export function playerContext(deps: PlayerDeps) {
  const { db } = deps.database;
  const { clock } = deps;
  const graceMs = deps.config.player.answerGraceSeconds * 1000;
  const queries = repo.playerQueries(db);
  const testContent = perTestCache(clock, (testId) => queries.testContent(testId));
  const cutoffOf = (now: Date) => new Date(now.getTime() - graceMs);
  return {
    deps,
    db: db as Db,
    clock,
    queries,
    testContent,
    newItemsJson: perTestCache(clock, async (testId) =>
      unansweredItemsJson(await testContent(testId)),
    ),
    testFacts: perTestCache(clock, (testId) => queries.testFacts(testId)),
    /** Answers are accepted until the deadline plus the grace; this is that moment's deadline. */
    cutoffOf,
    /** Past deadline plus grace: no more answers; the attempt only waits to be finalised. */
    isOverdue: (attempt: AttemptRow, now: Date) =>
      attempt.state === 'in_progress' && attempt.deadlineAt.getTime() < cutoffOf(now).getTime(),
  };
}

export type PlayerContext = ReturnType<typeof playerContext>;
