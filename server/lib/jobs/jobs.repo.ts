import { and, eq, lt, or, sql } from 'drizzle-orm';
import type { AnyPgColumn, PgTable, PgUpdateSetSource } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client.js';

/**
 * A table of background jobs (diploma_jobs, paper_jobs): the columns the job runner
 * (runner.ts) reads and writes, whatever else each kind keeps beside them.
 */
export type JobTable = PgTable & {
  id: AnyPgColumn;
  state: AnyPgColumn;
  tries: AnyPgColumn;
  done: AnyPgColumn;
  heartbeatAt: AnyPgColumn;
  createdAt: AnyPgColumn;
  $inferSelect: { id: string; tries: number };
};

/**
 * Takes the oldest waiting job of `table` (or a running one whose maker stopped beating
 * before `staleBefore`) for this process, skipping those another process holds (SKIP LOCKED),
 * as a new take (`tries` + 1); undefined when there is none.
 */
export async function claimJob<T extends JobTable>(
  db: Db,
  table: T,
  now: Date,
  staleBefore: Date,
): Promise<T['$inferSelect'] | undefined> {
  return db.transaction(async (tx) => {
    const [next] = await tx
      .select({ id: table.id })
      .from(table as PgTable)
      .where(
        or(
          eq(table.state, 'queued'),
          and(eq(table.state, 'running'), lt(table.heartbeatAt, staleBefore)),
        ),
      )
      .orderBy(table.createdAt)
      .limit(1)
      .for('update', { skipLocked: true });
    if (!next) return undefined;
    const rows = await tx
      .update(table)
      .set({
        state: 'running',
        heartbeatAt: now,
        tries: sql`${table.tries} + 1`,
        done: 0,
      } as PgUpdateSetSource<T>)
      .where(eq(table.id, next.id))
      .returning();
    return (rows as T['$inferSelect'][])[0];
  });
}

/**
 * Changes a job; with `take` (the `tries` of the claim a maker holds) only while that claim
 * is still the job's and it runs, so a maker whose job was taken over changes nothing.
 * Answers whether the row was changed.
 */
export async function updateJob<T extends JobTable>(
  db: Db,
  table: T,
  jobId: string,
  change: Partial<T['$inferInsert']>,
  take?: number,
): Promise<boolean> {
  const rows = await db
    .update(table)
    .set(change as PgUpdateSetSource<T>)
    .where(
      and(
        eq(table.id, jobId),
        take === undefined ? undefined : and(eq(table.tries, take), eq(table.state, 'running')),
      ),
    )
    .returning({ id: table.id });
  return rows.length > 0;
}

/** The runner's reads and writes (runner.ts JobStore) of one job table. */
export function jobStore<T extends JobTable>(db: Db, table: T) {
  return {
    claim: (now: Date, staleBefore: Date) => claimJob(db, table, now, staleBefore),
    update: (jobId: string, change: Partial<T['$inferInsert']>, take?: number) =>
      updateJob(db, table, jobId, change, take),
  };
}
