import { and, asc, eq, gte, inArray, isNull, lt, sql } from 'drizzle-orm';
import { STATEMENT_FILE_PREFIX } from '../../../shared/statement.js';
import type { Db } from '../../db/client.js';
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
  testResults,
  tests,
  users,
} from '../../db/schema.js';
import { jsonText } from '../../lib/json-column.js';
import { holdRegistration } from '../exams/index.js';

/** An attempt as the player decides on it (the panel's sign of life is read by the panel only). */
export type AttemptRow = Omit<typeof attempts.$inferSelect, 'lastSeenAt'>;

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
  /** The phase's appeal window's end: results stay provisional until then. */
  appealEndDate: Date | null;
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
  appealEndDate: phases.appealEndDate,
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
  attemptKeyShownAt: attempts.keyShownAt,
  attemptCreatedAt: attempts.createdAt,
};

/**
 * My tests' columns: the student's test, attempt and result (absent until handed over for
 * scoring) in one row, as results.repo.ts's findTestResults reads the result.
 */
const myTestColumns = {
  ...studentTestColumns,
  resultPoints: testResults.points,
  resultAwaitingItems: testResults.awaitingItems,
  resultDecidedItems: sql<number | null>`case when ${testResults.testId} is null then null else
    (select count(*)::int from ${answers}
      where ${answers.testId} = ${testResults.testId}
        and ${answers.studentId} = ${testResults.studentId}
        and ${answers.scoreState} = 'decided') end`,
};

const phaseStudent = and(
  eq(phaseStudents.phaseId, phases.id),
  eq(phaseStudents.studentId, studentId),
);
const editionStudent = and(
  eq(editionStudents.editionId, editions.id),
  eq(editionStudents.studentId, studentId),
);
const attemptOfStudent = and(eq(attempts.testId, tests.id), eq(attempts.studentId, studentId));

function studentTestQuery(db: Db, registeredOnly: boolean) {
  const base = db
    .select(studentTestColumns)
    .from(tests)
    .innerJoin(phases, and(eq(phases.id, tests.phaseId), isNull(phases.deletedAt)))
    .innerJoin(editions, and(eq(editions.id, phases.editionId), isNull(editions.deletedAt)))
    .innerJoin(exams, and(eq(exams.id, editions.examId), isNull(exams.deletedAt)));
  const withStudent = registeredOnly
    ? base.innerJoin(phaseStudents, phaseStudent)
    : base.leftJoin(phaseStudents, phaseStudent);
  return withStudent.leftJoin(editionStudents, editionStudent).leftJoin(attempts, attemptOfStudent);
}

/** The tests of the phases the student is registered for, with attempt and result. */
function myTestsQuery(db: Db) {
  return db
    .select(myTestColumns)
    .from(tests)
    .innerJoin(phases, and(eq(phases.id, tests.phaseId), isNull(phases.deletedAt)))
    .innerJoin(editions, and(eq(editions.id, phases.editionId), isNull(editions.deletedAt)))
    .innerJoin(exams, and(eq(exams.id, editions.examId), isNull(exams.deletedAt)))
    .innerJoin(phaseStudents, phaseStudent)
    .leftJoin(editionStudents, editionStudent)
    .leftJoin(attempts, attemptOfStudent)
    .leftJoin(
      testResults,
      and(eq(testResults.testId, tests.id), eq(testResults.studentId, studentId)),
    );
}

type StudentTestSelect = Awaited<
  ReturnType<ReturnType<typeof studentTestQuery>['execute']>
>[number];

/** The student's result in a test as My tests shows it (results.repo.ts's TestResultRow). */
export type MyTestResultRow = {
  points: number;
  awaitingItems: number;
  decidedItems: number;
};

/** A test with the student's facts, their attempt and their result. */
export type MyTestRow = StudentTestWithAttempt & { result: MyTestResultRow | undefined };

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
    attemptKeyShownAt,
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
          keyShownAt: attemptKeyShownAt,
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
  // My tests in one statement: the tests, attempts and results (one row each at the most).
  const allTests = myTestsQuery(db)
    .where(eq(tests.published, true))
    .orderBy(asc(tests.startDate), asc(tests.name), asc(tests.id))
    .prepare('player_student_tests_v2');
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
    })
    .from(answers)
    .where(and(eq(answers.testId, testIdParam), eq(answers.studentId, studentId)))
    .prepare('player_student_answers_v1');
  return {
    /** One test with the student's facts and attempt (undefined: no such test). */
    async studentTest(forStudent: string, testId: string) {
      const [row] = await oneTest.execute({ studentId: forStudent, testId });
      return row ? splitRow(row, forStudent) : undefined;
    },
    /**
     * Published tests of every phase the student is registered for (grades: policy), each with
     * the student's attempt and result.
     */
    async studentTests(forStudent: string): Promise<MyTestRow[]> {
      const rows = await allTests.execute({ studentId: forStudent });
      return rows.map(({ resultPoints, resultAwaitingItems, resultDecidedItems, ...row }) => ({
        ...splitRow(row, forStudent),
        result:
          resultPoints === null || resultAwaitingItems === null
            ? undefined
            : {
                points: resultPoints,
                awaitingItems: resultAwaitingItems,
                decidedItems: Number(resultDecidedItems ?? 0),
              },
      }));
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
  };
}

export type PlayerQueries = ReturnType<typeof playerQueries>;

/**
 * Creates the attempt unless one exists (two starts at once both end with the same one) while
 * the student's registration in the phase is held, so a removal from the phase cannot race it.
 * Returns the attempt as stored, or undefined when the student is no longer registered.
 */
export async function insertAttempt(
  db: Db,
  phaseId: string,
  row: {
    id: string;
    testId: string;
    studentId: string;
    startedAt: Date;
    deadlineAt: Date;
    itemOrder: string[];
  },
): Promise<AttemptRow | undefined> {
  return db.transaction(async (tx) => {
    if (!(await holdRegistration(tx, phaseId, row.studentId))) return undefined;
    const [created] = await tx
      .insert(attempts)
      .values({ ...row, state: 'in_progress' })
      .onConflictDoNothing({ target: [attempts.testId, attempts.studentId] })
      .returning();
    return created ?? findAttempt(tx, row.testId, row.studentId);
  });
}

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
};

/** Each item's correct answer (server-side only; shown once the test is reviewed). */
export async function answerKeys(db: Db, testId: string) {
  return db
    .select({
      itemId: testItems.questionId,
      itemCorrectAnswers: jsonText<number[] | string>(questions.itemCorrectAnswers),
    })
    .from(testItems)
    .innerJoin(questions, eq(questions.id, testItems.questionId))
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

export async function updateAttempt(
  db: Db,
  id: string,
  patch: Partial<
    Pick<AttemptRow, 'state' | 'deadlineAt' | 'extraSeconds' | 'finishedAt' | 'finishedBy'>
  >,
): Promise<AttemptRow> {
  const [row] = await db.update(attempts).set(patch).where(eq(attempts.id, id)).returning();
  if (!row) throw new Error('attempt vanished');
  return row;
}

/** How one attempt ends: when, and by whom. */
export type AttemptEnd = {
  id: string;
  finishedAt: Date;
  finishedBy: NonNullable<AttemptRow['finishedBy']>;
};

/** Ends running attempts the caller holds locked, in one statement; answers them as ended. */
export async function endAttempts(db: Db, ends: readonly AttemptEnd[]): Promise<AttemptRow[]> {
  if (ends.length === 0) return [];
  const records = ends.map((e) => ({
    id: e.id,
    finished_at: e.finishedAt.toISOString(),
    finished_by: e.finishedBy,
  }));
  const result = await db.execute(sql`
    update ${attempts} set state = 'finished', finished_at = v.finished_at,
      finished_by = v.finished_by
    from jsonb_to_recordset(${JSON.stringify(records)}::jsonb)
      as v(id uuid, finished_at timestamptz, finished_by text)
    where ${attempts.id} = v.id and ${attempts.state} = 'in_progress'
    returning ${attempts.id}`);
  const ids = (result as unknown as { rows: { id: string }[] }).rows.map((r) => r.id);
  if (ids.length === 0) return [];
  return db.select().from(attempts).where(inArray(attempts.id, ids));
}

/** The running attempts of a phase's tests, locked for this transaction (closing the phase). */
export async function lockRunningAttemptsOfPhase(db: Db, phaseId: string): Promise<AttemptRow[]> {
  return db
    .select()
    .from(attempts)
    .where(
      and(
        eq(attempts.state, 'in_progress'),
        inArray(
          attempts.testId,
          db.select({ id: tests.id }).from(tests).where(eq(tests.phaseId, phaseId)),
        ),
      ),
    )
    .orderBy(asc(attempts.id))
    .for('update');
}

/** The state of the test's phase, its row shared until the transaction ends. */
export async function sharePhaseOfTest(db: Db, testId: string) {
  const [row] = await db
    .select({ state: phases.state })
    .from(phases)
    .innerJoin(tests, eq(tests.phaseId, phases.id))
    .where(eq(tests.id, testId))
    .for('share', { of: phases });
  return row?.state;
}

/** Notes, once, that the attempt's student was shown the test's answer key. */
export async function markKeyShown(db: Db, attemptId: string, at: Date): Promise<void> {
  await db
    .update(attempts)
    .set({ keyShownAt: at })
    .where(and(eq(attempts.id, attemptId), isNull(attempts.keyShownAt)));
}

/** Whether any student of the test has been shown its answer key. */
export async function isKeyShown(db: Db, testId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: attempts.id })
    .from(attempts)
    .where(and(eq(attempts.testId, testId), sql`${attempts.keyShownAt} is not null`))
    .limit(1);
  return row !== undefined;
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
