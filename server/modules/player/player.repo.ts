import { and, asc, eq, gte, inArray, isNull, lt, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { MAX_TYPED_ANSWER_LENGTH } from '../../../shared/schemas/player.js';
import { STATEMENT_FILE_PREFIX } from '../../../shared/statement.js';
import type { Database, Db } from '../../db/client.js';
import {
  answers,
  attempts,
  editionStudents,
  editions,
  exams,
  files,
  phaseStudents,
  phases,
  questions,
  testItems,
  tests,
  users,
} from '../../db/schema.js';

export type AttemptRow = typeof attempts.$inferSelect;

/**
 * A jsonb column read as its JSON text and parsed here: a driver that decodes JSON twice
 * would turn the typed answer "3.5" into the number 3.5 (or "null" into null).
 */
const jsonText = <T>(column: AnyPgColumn) =>
  sql<T | null>`${column}::text`.mapWith((text: string | null) =>
    text === null ? null : (JSON.parse(text) as T),
  );

/** A test with its competition's names and what decides whether it is this student's. */
export type StudentTestRow = {
  testId: string;
  name: string;
  subject: string;
  grades: number[];
  startDate: Date;
  endDate: Date;
  durationMinutes: number;
  totalScore: number;
  seed: string;
  published: boolean;
  phaseId: string;
  phaseName: string;
  phaseType: 'online' | 'hybrid';
  phaseState: 'open' | 'closed';
  editionId: string;
  editionName: string;
  examId: string;
  examName: string;
  registered: boolean;
  grade: number | null;
};

const studentId = sql.placeholder('studentId');
const testIdParam = sql.placeholder('testId');

/** A test with its competition: what every student of it reads alike. */
const testFactsColumns = {
  testId: tests.id,
  name: tests.name,
  subject: tests.subject,
  grades: tests.grades,
  startDate: tests.startDate,
  endDate: tests.endDate,
  durationMinutes: tests.durationMinutes,
  totalScore: tests.totalScore,
  seed: tests.seed,
  published: tests.published,
  phaseId: phases.id,
  phaseName: phases.name,
  phaseType: phases.type,
  phaseState: phases.state,
  editionId: editions.id,
  editionName: editions.name,
  examId: exams.id,
  examName: exams.name,
};

/** The test, the student's facts about it and their attempt. */
const studentTestColumns = {
  ...testFactsColumns,
  registered: sql<boolean>`${phaseStudents.studentId} is not null`,
  // The grade the student is enrolled with in this edition; their profile grade otherwise.
  grade: sql<
    number | null
  >`coalesce(${editionStudents.grade}, (select ${users.grade} from ${users} where ${users.id} = ${studentId}))`,
  // The student's attempt, if any (flat: a left join).
  attemptId: attempts.id,
  attemptState: attempts.state,
  attemptStartedAt: attempts.startedAt,
  attemptDeadlineAt: attempts.deadlineAt,
  attemptExtraSeconds: attempts.extraSeconds,
  attemptItemOrder: attempts.itemOrder,
  attemptFinishedAt: attempts.finishedAt,
  attemptFinishedBy: attempts.finishedBy,
  attemptScore: attempts.score,
  attemptCreatedAt: attempts.createdAt,
};

function studentTestQuery(db: Db, registeredOnly: boolean) {
  const phaseStudent = and(
    eq(phaseStudents.phaseId, phases.id),
    eq(phaseStudents.studentId, studentId),
  );
  const base = db
    .select(studentTestColumns)
    .from(tests)
    .innerJoin(phases, and(eq(phases.id, tests.phaseId), isNull(phases.deletedAt)))
    .innerJoin(editions, and(eq(editions.id, phases.editionId), isNull(editions.deletedAt)))
    .innerJoin(exams, and(eq(exams.id, editions.examId), isNull(exams.deletedAt)));
  const withStudent = registeredOnly
    ? base.innerJoin(phaseStudents, phaseStudent)
    : base.leftJoin(phaseStudents, phaseStudent);
  return withStudent
    .leftJoin(
      editionStudents,
      and(eq(editionStudents.editionId, editions.id), eq(editionStudents.studentId, studentId)),
    )
    .leftJoin(attempts, and(eq(attempts.testId, tests.id), eq(attempts.studentId, studentId)));
}

type StudentTestSelect = Awaited<
  ReturnType<ReturnType<typeof studentTestQuery>['execute']>
>[number];

/** A test with the student's facts and their attempt. */
export type StudentTestWithAttempt = { test: StudentTestRow; attempt: AttemptRow | undefined };

function splitRow(row: StudentTestSelect, forStudent: string): StudentTestWithAttempt {
  const {
    attemptId,
    attemptState,
    attemptStartedAt,
    attemptDeadlineAt,
    attemptExtraSeconds,
    attemptItemOrder,
    attemptFinishedAt,
    attemptFinishedBy,
    attemptScore,
    attemptCreatedAt,
    ...test
  } = row;
  const attempt: AttemptRow | undefined =
    attemptId === null ||
    attemptState === null ||
    attemptStartedAt === null ||
    attemptDeadlineAt === null ||
    attemptCreatedAt === null
      ? undefined
      : {
          id: attemptId,
          testId: test.testId,
          studentId: forStudent,
          state: attemptState,
          startedAt: attemptStartedAt,
          deadlineAt: attemptDeadlineAt,
          extraSeconds: attemptExtraSeconds ?? 0,
          itemOrder: attemptItemOrder ?? [],
          finishedAt: attemptFinishedAt,
          finishedBy: attemptFinishedBy,
          score: attemptScore,
          createdAt: attemptCreatedAt,
        };
  return { test, attempt };
}

/**
 * The hot reads of exam day as prepared statements: built once, and on PostgreSQL parsed and
 * planned once per connection.
 */
export function playerQueries(db: Db) {
  const oneTest = studentTestQuery(db, false)
    .where(eq(tests.id, testIdParam))
    .prepare('player_student_test_v1');
  const allTests = studentTestQuery(db, true)
    .where(eq(tests.published, true))
    .orderBy(asc(tests.startDate), asc(tests.name), asc(tests.id))
    .prepare('player_student_tests_v1');
  // The test with its competition, without any student: what a start needs to know first.
  const facts = db
    .select(testFactsColumns)
    .from(tests)
    .innerJoin(phases, and(eq(phases.id, tests.phaseId), isNull(phases.deletedAt)))
    .innerJoin(editions, and(eq(editions.id, phases.editionId), isNull(editions.deletedAt)))
    .innerJoin(exams, and(eq(exams.id, editions.examId), isNull(exams.deletedAt)))
    .where(eq(tests.id, testIdParam))
    .prepare('player_test_facts_v1');
  // What every student of the test sees alike: the items' statements and worth.
  const content = db
    .select({
      itemId: testItems.questionId,
      score: testItems.score,
      itemQ: questions.itemQ,
      itemType: questions.itemType,
      itemAnswers: questions.itemAnswers,
      imageFileId: questions.imageFileId,
    })
    .from(testItems)
    .innerJoin(questions, eq(questions.id, testItems.questionId))
    .where(eq(testItems.testId, testIdParam))
    .prepare('player_test_content_v1');
  // What is the student's own: their stored answers.
  const stored = db
    .select({
      itemId: answers.questionId,
      submittedAnswer: jsonText<unknown>(answers.submittedAnswer),
      seq: answers.seq,
      awardedScore: answers.score,
    })
    .from(answers)
    .where(and(eq(answers.testId, testIdParam), eq(answers.studentId, studentId)))
    .prepare('player_student_answers_v1');
  const attemptInsert = db
    .insert(attempts)
    .values({
      id: sql.placeholder('id'),
      testId: testIdParam,
      studentId,
      state: 'in_progress',
      startedAt: sql.placeholder('startedAt'),
      deadlineAt: sql.placeholder('deadlineAt'),
      itemOrder: sql.placeholder('itemOrder'),
    })
    .onConflictDoNothing({ target: [attempts.testId, attempts.studentId] })
    .returning()
    .prepare('player_attempt_insert_v1');
  const attemptRead = db
    .select()
    .from(attempts)
    .where(and(eq(attempts.testId, testIdParam), eq(attempts.studentId, studentId)))
    .prepare('player_attempt_read_v1');

  return {
    /** One test with the student's facts and attempt (undefined: no such test). */
    async studentTest(forStudent: string, testId: string) {
      const [row] = await oneTest.execute({ studentId: forStudent, testId });
      return row ? splitRow(row, forStudent) : undefined;
    },
    /** Published tests of every phase the student is registered for (grades: policy). */
    async studentTests(forStudent: string) {
      const rows = await allTests.execute({ studentId: forStudent });
      return rows.map((row) => splitRow(row, forStudent));
    },
    /** The test and its competition, whoever asks (undefined: no such test). */
    async testFacts(testId: string): Promise<TestFactsRow | undefined> {
      const [row] = await facts.execute({ testId });
      return row;
    },
    /** The test's items as every student sees them (never the correct answers). */
    testContent(testId: string): Promise<ItemContentRow[]> {
      return content.execute({ testId });
    },
    /** The student's stored answers to the test. */
    storedAnswers(testId: string, forStudent: string): Promise<StoredAnswerRow[]> {
      return stored.execute({ testId, studentId: forStudent });
    },
    /**
     * Creates the attempt unless one exists (two starts at once both end with the same one).
     * Returns the attempt as stored.
     */
    async insertAttempt(row: {
      id: string;
      testId: string;
      studentId: string;
      startedAt: Date;
      deadlineAt: Date;
      itemOrder: string[];
    }): Promise<AttemptRow> {
      const [created] = await attemptInsert.execute(row);
      if (created) return created;
      const [existing] = await attemptRead.execute(row);
      if (!existing) throw new Error('attempt neither inserted nor found');
      return existing;
    },
  };
}

export type PlayerQueries = ReturnType<typeof playerQueries>;

export async function findAttempt(
  db: Db,
  testId: string,
  studentId: string,
  lock?: 'update',
): Promise<AttemptRow | undefined> {
  const query = db
    .select()
    .from(attempts)
    .where(and(eq(attempts.testId, testId), eq(attempts.studentId, studentId)));
  const [row] = lock ? await query.for('update') : await query;
  return row;
}

/** Tests (of these) where the student has at least one answer: a hybrid upload counts. */
export async function testsWithAnswers(
  db: Db,
  studentId: string,
  testIds: readonly string[],
): Promise<Set<string>> {
  if (testIds.length === 0) return new Set();
  const rows = await db
    .selectDistinct({ testId: answers.testId })
    .from(answers)
    .where(and(eq(answers.studentId, studentId), inArray(answers.testId, [...testIds])));
  return new Set(rows.map((r) => r.testId));
}

/** A test with its competition, without the student's facts. */
export type TestFactsRow = Omit<StudentTestRow, 'registered' | 'grade'>;

/** An item of a test as every student sees it. */
export type ItemContentRow = {
  itemId: string;
  score: number;
  itemQ: string;
  itemType: 'single' | 'multiple' | 'numeric' | 'open';
  itemAnswers: string[];
  imageFileId: string | null;
};

/** One stored answer of a student. */
export type StoredAnswerRow = {
  itemId: string;
  submittedAnswer: unknown;
  seq: number;
  awardedScore: number | null;
};

export type AttemptItemRow = {
  itemId: string;
  score: number;
  itemQ: string;
  itemType: 'single' | 'multiple' | 'numeric' | 'open';
  itemAnswers: string[];
  imageFileId: string | null;
  submittedAnswer: unknown;
  seq: number | null;
  awardedScore: number | null;
};

export type ScoringItemRow = {
  itemId: string;
  score: number;
  itemType: 'single' | 'multiple' | 'numeric' | 'open';
  itemCorrectAnswers: number[] | string | null;
  /** The student's stored answer to it, if any. */
  answerId: string | null;
  submittedAnswer: unknown;
};

/**
 * What scoring needs, in one read: each item's worth, type and correct answer, with the
 * student's stored answer. Server-side only.
 */
export async function scoringRows(
  db: Db,
  testId: string,
  forStudent: string,
): Promise<ScoringItemRow[]> {
  return db
    .select({
      itemId: testItems.questionId,
      score: testItems.score,
      itemType: questions.itemType,
      itemCorrectAnswers: jsonText<number[] | string>(questions.itemCorrectAnswers),
      answerId: answers.id,
      submittedAnswer: jsonText<unknown>(answers.submittedAnswer),
    })
    .from(testItems)
    .innerJoin(questions, eq(questions.id, testItems.questionId))
    .leftJoin(
      answers,
      and(
        eq(answers.testId, testItems.testId),
        eq(answers.studentId, forStudent),
        eq(answers.questionId, testItems.questionId),
      ),
    )
    .where(eq(testItems.testId, testId));
}

/** The stored answer of one item (its seq and when it was saved). */
export async function storedAnswer(db: Db, testId: string, forStudent: string, itemId: string) {
  const [row] = await db
    .select({ seq: answers.seq, updatedAt: answers.updatedAt })
    .from(answers)
    .where(
      and(
        eq(answers.testId, testId),
        eq(answers.studentId, forStudent),
        eq(answers.questionId, itemId),
      ),
    );
  return row;
}

/** Writes every answer's automatic score in one statement (null clears it). */
export async function setAnswerScores(
  db: Db,
  scores: readonly { id: string; score: number | null }[],
): Promise<void> {
  if (scores.length === 0) return;
  await db.execute(sql`
    update ${answers} set score = v.score
    from jsonb_to_recordset(${JSON.stringify(scores)}::jsonb) as v(id uuid, score numeric)
    where ${answers.id} = v.id`);
}

export async function clearAnswerScores(db: Db, testId: string, studentId: string) {
  await db
    .update(answers)
    .set({ score: null })
    .where(and(eq(answers.testId, testId), eq(answers.studentId, studentId)));
}

export async function updateAttempt(
  db: Db,
  id: string,
  patch: Partial<
    Pick<
      AttemptRow,
      'state' | 'deadlineAt' | 'extraSeconds' | 'finishedAt' | 'finishedBy' | 'score'
    >
  >,
): Promise<AttemptRow> {
  const [row] = await db.update(attempts).set(patch).where(eq(attempts.id, id)).returning();
  if (!row) throw new Error('attempt vanished');
  return row;
}

/**
 * Overdue attempts (deadline before `cutoff`, i.e. past deadline plus grace), locked for this
 * transaction; rows another instance holds are skipped, so several sweepers share the work.
 */
export async function lockOverdueAttempts(
  db: Db,
  cutoff: Date,
  limit: number,
): Promise<AttemptRow[]> {
  return db
    .select()
    .from(attempts)
    .where(and(eq(attempts.state, 'in_progress'), lt(attempts.deadlineAt, cutoff)))
    .orderBy(asc(attempts.deadlineAt))
    .limit(limit)
    .for('update', { skipLocked: true });
}

/**
 * Whether anyone may still write this test: an attempt running whose deadline is not before
 * `cutoff` (now minus grace). Correct answers stay hidden meanwhile.
 */
export async function hasRunningAttempt(db: Db, testId: string, cutoff: Date): Promise<boolean> {
  const [row] = await db
    .select({ id: attempts.id })
    .from(attempts)
    .where(
      and(
        eq(attempts.testId, testId),
        eq(attempts.state, 'in_progress'),
        gte(attempts.deadlineAt, cutoff),
      ),
    )
    .limit(1);
  return row !== undefined;
}

/** A file a statement of this test shows (its image, or an image in its Markdown). */
export async function findTestFile(db: Db, testId: string, fileId: string) {
  const [row] = await db
    .select({ storageKey: files.storageKey, mime: files.mime })
    .from(files)
    .where(
      and(
        eq(files.id, fileId),
        sql`exists (
          select 1 from ${testItems} join ${questions} on ${questions.id} = ${testItems.questionId}
          where ${testItems.testId} = ${testId}
            and (${questions.imageFileId} = ${fileId}
              or position(${STATEMENT_FILE_PREFIX + fileId} in ${questions.itemQ}) > 0))`,
      ),
    );
  return row;
}

// ---------------------------------------------------------------------------------------
// The answer write: one statement, one round trip.

/**
 * Resolves the session, checks the attempt (running, not past deadline plus grace, the item
 * is one of its items) and the answer's shape against the item, and upserts the answer keeping
 * the highest `seq`, all in one statement. The attempt row is taken FOR KEY SHARE, which
 * waits for a finish (FOR UPDATE) and then sees the attempt finished, so no answer is stored
 * after the answers were scored. No row back means nothing was written: the caller finds out
 * why on the slow path.
 *
 * Parameters: $1 token hash, $2 server now, $3 cutoff (now - grace), $4 test id, $5 item id,
 * $6 answer (jsonb or null), $7 seq, $8 new answer id, $9 answer kind ('null' | 'array' |
 * 'string'), $10 array length or string length, $11 highest index (-1 if none).
 */
export const ANSWER_UPSERT_SQL = `
with s as (
  select u.id from sessions se join users u on u.id = se.user_id
  where se.token_hash = $1 and se.revoked_at is null and se.expires_at > $2::timestamptz
    and u.deleted_at is null and u.type = 'student' and u.state = 'active' and u.registered
), a as (
  select at.id, at.student_id, at.deadline_at from attempts at
  where at.test_id = $4::uuid and at.student_id = (select id from s)
    and at.state = 'in_progress' and at.deadline_at >= $3::timestamptz
    and $5::uuid = any(at.item_order)
  for key share
), q as (
  select 1 from questions q
  where q.id = $5::uuid and case $9::text
    when 'null' then true
    when 'array' then q.item_type in ('single', 'multiple')
      and (q.item_type = 'multiple' or $10::int <= 1)
      and $11::int < jsonb_array_length(q.item_answers)
    else (q.item_type = 'open' or (q.item_type = 'numeric' and $10::int <= ${MAX_TYPED_ANSWER_LENGTH}))
  end
)
insert into answers as an
  (id, test_id, student_id, question_id, attempt_id, submitted_answer, seq, updated_at)
select $8::uuid, $4::uuid, a.student_id, $5::uuid, a.id, $6::jsonb, $7::int, $2::timestamptz
from a, q
on conflict (test_id, student_id, question_id) do update
  set submitted_answer = excluded.submitted_answer, seq = excluded.seq,
      updated_at = excluded.updated_at, attempt_id = excluded.attempt_id
  where an.seq < excluded.seq
returning an.seq, (extract(epoch from an.updated_at) * 1000)::float8 as saved_ms,
  (extract(epoch from (select a.deadline_at from a)) * 1000)::float8 as deadline_ms`;

export type AnswerUpsertParams = [
  tokenHash: string,
  now: string,
  cutoff: string,
  testId: string,
  itemId: string,
  answer: string | null,
  seq: number,
  answerId: string,
  kind: 'null' | 'array' | 'string',
  length: number,
  maxIndex: number,
];

/**
 * The whole start in one statement: resolves the session to a signed-in, registered, active
 * student; reads whether they are registered in the test's phase, the grade they take part
 * with and their attempt; and, when asked to ($10) and the student may take the test, creates
 * the attempt with the items in the student's stable order (the same order as
 * `stableItemOrder`: by SHA-256 of "seed:student:item", compared bytewise). No row: no such
 * session or not a student who may start. A new attempt is visible in `inserted`; an existing
 * one (or a first start lost to a concurrent one: neither) is decided by the caller.
 *
 * Parameters: $1 token hash, $2 server now, $3 phase id, $4 edition id, $5 test id, $6 new
 * attempt id, $7 its deadline, $8 the test's seed, $9 the test's grades, $10 create.
 */
export const START_SQL = `
with s as (
  select u.id, u.grade from sessions se join users u on u.id = se.user_id
  where se.token_hash = $1 and se.revoked_at is null and se.expires_at > $2::timestamptz
    and u.deleted_at is null and u.type = 'student' and u.state = 'active' and u.registered
), f as (
  select s.id,
    exists (select 1 from phase_students ps where ps.phase_id = $3::uuid and ps.student_id = s.id)
      as in_phase,
    coalesce((select es.grade from edition_students es
      where es.edition_id = $4::uuid and es.student_id = s.id), s.grade) as grade
  from s
), ins as (
  insert into attempts (id, test_id, student_id, state, started_at, deadline_at, item_order)
  select $6::uuid, $5::uuid, f.id, 'in_progress', $2::timestamptz, $7::timestamptz,
    array(select ti.question_id from test_items ti where ti.test_id = $5::uuid
      order by sha256(convert_to($8::text || ':' || f.id::text || ':' || ti.question_id::text, 'UTF8')))
  from f
  where $10::boolean and f.in_phase and f.grade = any($9::int[])
  on conflict (test_id, student_id) do nothing
  returning *
)
select f.id, f.in_phase, f.grade, ins.id is not null as inserted,
  coalesce(ins.id, at.id) as attempt_id,
  coalesce(ins.state, at.state) as attempt_state,
  coalesce(ins.started_at, at.started_at) as started_at,
  coalesce(ins.deadline_at, at.deadline_at) as deadline_at,
  coalesce(ins.extra_seconds, at.extra_seconds) as extra_seconds,
  coalesce(ins.item_order, at.item_order)::text[] as item_order,
  coalesce(ins.finished_at, at.finished_at) as finished_at,
  coalesce(ins.finished_by, at.finished_by) as finished_by,
  coalesce(ins.score, at.score)::float8 as score,
  coalesce(ins.created_at, at.created_at) as created_at
from f
left join ins on true
left join attempts at on at.test_id = $5::uuid and at.student_id = f.id`;

export type StartParams = [
  tokenHash: string,
  now: string,
  phaseId: string,
  editionId: string,
  testId: string,
  attemptId: string,
  deadline: string,
  seed: string,
  grades: string,
  create: boolean,
];

export type StartRow = {
  id: string;
  in_phase: boolean;
  inserted: boolean;
  grade: number | null;
  attempt_id: string | null;
  attempt_state: 'in_progress' | 'finished' | null;
  started_at: Date | string | null;
  deadline_at: Date | string | null;
  extra_seconds: number | null;
  item_order: string[] | null;
  finished_at: Date | string | null;
  finished_by: 'student' | 'sweeper' | 'staff' | null;
  score: number | null;
  created_at: Date | string | null;
};

const asDate = (value: Date | string | null): Date | null =>
  value === null ? null : value instanceof Date ? value : new Date(value);

/** The attempt of a start row, if the student has one. */
export function attemptOfStart(row: StartRow, testId: string): AttemptRow | undefined {
  const startedAt = asDate(row.started_at);
  const deadlineAt = asDate(row.deadline_at);
  const createdAt = asDate(row.created_at);
  if (!row.attempt_id || !row.attempt_state || !startedAt || !deadlineAt || !createdAt) {
    return undefined;
  }
  return {
    id: row.attempt_id,
    testId,
    studentId: row.id,
    state: row.attempt_state,
    startedAt,
    deadlineAt,
    extraSeconds: row.extra_seconds ?? 0,
    itemOrder: row.item_order ?? [],
    finishedAt: asDate(row.finished_at),
    finishedBy: row.finished_by,
    score: row.score === null ? null : Number(row.score),
    createdAt,
  };
}

/** Binds `$n` placeholders for drizzle (PGlite has no pool to send them as they are). */
function bindPositional(text: string, values: readonly unknown[]) {
  const parts = text.split(/\$(\d+)/);
  return sql.join(
    parts.map((part, i) => (i % 2 === 0 ? sql.raw(part) : sql`${values[Number(part) - 1]}`)),
  );
}

/**
 * A hot statement of exam day: on PostgreSQL a named prepared statement straight on the pool
 * (parsed and planned once per connection, no query builder on the way), on PGlite through
 * drizzle.
 */
function rawStatement<P extends readonly unknown[], R>(
  database: Pick<Database, 'db' | 'pool'>,
  name: string,
  text: string,
) {
  const { pool, db } = database;
  return async (params: P): Promise<R[]> => {
    if (pool) {
      const result = await pool.query({ name, text, values: [...params] });
      return result.rows as R[];
    }
    const result = await db.execute(bindPositional(text, params));
    return (result as unknown as { rows: R[] }).rows;
  };
}

/** Runs the start statement (see START_SQL). */
export function starter(database: Pick<Database, 'db' | 'pool'>) {
  const run = rawStatement<StartParams, StartRow>(database, 'player_start_v1', START_SQL);
  return async (params: StartParams) => (await run(params))[0];
}

/** Runs the answer upsert (see ANSWER_UPSERT_SQL). */
export function answerWriter(database: Pick<Database, 'db' | 'pool'>) {
  const run = rawStatement<
    AnswerUpsertParams,
    { seq: number; saved_ms: number; deadline_ms: number }
  >(database, 'player_answer_upsert_v2', ANSWER_UPSERT_SQL);
  return async (
    params: AnswerUpsertParams,
  ): Promise<{ seq: number; savedMs: number; deadlineMs: number } | null> => {
    const row = (await run(params))[0];
    return row
      ? { seq: Number(row.seq), savedMs: Number(row.saved_ms), deadlineMs: Number(row.deadline_ms) }
      : null;
  };
}
