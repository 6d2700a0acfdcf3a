// Starting the review: what is still running, what to mark, the entries and marks made.

import { and, eq, sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../../db/client.js';
import {
  answers,
  attempts,
  questions,
  reviewEntries,
  reviewMarks,
  testItems,
  tests,
} from '../../../db/schema.js';

/** Whether one of the phase's tests is still open at `now`, or an attempt of it runs. */
export async function hasRunningTests(db: Db, phaseId: string, now: Date): Promise<boolean> {
  const result = await db.execute(sql`
    select 1 from ${tests} t where t.phase_id = ${phaseId} and (
      (t.published and t.end_date > ${now.toISOString()}::timestamptz)
      or exists (select 1 from ${attempts} a where a.test_id = t.id and a.state = 'in_progress'))
    limit 1`);
  return rowsOf(result).length > 0;
}

/** Questions drawn into the phase's tests that people mark (all, or only open ones). */
export async function countQuestionsToMark(
  db: Db,
  phaseId: string,
  openOnly: boolean,
): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(distinct ${testItems.questionId})::int` })
    .from(testItems)
    .innerJoin(tests, eq(tests.id, testItems.testId))
    .innerJoin(questions, eq(questions.id, testItems.questionId))
    .where(and(eq(tests.phaseId, phaseId), openOnly ? eq(questions.itemType, 'open') : undefined));
  return Number(row?.n ?? 0);
}

export async function findPhaseTestIds(db: Db, phaseId: string): Promise<string[]> {
  const rows = await db.select({ id: tests.id }).from(tests).where(eq(tests.phaseId, phaseId));
  return rows.map((r) => r.id);
}

/** How many scanned pages of the phase's tests wait for a person to match them. */
export async function countWaitingScanPages(db: Db, phaseId: string): Promise<number> {
  const rows = rowsOf<{ n: number }>(
    await db.execute(sql`
      select count(*)::int as n from scan_pages sp join tests t on t.id = sp.test_id
      where t.phase_id = ${phaseId} and sp.state = 'waiting'`),
  );
  return rows[0]?.n ?? 0;
}

/** An answer waiting for people to mark it, with what an entry needs. */
export type AnswerToMark = {
  answerId: string;
  testId: string;
  studentId: string;
  itemId: string;
  position: number;
  points: number;
};

/**
 * Answers of the phase's tests that wait for marking and have no entry yet: hybrid answers with
 * pages, online open answers with text (the results module marks them awaiting_marking).
 */
export async function findAnswersToMark(db: Db, phaseId: string): Promise<AnswerToMark[]> {
  const result = await db.execute(sql`
    select a.id as answer_id, a.test_id, a.student_id, a.question_id as item_id,
      ti.position, ti.score as points
    from ${answers} a
    join ${tests} t on t.id = a.test_id
    join ${testItems} ti on ti.test_id = a.test_id and ti.question_id = a.question_id
    where t.phase_id = ${phaseId} and a.score_state = 'awaiting_marking'
      and not exists (select 1 from ${reviewEntries} e where e.answer_id = a.id)
    order by a.test_id, ti.position, a.id`);
  return rowsOf<{
    answer_id: string;
    test_id: string;
    student_id: string;
    item_id: string;
    position: number;
    points: string | number;
  }>(result).map((r) => ({
    answerId: r.answer_id,
    testId: r.test_id,
    studentId: r.student_id,
    itemId: r.item_id,
    position: Number(r.position),
    points: Number(r.points),
  }));
}

export async function insertEntries(db: Db, rows: (typeof reviewEntries.$inferInsert)[]) {
  if (rows.length > 0) await db.insert(reviewEntries).values(rows);
}

export async function insertMarks(db: Db, rows: (typeof reviewMarks.$inferInsert)[]) {
  if (rows.length > 0) await db.insert(reviewMarks).values(rows);
}

/** Open (unmarked) and given marks per reviewer of a phase's entries of one question. */
export async function loadOfQuestion(db: Db, itemId: string): Promise<Map<string, number>> {
  const rows = await db
    .select({ id: reviewMarks.reviewerId, n: sql<number>`count(*)::int` })
    .from(reviewMarks)
    .innerJoin(reviewEntries, eq(reviewEntries.id, reviewMarks.parentId))
    .where(eq(reviewEntries.itemId, itemId))
    .groupBy(reviewMarks.reviewerId);
  return new Map(rows.map((r) => [r.id, Number(r.n)]));
}
