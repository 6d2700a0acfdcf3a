import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
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
import { jobStore } from '../../lib/jobs/jobs.repo.js';
import type { JobStore } from '../../lib/jobs/runner.js';

/** PostgreSQL's unique_violation, also when Drizzle wraps it (DrizzleQueryError.cause). */
function isUniqueViolation(e: unknown): boolean {
  let cause = e;
  for (let depth = 0; depth < 5 && typeof cause === 'object' && cause !== null; depth++) {
    if ((cause as { code?: unknown }).code === '23505') return true;
    cause = (cause as { cause?: unknown }).cause;
  }
  return false;
}

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

/** What a paper job's maker and the scan upload write of it. */
export type JobChange = Partial<typeof paperJobs.$inferInsert>;

/** The paper jobs as the job runner reads and writes them (server/lib/jobs/jobs.repo.ts). */
export const jobs = (db: Db): JobStore<PaperJobRow, JobChange> => jobStore(db, paperJobs);

/** Writes the job's progress or end, only while it is still this take's (`take`). */
export const updateJob = (db: Db, jobId: string, change: JobChange, take?: number) =>
  jobs(db).update(jobId, change, take);

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

export async function findPage(db: Db, testId: string, pageId: string) {
  const [row] = await db
    .select()
    .from(scanPages)
    .where(and(eq(scanPages.id, pageId), eq(scanPages.testId, testId)));
  return row;
}

/**
 * A waiting page named a student's booklet page by a person, if it is still waiting: `taken`
 * when that booklet page is stored already (the partial unique index), `gone` when another
 * person matched or set it aside first.
 */
export async function matchWaitingPage(
  db: Db,
  pageId: string,
  set: { studentId: string; questionId: string; bookletPage: number },
): Promise<'ok' | 'taken' | 'gone'> {
  try {
    const [row] = await db
      .update(scanPages)
      .set({ ...set, state: 'stored' })
      .where(and(eq(scanPages.id, pageId), eq(scanPages.state, 'waiting')))
      .returning({ id: scanPages.id });
    return row ? 'ok' : 'gone';
  } catch (error) {
    if (isUniqueViolation(error)) return 'taken';
    throw error;
  }
}

/** A matched page put back to waiting (its answer page could not be stored). */
export async function unmatchPage(db: Db, pageId: string, fileId: string | null) {
  await db
    .update(scanPages)
    .set({ state: 'waiting', studentId: null, questionId: null, bookletPage: null, fileId })
    .where(eq(scanPages.id, pageId));
}

export async function setPageAside(db: Db, pageId: string) {
  const [row] = await db
    .update(scanPages)
    .set({ state: 'set_aside' })
    .where(and(eq(scanPages.id, pageId), eq(scanPages.state, 'waiting')))
    .returning({ id: scanPages.id });
  return row !== undefined;
}

/** The booklet pages stored of one student's question. */
export async function storedBookletPages(
  db: Db,
  testId: string,
  studentId: string,
  questionId: string,
): Promise<number[]> {
  const rows = await db
    .select({ page: scanPages.bookletPage })
    .from(scanPages)
    .where(
      and(
        eq(scanPages.testId, testId),
        eq(scanPages.studentId, studentId),
        eq(scanPages.questionId, questionId),
        eq(scanPages.state, 'stored'),
      ),
    );
  return rows.flatMap((r) => (r.page === null ? [] : [r.page]));
}

/** The booklet page each of these answer files was scanned as (files not scanned are absent). */
export async function bookletPagesOfFiles(db: Db, fileIds: readonly string[]) {
  if (fileIds.length === 0) return new Map<string, number>();
  const rows = await db
    .select({ fileId: scanPages.fileId, page: scanPages.bookletPage })
    .from(scanPages)
    .where(and(inArray(scanPages.fileId, [...fileIds]), eq(scanPages.state, 'stored')));
  return new Map(
    rows.flatMap((r) =>
      r.fileId === null || r.page === null ? [] : [[r.fileId, r.page] as const],
    ),
  );
}

/** The test's stored answer pages: whose, which question, which booklet page. */
export async function storedPages(db: Db, testId: string) {
  return db
    .select({
      studentId: scanPages.studentId,
      questionId: scanPages.questionId,
      bookletPage: scanPages.bookletPage,
    })
    .from(scanPages)
    .where(and(eq(scanPages.testId, testId), eq(scanPages.state, 'stored')));
}

/** How many of the test's scanned pages wait for a person. */
export async function countWaiting(db: Db, testId: string) {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(scanPages)
    .where(and(eq(scanPages.testId, testId), eq(scanPages.state, 'waiting')));
  return row?.n ?? 0;
}

/** The students of the test with a scanned page of any kind (a cover counts). */
export async function studentsWithPages(db: Db, testId: string) {
  const rows = await db
    .selectDistinct({ studentId: scanPages.studentId })
    .from(scanPages)
    .where(and(eq(scanPages.testId, testId), sql`${scanPages.studentId} is not null`));
  return new Set(rows.flatMap((r) => (r.studentId ? [r.studentId] : [])));
}
