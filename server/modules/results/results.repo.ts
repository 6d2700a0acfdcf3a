import { and, eq, inArray, sql } from 'drizzle-orm';
import type { ScoreChangeCause } from '../../../shared/schemas/results.js';
import type { Db } from '../../db/client.js';
import { answers, phases, scoreChanges, testResults, tests } from '../../db/schema.js';
import { uuidv7 } from '../../lib/ids.js';

export type AnswerRow = typeof answers.$inferSelect;
export type ScoreOrigin = NonNullable<AnswerRow['scoreOrigin']>;
export type ScoreState = NonNullable<AnswerRow['scoreState']>;

/** A test and a student: whose result a change touches. */
export type ResultKey = { testId: string; studentId: string };

const parseJson = (text: string | null): unknown => (text === null ? null : JSON.parse(text));

/** Many rows as one jsonb parameter, the same on node-postgres and PGlite. */
const asRecords = (rows: readonly object[]) => sql`${JSON.stringify(rows)}::jsonb`;

/** One item of a test for one student, with what scoring needs and what was scored before. */
export type ScoringRow = {
  testId: string;
  studentId: string;
  itemId: string;
  /** What the item is worth in the test. */
  itemPoints: number;
  itemType: 'single' | 'multiple' | 'numeric' | 'open';
  itemCorrectAnswers: number[] | string | null;
  answerId: string | null;
  submittedAnswer: unknown;
  score: number | null;
  scoreOrigin: ScoreOrigin | null;
  scoreState: ScoreState | null;
};

type ScoringRecord = {
  test_id: string;
  student_id: string;
  item_id: string;
  item_points: string | number;
  item_type: ScoringRow['itemType'];
  key_text: string | null;
  answer_id: string | null;
  answer_text: string | null;
  score: string | number | null;
  score_origin: ScoreOrigin | null;
  score_state: ScoreState | null;
};

const num = (v: string | number) => Number(v);

/** Every item of each (test, student), with the key and the student's answer if any. */
export async function scoringRows(db: Db, keys: readonly ResultKey[]): Promise<ScoringRow[]> {
  if (keys.length === 0) return [];
  const records = keys.map((k) => ({ test_id: k.testId, student_id: k.studentId }));
  const result = await db.execute(sql`
    select p.test_id, p.student_id, ti.question_id as item_id, ti.score as item_points,
      q.item_type, q.item_correct_answers::text as key_text, an.id as answer_id,
      an.submitted_answer::text as answer_text, an.score, an.score_origin, an.score_state
    from jsonb_to_recordset(${asRecords(records)}) as p(test_id uuid, student_id uuid)
    join test_items ti on ti.test_id = p.test_id
    join questions q on q.id = ti.question_id
    left join answers an on an.test_id = p.test_id and an.student_id = p.student_id
      and an.question_id = ti.question_id
    order by p.test_id, p.student_id, ti.position, ti.question_id`);
  return (result as unknown as { rows: ScoringRecord[] }).rows.map((r) => ({
    testId: r.test_id,
    studentId: r.student_id,
    itemId: r.item_id,
    itemPoints: num(r.item_points),
    itemType: r.item_type,
    itemCorrectAnswers: parseJson(r.key_text) as number[] | string | null,
    answerId: r.answer_id,
    submittedAnswer: parseJson(r.answer_text),
    score: r.score === null ? null : num(r.score),
    scoreOrigin: r.score_origin,
    scoreState: r.score_state,
  }));
}

/** An item's points as they are to be stored (a row is created for an item never answered). */
export type ItemScoreWrite = {
  answerId: string;
  testId: string;
  studentId: string;
  itemId: string;
  attemptId: string | null;
  score: number | null;
  origin: ScoreOrigin | null;
  state: ScoreState | null;
};

/** Stores items' points in one statement; an existing answer keeps everything else. */
export async function writeItemScores(
  db: Db,
  rows: readonly ItemScoreWrite[],
  at: Date,
): Promise<void> {
  if (rows.length === 0) return;
  const records = rows.map((r) => ({
    id: r.answerId,
    test_id: r.testId,
    student_id: r.studentId,
    question_id: r.itemId,
    attempt_id: r.attemptId,
    score: r.score,
    score_origin: r.origin,
    score_state: r.state,
  }));
  await db.execute(sql`
    insert into answers as an
      (id, test_id, student_id, question_id, attempt_id, score, score_origin, score_state,
        scored_at)
    select v.id, v.test_id, v.student_id, v.question_id, v.attempt_id, v.score, v.score_origin,
      v.score_state, ${at.toISOString()}::timestamptz
    from jsonb_to_recordset(${asRecords(records)}) as v(id uuid, test_id uuid, student_id uuid,
      question_id uuid, attempt_id uuid, score numeric, score_origin text, score_state text)
    order by v.test_id, v.student_id, v.question_id
    on conflict (test_id, student_id, question_id) do update
      set score = excluded.score, score_origin = excluded.score_origin,
        score_state = excluded.score_state, scored_at = excluded.scored_at,
        attempt_id = coalesce(an.attempt_id, excluded.attempt_id)`);
}

/**
 * Brings `test_results` and `phase_results` in line with the items' points of these
 * (test, student) pairs, in the caller's transaction. Their rows are locked first (in key
 * order), and only then summed, in a later statement: a concurrent change of another item of
 * the same student waits here and is then seen, so a total is never summed from a stale view.
 */
export async function refreshTotals(db: Db, keys: readonly ResultKey[], at: Date) {
  if (keys.length === 0) return;
  const records = keys.map((k) => ({ test_id: k.testId, student_id: k.studentId }));
  const when = sql`${at.toISOString()}::timestamptz`;
  const pairs = sql`(select distinct p.test_id, p.student_id, t.phase_id
      from jsonb_to_recordset(${asRecords(records)}) as p(test_id uuid, student_id uuid)
      join tests t on t.id = p.test_id)`;
  // 1. Take (or create) both rows of every pair, tests before phases, in key order.
  await db.execute(sql`
    with tr as (
      insert into test_results as r (test_id, student_id, phase_id, updated_at)
      select test_id, student_id, phase_id, ${when} from ${pairs} p
      order by test_id, student_id
      on conflict (test_id, student_id) do update set updated_at = excluded.updated_at
      returning phase_id, student_id
    )
    insert into phase_results as r (phase_id, student_id, updated_at)
    select distinct phase_id, student_id, ${when} from tr
    order by phase_id, student_id
    on conflict (phase_id, student_id) do update set updated_at = excluded.updated_at`);
  // 2. The tests' sums; a test whose items were all withdrawn has no result any more.
  await db.execute(sql`
    with p as ${pairs},
    sums as (
      select p.test_id, p.student_id,
        coalesce(sum(a.score) filter (where a.score_state = 'decided'), 0) as points,
        count(a.id) filter (where a.score_state = 'decided') as decided,
        count(a.id) filter (where a.score_state is not null) as handed,
        (select count(*) from test_items ti where ti.test_id = p.test_id) as items
      from p left join answers a on a.test_id = p.test_id and a.student_id = p.student_id
      group by p.test_id, p.student_id
    ),
    gone as (
      delete from test_results r using sums s
      where s.handed = 0 and r.test_id = s.test_id and r.student_id = s.student_id
    )
    update test_results r
    set points = s.points, awaiting_items = greatest(s.items - s.decided, 0), updated_at = ${when}
    from sums s
    where s.handed > 0 and r.test_id = s.test_id and r.student_id = s.student_id`);
  // 3. The phases' sums over their tests (a later statement: it sees step 2's rows).
  await db.execute(sql`
    with p as (select distinct phase_id, student_id from ${pairs} x),
    sums as (
      select p.phase_id, p.student_id, coalesce(sum(tr.points), 0) as points,
        coalesce(sum(tr.awaiting_items), 0) as awaiting, count(tr.test_id) as tests
      from p left join test_results tr on tr.phase_id = p.phase_id and tr.student_id = p.student_id
      group by p.phase_id, p.student_id
    ),
    gone as (
      delete from phase_results r using sums s
      where s.tests = 0 and r.phase_id = s.phase_id and r.student_id = s.student_id
    )
    update phase_results r
    set points = s.points, awaiting_items = s.awaiting, tests = s.tests, updated_at = ${when}
    from sums s
    where s.tests > 0 and r.phase_id = s.phase_id and r.student_id = s.student_id`);
}

/** Clears every item's points of the student's test (a reopened attempt runs again). */
export async function clearItemScores(db: Db, key: ResultKey): Promise<void> {
  await db
    .update(answers)
    .set({ score: null, scoreOrigin: null, scoreState: null, scoredAt: null })
    .where(and(eq(answers.testId, key.testId), eq(answers.studentId, key.studentId)));
}

/** The (test, student) pairs of a test that have a result. */
export async function resultKeysOfTest(db: Db, testId: string): Promise<ResultKey[]> {
  return db
    .select({ testId: testResults.testId, studentId: testResults.studentId })
    .from(testResults)
    .where(eq(testResults.testId, testId));
}

/** How many pages each answer of a test has (hybrid answers), by answer id. */
export async function answerPageCounts(db: Db, testId: string): Promise<Map<string, number>> {
  const rows = await db
    .select({ id: answers.id, pages: sql<number>`cardinality(${answers.fileIds})` })
    .from(answers)
    .where(eq(answers.testId, testId));
  return new Map(rows.map((r) => [r.id, Number(r.pages)]));
}

/** Whether any answer of these items of the test was scored by people. */
export async function hasMarkedItems(
  db: Db,
  testId: string,
  itemIds: readonly string[],
): Promise<boolean> {
  if (itemIds.length === 0) return false;
  const [row] = await db
    .select({ id: answers.id })
    .from(answers)
    .where(
      and(
        eq(answers.testId, testId),
        inArray(answers.questionId, [...itemIds]),
        sql`${answers.scoreOrigin} is not null and ${answers.scoreOrigin} <> 'auto'`,
      ),
    )
    .limit(1);
  return row !== undefined;
}

/** A student's result in a test, with the phase's appeal window that decides "provisional". */
export type TestResultRow = {
  testId: string;
  studentId: string;
  points: number;
  awaitingItems: number;
  decidedItems: number;
  appealEndDate: Date | null;
  state: 'open' | 'closed';
};

const resultColumns = {
  testId: testResults.testId,
  studentId: testResults.studentId,
  points: testResults.points,
  awaitingItems: testResults.awaitingItems,
  decidedItems: sql<number>`(select count(*)::int from ${answers}
    where ${answers.testId} = ${testResults.testId}
      and ${answers.studentId} = ${testResults.studentId}
      and ${answers.scoreState} = 'decided')`,
  appealEndDate: phases.appealEndDate,
  state: phases.state,
};

/** The student's results in these tests (absent: not handed over for scoring yet). */
export async function findTestResults(
  db: Db,
  studentId: string,
  testIds: readonly string[],
): Promise<TestResultRow[]> {
  if (testIds.length === 0) return [];
  return db
    .select(resultColumns)
    .from(testResults)
    .innerJoin(phases, eq(phases.id, testResults.phaseId))
    .where(and(eq(testResults.studentId, studentId), inArray(testResults.testId, [...testIds])));
}

/** One item's stored points as a reader shows them. */
export type ItemScoreRow = {
  itemId: string;
  answerId: string;
  score: number | null;
  scoreOrigin: ScoreOrigin | null;
  scoreState: ScoreState | null;
};

/** The items' points of one student's test (items never answered and not scored: absent). */
export async function findItemScores(
  db: Db,
  testId: string,
  studentId: string,
): Promise<ItemScoreRow[]> {
  return db
    .select({
      itemId: answers.questionId,
      answerId: answers.id,
      score: answers.score,
      scoreOrigin: answers.scoreOrigin,
      scoreState: answers.scoreState,
    })
    .from(answers)
    .where(and(eq(answers.testId, testId), eq(answers.studentId, studentId)));
}

/** How far a phase's totals are from complete, over its tests for one grade (or all). */
export async function phaseCompleteness(db: Db, phaseId: string, grade: number | undefined) {
  const ofGrade = grade === undefined ? sql`true` : sql`${grade}::int = any(${tests.grades})`;
  const result = await db.execute(sql`
    select
      (select coalesce(sum(tr.awaiting_items), 0)::int from ${testResults} tr
        join ${tests} on ${tests.id} = tr.test_id
        where tr.phase_id = ${phaseId} and ${ofGrade}) as awaiting_items,
      (select count(*)::int from ${testResults} tr
        join ${tests} on ${tests.id} = tr.test_id
        where tr.phase_id = ${phaseId} and tr.awaiting_items > 0 and ${ofGrade}) as students,
      (select count(*)::int from attempts at
        join ${tests} on ${tests.id} = at.test_id
        where ${tests.phaseId} = ${phaseId} and at.state = 'in_progress' and ${ofGrade})
        as running_attempts`);
  const [row] = (
    result as unknown as {
      rows: { awaiting_items: number; students: number; running_attempts: number }[];
    }
  ).rows;
  return {
    awaitingItems: Number(row?.awaiting_items ?? 0),
    studentsAwaiting: Number(row?.students ?? 0),
    runningAttempts: Number(row?.running_attempts ?? 0),
  };
}

/** The student's answer to the item, created empty if missing, locked for update. */
export async function lockOrCreateAnswer(
  db: Db,
  row: { id: string; testId: string; studentId: string; questionId: string },
): Promise<AnswerRow> {
  await db
    .insert(answers)
    .values(row)
    .onConflictDoNothing({ target: [answers.testId, answers.studentId, answers.questionId] });
  const [locked] = await db
    .select()
    .from(answers)
    .where(
      and(
        eq(answers.testId, row.testId),
        eq(answers.studentId, row.studentId),
        eq(answers.questionId, row.questionId),
      ),
    )
    .for('update');
  if (!locked) throw new Error('answer not created');
  return locked;
}

/**
 * Sets a hybrid answer's pages (and who entered them); a hybrid answer awaits marking from its
 * first upload.
 */
export async function setAnswerFiles(
  db: Db,
  answerId: string,
  fileIds: string[],
  enteredBy: string | null,
): Promise<AnswerRow> {
  const [row] = await db
    .update(answers)
    .set({
      fileIds,
      enteredBy,
      updatedAt: sql`now()`,
      scoreState: sql`coalesce(${answers.scoreState}, 'awaiting_marking')`,
    })
    .where(eq(answers.id, answerId))
    .returning();
  if (!row) throw new Error('answer not updated');
  return row;
}

/** A decided item's points that moved: appended to `score_changes` with the change's cause. */
export type ScoreChangeWrite = {
  answerId: string;
  testId: string;
  studentId: string;
  itemId: string;
  before: number;
  after: number;
  cause: ScoreChangeCause;
};

export async function appendScoreChanges(
  db: Db,
  rows: readonly ScoreChangeWrite[],
  at: Date,
): Promise<void> {
  if (rows.length === 0) return;
  await db.insert(scoreChanges).values(rows.map((r) => ({ ...r, id: uuidv7(at.getTime()), at })));
}

/** The changes of one student's test, oldest first. */
export async function findScoreChanges(db: Db, testId: string, studentId: string) {
  return db
    .select({
      itemId: scoreChanges.itemId,
      before: scoreChanges.before,
      after: scoreChanges.after,
      cause: scoreChanges.cause,
      at: scoreChanges.at,
    })
    .from(scoreChanges)
    .where(and(eq(scoreChanges.testId, testId), eq(scoreChanges.studentId, studentId)))
    .orderBy(scoreChanges.at, scoreChanges.id);
}
