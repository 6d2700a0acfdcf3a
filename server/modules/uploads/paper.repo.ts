import { and, asc, desc, eq, inArray, lt, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import {
  editions,
  paperJobs,
  paperSeats,
  phases,
  scanPages,
  tests,
  users,
} from '../../db/schema.js';

export type SeatRow = typeof paperSeats.$inferSelect;
export type PaperJobRow = typeof paperJobs.$inferSelect;
export type ScanPageRow = typeof scanPages.$inferSelect;

export async function findSeats(db: Db, testId: string): Promise<SeatRow[]> {
  return db.select().from(paperSeats).where(eq(paperSeats.testId, testId));
}

/** Adds the seats not there yet (a code taken meanwhile by another is simply not inserted). */
export async function insertSeats(db: Db, rows: (typeof paperSeats.$inferInsert)[]) {
  if (rows.length === 0) return;
  await db.insert(paperSeats).values(rows).onConflictDoNothing();
}

export async function setSeat(
  db: Db,
  testId: string,
  studentId: string,
  room: string,
  seat: string,
) {
  await db
    .update(paperSeats)
    .set({ room, seat })
    .where(and(eq(paperSeats.testId, testId), eq(paperSeats.studentId, studentId)));
}

export async function insertJob(db: Db, job: typeof paperJobs.$inferInsert) {
  const [row] = await db.insert(paperJobs).values(job).returning();
  if (!row) throw new Error('paper job not inserted');
  return row;
}

export async function findJob(db: Db, testId: string, jobId: string) {
  const [row] = await db
    .select()
    .from(paperJobs)
    .where(and(eq(paperJobs.id, jobId), eq(paperJobs.testId, testId)));
  return row;
}

export async function listJobs(db: Db, testId: string) {
  return db
    .select()
    .from(paperJobs)
    .where(eq(paperJobs.testId, testId))
    .orderBy(desc(paperJobs.createdAt), desc(paperJobs.id))
    .limit(50);
}

/** The received count moved on by `bytes` if it still stood at `offset` (one chunk wins). */
export async function advanceReceived(
  db: Db,
  jobId: string,
  offset: number,
  bytes: number,
): Promise<PaperJobRow | undefined> {
  const [row] = await db
    .update(paperJobs)
    .set({ received: offset + bytes })
    .where(
      and(
        eq(paperJobs.id, jobId),
        eq(paperJobs.state, 'uploading'),
        eq(paperJobs.received, offset),
      ),
    )
    .returning();
  return row;
}

/** The next waiting job, or one whose maker went silent, now running under this take. */
export async function claimJob(db: Db, now: Date, staleBefore: Date) {
  return db.transaction(async (tx) => {
    const [next] = await tx
      .select({ id: paperJobs.id })
      .from(paperJobs)
      .where(
        or(
          eq(paperJobs.state, 'queued'),
          and(eq(paperJobs.state, 'running'), lt(paperJobs.heartbeatAt, staleBefore)),
        ),
      )
      .orderBy(paperJobs.createdAt)
      .limit(1)
      .for('update', { skipLocked: true });
    if (!next) return undefined;
    const [row] = await tx
      .update(paperJobs)
      .set({ state: 'running', heartbeatAt: now, tries: sql`${paperJobs.tries} + 1`, done: 0 })
      .where(eq(paperJobs.id, next.id))
      .returning();
    return row;
  });
}

/** Writes the job's progress or end, only while it is still this take's (`take`). */
export async function updateJob(
  db: Db,
  jobId: string,
  set: Partial<typeof paperJobs.$inferInsert>,
  take?: number,
) {
  const [row] = await db
    .update(paperJobs)
    .set(set)
    .where(
      and(
        eq(paperJobs.id, jobId),
        take === undefined ? undefined : eq(paperJobs.tries, take),
        take === undefined ? undefined : eq(paperJobs.state, 'running'),
      ),
    )
    .returning({ id: paperJobs.id });
  return row !== undefined;
}

/**
 * A page stored as an answer page, claimed before its bytes go to the answer: a second copy
 * of the same student, question and booklet page finds the claim and is a duplicate.
 */
export async function claimStoredPage(db: Db, page: typeof scanPages.$inferInsert) {
  const [row] = await db
    .insert(scanPages)
    .values({ ...page, state: 'stored' })
    .onConflictDoNothing()
    .returning({ id: scanPages.id });
  return row !== undefined;
}

export async function insertPage(db: Db, page: typeof scanPages.$inferInsert) {
  await db.insert(scanPages).values(page);
}

export async function updatePage(
  db: Db,
  pageId: string,
  set: Partial<typeof scanPages.$inferInsert>,
) {
  await db.update(scanPages).set(set).where(eq(scanPages.id, pageId));
}

export async function deletePage(db: Db, pageId: string) {
  await db.delete(scanPages).where(eq(scanPages.id, pageId));
}

export async function listPages(db: Db, testId: string, jobIds?: readonly string[]) {
  return db
    .select()
    .from(scanPages)
    .where(
      and(eq(scanPages.testId, testId), jobIds ? inArray(scanPages.jobId, [...jobIds]) : undefined),
    )
    .orderBy(asc(scanPages.createdAt), asc(scanPages.pageNo));
}

/** The path of ids a test hangs on, for a job that knows only the test. */
export async function findTestIds(db: Db, testId: string) {
  const [row] = await db
    .select({
      examId: editions.examId,
      editionId: phases.editionId,
      phaseId: tests.phaseId,
      testId: tests.id,
    })
    .from(tests)
    .innerJoin(phases, eq(phases.id, tests.phaseId))
    .innerJoin(editions, eq(editions.id, phases.editionId))
    .where(eq(tests.id, testId));
  return row;
}

/** The one who asked for a job, as the actor the job acts for. */
export async function findRequester(db: Db, userId: string) {
  const [row] = await db
    .select({ id: users.id, email: users.email, type: users.type })
    .from(users)
    .where(eq(users.id, userId));
  return row;
}
