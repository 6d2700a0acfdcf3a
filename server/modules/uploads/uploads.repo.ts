import { and, asc, eq, getTableColumns, inArray, isNull, type SQL, sql } from 'drizzle-orm';
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
import {
  compileFilter,
  compileWhere,
  type ListResource,
  type ParsedFilter,
  type WhereNode,
} from '../../lib/filter/index.js';
import { jsonText } from '../../lib/json-column.js';

export type AnswerRow = typeof answers.$inferSelect;
export type FileRow = typeof files.$inferSelect;
export type NewFileRow = typeof files.$inferInsert;

/** A test reached through its whole path, with what the upload rules need of its phase. */
export type TestPathRow = {
  id: string;
  name: string;
  subject: string;
  grades: number[];
  startDate: Date;
  endDate: Date;
  published: boolean;
  phaseId: string;
  editionId: string;
  phaseType: 'online' | 'hybrid';
  phaseState: 'open' | 'closed';
  reviewStarted: boolean;
};

/** The test, if exam → edition → phase → test is one live chain; else undefined. */
export async function findTestPath(
  db: Db,
  ids: { examId: string; editionId: string; phaseId: string; testId: string },
): Promise<TestPathRow | undefined> {
  const [row] = await db
    .select({
      id: tests.id,
      name: tests.name,
      subject: tests.subject,
      grades: tests.grades,
      startDate: tests.startDate,
      endDate: tests.endDate,
      published: tests.published,
      phaseId: phases.id,
      editionId: editions.id,
      phaseType: phases.type,
      phaseState: phases.state,
      reviewStarted: phases.reviewStarted,
    })
    .from(tests)
    .innerJoin(phases, eq(phases.id, tests.phaseId))
    .innerJoin(editions, eq(editions.id, phases.editionId))
    .innerJoin(exams, eq(exams.id, editions.examId))
    .where(
      and(
        eq(tests.id, ids.testId),
        eq(phases.id, ids.phaseId),
        eq(editions.id, ids.editionId),
        eq(exams.id, ids.examId),
        isNull(phases.deletedAt),
        isNull(editions.deletedAt),
        isNull(exams.deletedAt),
      ),
    );
  return row;
}

/** The grade a student competes in: the edition's record of it, else their profile's. */
const gradeSql = sql<number | null>`coalesce(${editionStudents.grade}, ${users.grade})`;

/** What the students of a test have in common: in the phase, live, of one of its grades. */
export type TestRef = Pick<TestPathRow, 'id' | 'grades' | 'phaseId' | 'editionId' | 'phaseType'>;

const ofTest = (test: TestRef, ownerId: string | undefined, extra?: SQL) =>
  and(
    eq(phaseStudents.phaseId, test.phaseId),
    eq(users.type, 'student'),
    isNull(users.deletedAt),
    inArray(gradeSql, test.grades),
    ownerId === undefined ? undefined : eq(users.teacherRef, ownerId),
    extra,
  );

const enrolmentJoin = (editionId: string) =>
  and(
    eq(editionStudents.editionId, editionId),
    eq(editionStudents.studentId, phaseStudents.studentId),
  );

/** Correlated subqueries on this student's attempt and answers of the test. */
function progressSql(test: TestRef) {
  const mine = (table: typeof attempts | typeof answers | typeof testResults) =>
    sql`${table.testId} = ${test.id}::uuid and ${table.studentId} = ${phaseStudents.studentId}`;
  const fileCount = sql<number>`(select coalesce(sum(cardinality(${answers.fileIds})), 0)::int
    from ${answers} where ${mine(answers)})`;
  const answeredItems = sql<number>`(select count(*)::int from ${answers} where ${mine(answers)}
    and (cardinality(${answers.fileIds}) > 0 or ${answers.submittedAnswer} is not null))`;
  // Online: the attempt's state; hybrid: whether any page has been uploaded.
  const status =
    test.phaseType === 'online'
      ? sql<string>`coalesce((select ${attempts.state} from ${attempts} where ${mine(attempts)}),
          'not_started')`
      : sql<string>`case when ${fileCount} > 0 then 'uploaded' else 'not_started' end`;
  // The points the results module knows, once any item of the test is decided for this
  // student (a hybrid test has none until it is marked), and the items still to mark.
  const result = (column: typeof testResults.points | typeof testResults.awaitingItems) =>
    sql`(select ${column} from ${testResults} where ${mine(testResults)}
      and exists (select 1 from ${answers} where ${mine(answers)}
        and ${answers.scoreState} = 'decided'))`;
  const score = sql<number | null>`${result(testResults.points)}::float8`;
  const awaitingItems = sql<number | null>`${result(testResults.awaitingItems)}::int`;
  return { fileCount, answeredItems, status, score, awaitingItems };
}

/** `GET …/tests/{testId}/students?filter=`: the allow-list, built for this test. */
/** A test for describing the list (its fields do not depend on the test; its SQL does). */
export const DESCRIBED_TEST: TestRef = {
  id: '00000000-0000-0000-0000-000000000000',
  grades: [],
  phaseId: '00000000-0000-0000-0000-000000000000',
  editionId: '00000000-0000-0000-0000-000000000000',
  phaseType: 'hybrid',
};

export function testStudentsResource(test: TestRef): ListResource {
  const p = progressSql(test);
  return {
    name: 'testStudents',
    fields: {
      studentId: { column: phaseStudents.studentId, type: 'uuid' },
      familyName: { column: users.familyName, type: 'string' },
      givenName: { column: users.givenName, type: 'string' },
      // Lower-case without diacritics: "turcanu" finds "Țurcanu".
      familyNameNormalized: { column: users.familyNameNormalized, type: 'string', fold: 'name' },
      givenNameNormalized: { column: users.givenNameNormalized, type: 'string', fold: 'name' },
      studentCounty: { column: users.county, type: 'string' },
      studentSector: { column: users.bucharestSector, type: 'number' },
      studentGrade: { column: gradeSql, type: 'number' },
      school: { column: users.school, type: 'string' },
      studentCentre: { column: editionStudents.studentCentre, type: 'string' },
      status: { column: p.status, type: 'string' },
      score: { column: p.score, type: 'number' },
      awaitingItems: { column: p.awaitingItems, type: 'number' },
      answeredItems: { column: p.answeredItems, type: 'number' },
      fileCount: { column: p.fileCount, type: 'number' },
    },
    defaultOrder: ['givenName ASC'],
    tiebreak: 'studentId',
  };
}

export type TestStudentRow = {
  studentId: string;
  familyName: string | null;
  givenName: string | null;
  studentCounty: string | null;
  studentSector: number | null;
  studentGrade: number | null;
  school: string | null;
  studentCentre: string | null;
  status: string;
  score: number | null;
  awaitingItems: number | null;
  answeredItems: number;
  fileCount: number;
};

/** The columns of a row of the list. */
function studentColumns(test: TestRef) {
  const p = progressSql(test);
  return {
    studentId: phaseStudents.studentId,
    familyName: users.familyName,
    givenName: users.givenName,
    studentCounty: users.county,
    studentSector: users.bucharestSector,
    studentGrade: gradeSql,
    school: users.school,
    studentCentre: editionStudents.studentCentre,
    status: p.status,
    score: p.score,
    awaitingItems: p.awaitingItems,
    answeredItems: p.answeredItems,
    fileCount: p.fileCount,
  };
}

/** A page of the test's students; `ownerId`: only that coordinator's students. */
export async function listTestStudents(
  db: Db,
  test: TestRef,
  filter: ParsedFilter,
  ownerId: string | undefined,
): Promise<TestStudentRow[]> {
  const q = compileFilter(filter, testStudentsResource(test));
  return db
    .select(studentColumns(test))
    .from(phaseStudents)
    .innerJoin(users, eq(users.id, phaseStudents.studentId))
    .leftJoin(editionStudents, enrolmentJoin(test.editionId))
    .where(ofTest(test, ownerId, q.where))
    .orderBy(...q.orderBy)
    .limit(q.limit)
    .offset(q.offset);
}

export async function countTestStudents(
  db: Db,
  test: TestRef,
  where: WhereNode | undefined,
  ownerId: string | undefined,
): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(phaseStudents)
    .innerJoin(users, eq(users.id, phaseStudents.studentId))
    .leftJoin(editionStudents, enrolmentJoin(test.editionId))
    .where(ofTest(test, ownerId, compileWhere(where, testStudentsResource(test))));
  return row?.n ?? 0;
}

/** One student of the test with their progress, or undefined when not one of its students. */
export async function findTestStudent(
  db: Db,
  test: TestRef,
  studentId: string,
): Promise<(TestStudentRow & { teacherRef: string | null }) | undefined> {
  const [row] = await db
    .select({
      ...studentColumns(test),
      teacherRef: users.teacherRef,
    })
    .from(phaseStudents)
    .innerJoin(users, eq(users.id, phaseStudents.studentId))
    .leftJoin(editionStudents, enrolmentJoin(test.editionId))
    .where(ofTest(test, undefined, eq(phaseStudents.studentId, studentId)));
  return row;
}

export type ItemRow = {
  questionId: string;
  position: number;
  score: number;
  itemQ: string;
  itemType: (typeof questions.$inferSelect)['itemType'];
  itemAnswers: string[];
  itemCorrectAnswers: number[] | string | null;
  imageFileId: string | null;
  difficulty: (typeof questions.$inferSelect)['difficulty'];
};

/** The test's questions in the test's order. */
export async function findTestItems(db: Db, testId: string): Promise<ItemRow[]> {
  const rows = await db
    .select({
      questionId: testItems.questionId,
      position: testItems.position,
      score: testItems.score,
      itemQ: questions.itemQ,
      itemType: questions.itemType,
      itemAnswers: questions.itemAnswers,
      itemCorrectAnswers: jsonText<number[] | string>(questions.itemCorrectAnswers),
      imageFileId: questions.imageFileId,
      difficulty: questions.difficulty,
    })
    .from(testItems)
    .innerJoin(questions, eq(questions.id, testItems.questionId))
    .where(eq(testItems.testId, testId))
    .orderBy(asc(testItems.position), asc(testItems.questionId));
  return rows.map((r) => ({ ...r, itemCorrectAnswers: r.itemCorrectAnswers ?? null }));
}

/** Whether the question is one of the test's items. */
export async function isTestItem(db: Db, testId: string, questionId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: testItems.questionId })
    .from(testItems)
    .where(and(eq(testItems.testId, testId), eq(testItems.questionId, questionId)));
  return row !== undefined;
}

/** The student's own order of the items, when they sat the test online. */
export async function findItemOrder(
  db: Db,
  testId: string,
  studentId: string,
): Promise<string[] | undefined> {
  const [row] = await db
    .select({ itemOrder: attempts.itemOrder })
    .from(attempts)
    .where(and(eq(attempts.testId, testId), eq(attempts.studentId, studentId)));
  return row?.itemOrder;
}

/** Every column of an answer, its submitted answer read as JSON text (see `jsonText`). */
const answerColumns = {
  ...getTableColumns(answers),
  submittedAnswer: jsonText<unknown>(answers.submittedAnswer),
};

export async function findAnswers(db: Db, testId: string, studentId: string) {
  return db
    .select(answerColumns)
    .from(answers)
    .where(and(eq(answers.testId, testId), eq(answers.studentId, studentId)));
}

export async function findAnswer(
  db: Db,
  testId: string,
  answerId: string,
): Promise<AnswerRow | undefined> {
  const [row] = await db
    .select(answerColumns)
    .from(answers)
    .where(and(eq(answers.id, answerId), eq(answers.testId, testId)));
  return row;
}

export async function findFiles(db: Db, ids: readonly string[]): Promise<FileRow[]> {
  if (ids.length === 0) return [];
  return db
    .select()
    .from(files)
    .where(inArray(files.id, [...ids]));
}

/**
 * Shares the phase row until the transaction ends, so starting the review or closing the
 * phase (which lock it for update) waits for an upload in flight, and an upload after them
 * sees their flag.
 */
export async function sharePhase(db: Db, phaseId: string) {
  const [row] = await db
    .select({ state: phases.state, reviewStarted: phases.reviewStarted })
    .from(phases)
    .where(and(eq(phases.id, phaseId), isNull(phases.deletedAt)))
    .for('share');
  return row;
}

export async function lockAnswer(db: Db, answerId: string): Promise<AnswerRow | undefined> {
  const [row] = await db
    .select(answerColumns)
    .from(answers)
    .where(eq(answers.id, answerId))
    .for('update');
  return row;
}

/** Every student of the test (booklets and scans need them all, not a page of them). */
export async function findAllTestStudents(db: Db, test: TestRef) {
  return db
    .select({
      studentId: phaseStudents.studentId,
      familyName: users.familyName,
      givenName: users.givenName,
      grade: gradeSql,
    })
    .from(phaseStudents)
    .innerJoin(users, eq(users.id, phaseStudents.studentId))
    .leftJoin(editionStudents, enrolmentJoin(test.editionId))
    .where(ofTest(test, undefined))
    .orderBy(asc(users.familyNameNormalized), asc(users.givenNameNormalized), asc(users.id));
}
