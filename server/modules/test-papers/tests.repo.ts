import { and, asc, eq, exists, inArray, isNull, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import {
  answers,
  attempts,
  editions,
  exams,
  phases,
  questions,
  testGrades,
  testItems,
  tests,
} from '../../db/schema.js';
import type { BankQuestion } from './generate-test.js';

export type TestRow = typeof tests.$inferSelect;
export type NewTestRow = typeof tests.$inferInsert;
/** How many of a test's questions the draw took from each category (SPEC.md §3 Test). */
export type CategoryCount = { category: string; count: number };
export type TestListRow = TestRow & { itemCount: number; categoryCounts: CategoryCount[] };

/**
 * Locks the phase row while its tests change: tests are drawn, deleted and published one
 * call at a time per phase, and bank changes (which take the row FOR SHARE) wait meanwhile.
 * NO KEY UPDATE so that rows merely referencing the phase (enrolments) are not held up.
 */
export async function lockPhase(db: Db, phaseId: string) {
  const [row] = await db
    .select({
      id: phases.id,
      state: phases.state,
      startDate: phases.startDate,
      endDate: phases.endDate,
    })
    .from(phases)
    .where(and(eq(phases.id, phaseId), isNull(phases.deletedAt)))
    .for('no key update');
  return row;
}

/** Live questions of the phase for these grades whose discipline is the subject (any case). */
export async function findBank(
  db: Db,
  phaseId: string,
  grades: number[],
  subject: string,
): Promise<BankQuestion[]> {
  return db
    .select({
      id: questions.id,
      difficulty: questions.difficulty,
      category: questions.itemCategory,
    })
    .from(questions)
    .where(
      and(
        eq(questions.phaseId, phaseId),
        isNull(questions.deletedAt),
        inArray(questions.itemGrade, grades),
        sql`lower(trim(${questions.itemDiscipline})) = lower(trim(${subject}))`,
      ),
    )
    .orderBy(asc(questions.id));
}

/** Grades among `grades` that already have a test in the phase. */
export async function findTakenGrades(db: Db, phaseId: string, grades: number[]) {
  const rows = await db
    .select({ grade: testGrades.grade })
    .from(testGrades)
    .where(and(eq(testGrades.phaseId, phaseId), inArray(testGrades.grade, grades)));
  return rows.map((r) => r.grade);
}

/** Inserts the test, its grades (the key phase+grade refuses a taken grade) and its items. */
export async function insertTest(
  db: Db,
  row: NewTestRow,
  items: { questionId: string; position: number; score: number }[],
): Promise<TestRow> {
  const [created] = await db.insert(tests).values(row).returning();
  if (!created) throw new Error('test not inserted');
  await db
    .insert(testGrades)
    .values(row.grades.map((grade) => ({ phaseId: row.phaseId, grade, testId: created.id })));
  if (items.length > 0) {
    await db.insert(testItems).values(items.map((item) => ({ testId: created.id, ...item })));
  }
  return created;
}

const withItemCount = {
  test: tests,
  itemCount: sql<number>`(select count(*)::int from ${testItems}
    where ${testItems.testId} = ${tests.id})`,
  // Categories as the draw groups them (generate-test.ts, categoryKey): 'Algebră' and
  // ' algebră ' are one, named as first written; no category is '' (most first, then by name).
  // Names are written out: in a one-table select drizzle leaves columns unqualified, and an
  // unqualified "id" in here would be the question's, not the test's.
  categoryCounts: sql<CategoryCount[]>`(select coalesce(json_agg(json_build_object(
      'category', c.category, 'count', c.n) order by c.n desc, c.category), '[]'::json)
    from (select min(trim(coalesce(q.item_category, ''))) as category, count(*)::int as n
      from test_items ti join questions q on q.id = ti.question_id
      where ti.test_id = "tests"."id"
      group by lower(trim(coalesce(q.item_category, '')))) c)`,
};
const flatten = (r: {
  test: TestRow;
  itemCount: number;
  categoryCounts: CategoryCount[] | string;
}): TestListRow => ({
  ...r.test,
  itemCount: Number(r.itemCount),
  // pg parses json; PGlite may hand it over as text.
  categoryCounts:
    typeof r.categoryCounts === 'string' ? JSON.parse(r.categoryCounts) : r.categoryCounts,
});

/** The phase's tests by their first grade. */
export async function listTests(db: Db, phaseId: string): Promise<TestListRow[]> {
  const rows = await db
    .select(withItemCount)
    .from(tests)
    .where(eq(tests.phaseId, phaseId))
    .orderBy(sql`${tests.grades}[1]`, asc(tests.name), asc(tests.id));
  return rows.map(flatten);
}

/** A test of the phase; `lock` holds its row until the transaction ends. */
export async function findTest(
  db: Db,
  phaseId: string,
  testId: string,
  lock = false,
): Promise<TestListRow | undefined> {
  const query = db
    .select(withItemCount)
    .from(tests)
    .where(and(eq(tests.id, testId), eq(tests.phaseId, phaseId)));
  const [row] = lock ? await query.for('update', { of: tests }) : await query;
  return row ? flatten(row) : undefined;
}

/** Whether the path names a live test, whoever asks (for 403 rather than 404 on the paper). */
export async function testOnPath(
  db: Db,
  p: { examId: string; editionId: string; phaseId: string; testId: string },
): Promise<boolean> {
  const [row] = await db
    .select({ id: tests.id })
    .from(tests)
    .innerJoin(phases, eq(phases.id, tests.phaseId))
    .innerJoin(editions, eq(editions.id, phases.editionId))
    .innerJoin(exams, eq(exams.id, editions.examId))
    .where(
      and(
        eq(tests.id, p.testId),
        eq(phases.id, p.phaseId),
        eq(editions.id, p.editionId),
        eq(exams.id, p.examId),
        isNull(phases.deletedAt),
        isNull(editions.deletedAt),
        isNull(exams.deletedAt),
      ),
    );
  return row !== undefined;
}

/** Sets each item's worth in the test, in one statement. */
export async function setItemScores(
  db: Db,
  testId: string,
  assigned: readonly { itemId: string; score: number }[],
): Promise<void> {
  if (assigned.length === 0) return;
  const records = assigned.map((a) => ({ question_id: a.itemId, score: a.score }));
  await db.execute(sql`
    update ${testItems} set score = v.score
    from jsonb_to_recordset(${JSON.stringify(records)}::jsonb) as v(question_id uuid, score numeric)
    where ${testItems.testId} = ${testId} and ${testItems.questionId} = v.question_id`);
}

/** Deletes the test; its grades and items go with it (ON DELETE CASCADE). */
export async function deleteTest(db: Db, testId: string): Promise<void> {
  await db.delete(tests).where(eq(tests.id, testId));
}

/** Publishes the phase's unpublished tests; their ids. */
export async function publishTests(db: Db, phaseId: string): Promise<string[]> {
  const rows = await db
    .update(tests)
    .set({ published: true, updatedAt: sql`now()` })
    .where(and(eq(tests.phaseId, phaseId), eq(tests.published, false)))
    .returning({ id: tests.id });
  return rows.map((r) => r.id);
}

export type TestItemRow = {
  questionId: string;
  position: number;
  score: number;
  itemQ: string;
  itemType: (typeof questions.$inferSelect)['itemType'];
  itemAnswers: string[];
  itemCorrectAnswers: number[] | string | null;
  itemCategory: string | null;
  itemGrade: number;
  difficulty: (typeof questions.$inferSelect)['difficulty'];
  imageFileId: string | null;
};

/**
 * A numeric answer is meant to be stored as a JSON string, but a string bound to a jsonb
 * column reaches the database as JSON text, so '42' is stored as the number 42 (PGlite and
 * PostgreSQL alike): read numbers back as text.
 */
const correctAnswersOf = (value: unknown): number[] | string | null =>
  typeof value === 'number' ? String(value) : ((value ?? null) as number[] | string | null);

/** The test's questions in order, with their scores (correct answers too: the DTO decides). */
export async function findTestItems(db: Db, testId: string): Promise<TestItemRow[]> {
  const rows = await db
    .select({
      questionId: testItems.questionId,
      position: testItems.position,
      score: testItems.score,
      itemQ: questions.itemQ,
      itemType: questions.itemType,
      itemAnswers: questions.itemAnswers,
      itemCorrectAnswers: questions.itemCorrectAnswers,
      itemCategory: questions.itemCategory,
      itemGrade: questions.itemGrade,
      difficulty: questions.difficulty,
      imageFileId: questions.imageFileId,
    })
    .from(testItems)
    .innerJoin(questions, eq(questions.id, testItems.questionId))
    .where(eq(testItems.testId, testId))
    .orderBy(asc(testItems.position));
  return rows.map((r) => ({ ...r, itemCorrectAnswers: correctAnswersOf(r.itemCorrectAnswers) }));
}

/** Whether any attempt or answer (online or uploaded) exists for one of these tests. */
export async function hasAttempts(db: Db, testIds: readonly string[]): Promise<boolean> {
  if (testIds.length === 0) return false;
  const ids = [...testIds];
  const [row] = await db
    .select({ yes: sql<number>`1` })
    .from(sql`(select 1) as one`)
    .where(
      or(
        exists(db.select({ x: sql`1` }).from(attempts).where(inArray(attempts.testId, ids))),
        exists(db.select({ x: sql`1` }).from(answers).where(inArray(answers.testId, ids))),
      ),
    );
  return row !== undefined;
}
