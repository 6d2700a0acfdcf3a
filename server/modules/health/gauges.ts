import { sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../db/client.js';
import type { Clock } from '../../lib/clock.js';
import type { Metrics } from '../../lib/metrics.js';

// What the operator's scrape reads from the database: the state of exam day and of the
// background work. These are reads across the modules' tables, made only here, for watching;
// each module still writes its own tables alone.

/** Whole numbers and seconds come back from PostgreSQL as text or numbers: one number. */
const num = (v: unknown) => (v === null || v === undefined ? 0 : Number(v));

/**
 * Registers the database gauges: attempts open, how far the sweeper lags behind the oldest
 * deadline it should have ended (grace included), and the queues of mail, ranking rebuilds and
 * diploma jobs, with the mail that failed.
 */
export function registerDatabaseGauges(
  metrics: Metrics,
  db: Db,
  clock: Clock,
  graceSeconds: number,
) {
  metrics.databaseGauge({
    name: 'podium_attempts_open',
    help: 'Online test attempts in progress',
    read: async () => {
      const [row] = rowsOf<{ n: unknown }>(
        await db.execute(sql`select count(*) as n from attempts where state = 'in_progress'`),
      );
      return [{ value: num(row?.n) }];
    },
  });
  metrics.databaseGauge({
    name: 'podium_sweeper_lag_seconds',
    help: 'How long the oldest attempt past its deadline and grace has waited to be ended (0: none)',
    read: async () => {
      // The server's clock decides deadlines, not the database's.
      const due = new Date(clock.now().getTime() - graceSeconds * 1000);
      const [row] = rowsOf<{ oldest: unknown }>(
        await db.execute(sql`
          select min(deadline_at) as oldest from attempts
          where state = 'in_progress' and deadline_at < ${due.toISOString()}`),
      );
      const oldest = row?.oldest ? new Date(row.oldest as string | Date).getTime() : undefined;
      return [{ value: oldest === undefined ? 0 : (due.getTime() - oldest) / 1000 }];
    },
  });
  metrics.databaseGauge({
    name: 'podium_mail_outbox',
    help: 'Mail in the outbox by state (queued, sending, retrying, failed, limited)',
    labelNames: ['state'],
    read: async () => {
      const rows = rowsOf<{ state: string; n: unknown }>(
        await db.execute(sql`
          select state, count(*) as n from mail_outbox
          where state <> 'sent' group by state`),
      );
      return ['queued', 'sending', 'retrying', 'failed', 'limited'].map((state) => ({
        labels: { state },
        value: num(rows.find((r) => r.state === state)?.n),
      }));
    },
  });
  metrics.databaseGauge({
    name: 'podium_jobs_waiting',
    help: 'Background work waiting, by queue (ranking rebuilds, diploma jobs queued or running)',
    labelNames: ['queue'],
    read: async () => {
      const [row] = rowsOf<{ rankings: unknown; diplomas: unknown }>(
        await db.execute(sql`
          select
            (select count(*) from ranking_state where wanted_at is not null) as rankings,
            (select count(*) from diploma_jobs where state in ('queued', 'running')) as diplomas`),
      );
      return [
        { labels: { queue: 'ranking-rebuilds' }, value: num(row?.rankings) },
        { labels: { queue: 'diploma-jobs' }, value: num(row?.diplomas) },
      ];
    },
  });
}
