import type { Database } from '../../db/client.js';
import type { FileStorage } from '../../lib/files/storage.js';
import type { Mailer } from '../../lib/mail/mailer.js';
import { outboxTotals } from '../../lib/mail/outbox.js';

export type Check = { status: 'ok' | 'unavailable'; detail?: string };
export type Readiness = {
  /** `stopping`: the process got SIGTERM and is draining (server/main.ts); balancers leave it. */
  status: 'ok' | 'degraded' | 'stopping';
  database: Check & { kind: Database['kind'] };
  storage: Check & { kind: FileStorage['kind'] };
  mail: Check & { kind: Mailer['kind']; queued: number; retrying: number; failed: number };
};

const CACHE_MS = 10_000;
const why = (error: unknown) =>
  ((error as { message?: string }).message ?? String(error)).slice(0, 200);

/**
 * What readiness reports: the database, the file storage (its bucket) and the mail server,
 * each with why it is unavailable, and how much mail waits or failed. Storage and mail checks
 * are kept 10 s, so a balancer asking every second does not open a connection each time.
 * Once `stopping()` says so, it answers `stopping` with the last checks at once, without
 * asking the database again: a draining instance leaves the balancer as fast as it checks.
 */
export function readinessCheck(deps: {
  database: Database;
  storage: FileStorage;
  mailer: Mailer;
  stopping?: () => boolean;
}) {
  const { database, storage, mailer } = deps;
  let cached: { at: number; storage: Check; mail: Check } | undefined;
  let last: Readiness | undefined;

  const probe = async (run: () => Promise<void>): Promise<Check> =>
    run().then(
      () => ({ status: 'ok' as const }),
      (error: unknown) => ({ status: 'unavailable' as const, detail: why(error) }),
    );

  const check = async (): Promise<Readiness> => {
    const database_ = await probe(() => database.exec('select 1'));
    if (!cached || Date.now() - cached.at > CACHE_MS) {
      const [storageCheck, mailCheck] = await Promise.all([
        probe(() => storage.check()),
        probe(() => mailer.verify()),
      ]);
      cached = { at: Date.now(), storage: storageCheck, mail: mailCheck };
    }
    const totals =
      database_.status === 'ok'
        ? await outboxTotals(database.db).catch(() => undefined)
        : undefined;
    const all = [database_, cached.storage, cached.mail];
    return {
      status: all.every((c) => c.status === 'ok') ? 'ok' : 'degraded',
      database: { ...database_, kind: database.kind },
      storage: { ...cached.storage, kind: storage.kind },
      mail: {
        ...cached.mail,
        kind: mailer.kind,
        queued: (totals?.queued ?? 0) + (totals?.sending ?? 0),
        retrying: totals?.retrying ?? 0,
        failed: totals?.failed ?? 0,
      },
    };
  };
  return async (): Promise<Readiness> => {
    if (deps.stopping?.()) return { ...(last ?? (await check())), status: 'stopping' };
    last = await check();
    return last;
  };
}
