import {
  and,
  asc,
  count,
  eq,
  getTableColumns,
  inArray,
  isNull,
  or,
  type SQL,
  sql,
} from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import {
  answers,
  attempts,
  phases,
  questionReviewers,
  questions,
  testItems,
  users,
} from '../../db/schema.js';
import {
  compileFilter,
  compileWhere,
  type ListResource,
  type ParsedFilter,
  type WhereNode,
} from '../../lib/filter/index.js';

export type QuestionRow = typeof questions.$inferSelect;
export type NewQuestionRow = typeof questions.$inferInsert;

const liveQuestion = isNull(questions.deletedAt);

/**
 * Drizzle reads a jsonb string that looks like a number ("42", "3.50") back as a number, on
 * node-postgres and PGlite alike. A numeric question's answer is stored as text, so every
 * read also takes that text as PostgreSQL has it, and puts it back in place.
 */
const columns = {
  ...getTableColumns(questions),
  correctText: sql<string | null>`case when jsonb_typeof(${questions.itemCorrectAnswers}) = 'string'
    then ${questions.itemCorrectAnswers} #>> '{}' end`,
};
type ReadRow = QuestionRow & { correctText: string | null };

function fixRow({ correctText, ...row }: ReadRow): QuestionRow {
  return correctText === null ? row : { ...row, itemCorrectAnswers: correctText };
}
const fixRows = (rows: ReadRow[]) => rows.map(fixRow);

/** `GET …/items?filter=` and `…/items/count?where=`. */
export const questionsResource: ListResource = {
  name: 'questions',
  fields: {
    _id: { column: questions.id, type: 'uuid' },
    itemQ: { column: questions.itemQ, type: 'string' },
    itemCategory: { column: questions.itemCategory, type: 'string' },
    itemDiscipline: { column: questions.itemDiscipline, type: 'string' },
    itemGrade: { column: questions.itemGrade, type: 'number' },
    difficulty: { column: questions.difficulty, type: 'string' },
    itemType: { column: questions.itemType, type: 'string' },
    mediatorTeacher: { column: questions.mediatorTeacherId, type: 'uuid' },
    imageFileId: { column: questions.imageFileId, type: 'uuid' },
    createdAt: { column: questions.createdAt, type: 'date' },
    updatedAt: { column: questions.updatedAt, type: 'date' },
    // Returned, and projectable with `fields`, but not filtered or sorted on.
    ...Object.fromEntries(
      [
        'examId',
        'editionId',
        'phaseId',
        'itemAnswers',
        'itemCorrectAnswers',
        'images',
        'gradingTeachers',
        'inTest',
      ].map((name) => [
        name,
        { column: sql`null`, type: 'string' as const, filterable: false, sortable: false },
      ]),
    ),
  },
  defaultOrder: ['itemQ ASC'],
  // Statements can be long; a page of 200 is already a lot of text.
  maxLimit: 200,
};

const inPhase = (phaseId: string, where?: SQL) =>
  and(eq(questions.phaseId, phaseId), liveQuestion, where);

export async function listQuestions(
  db: Db,
  phaseId: string,
  filter: ParsedFilter,
): Promise<QuestionRow[]> {
  const q = compileFilter(filter, questionsResource);
  const rows = await db
    .select(columns)
    .from(questions)
    .where(inPhase(phaseId, q.where))
    .orderBy(...q.orderBy)
    .limit(q.limit)
    .offset(q.offset);
  return fixRows(rows);
}

export async function countQuestions(
  db: Db,
  phaseId: string,
  where: WhereNode | undefined,
): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(questions)
    .where(inPhase(phaseId, compileWhere(where, questionsResource)));
  return row?.n ?? 0;
}

/** Every live question of the phase with this id (the service wants exactly one). */
export async function findQuestions(
  db: Db,
  phaseId: string,
  questionId: string,
): Promise<QuestionRow[]> {
  const rows = await db
    .select(columns)
    .from(questions)
    .where(inPhase(phaseId, eq(questions.id, questionId)));
  return fixRows(rows);
}

export async function lockQuestion(
  db: Db,
  phaseId: string,
  questionId: string,
): Promise<QuestionRow | undefined> {
  const [row] = await db
    .select(columns)
    .from(questions)
    .where(inPhase(phaseId, eq(questions.id, questionId)))
    .for('update');
  return row && fixRow(row);
}

/**
 * Shares the phase row: deletions and edits wait while a test is being drawn from the bank
 * (tests.repo takes it FOR UPDATE), so no test ever draws a question deleted meanwhile.
 * Returns the phase's state, or undefined when it is gone.
 */
export async function sharePhase(db: Db, phaseId: string): Promise<'open' | 'closed' | undefined> {
  const [row] = await db
    .select({ state: phases.state })
    .from(phases)
    .where(and(eq(phases.id, phaseId), isNull(phases.deletedAt)))
    .for('share');
  return row?.state;
}

export async function insertQuestions(db: Db, rows: NewQuestionRow[]): Promise<QuestionRow[]> {
  if (rows.length === 0) return [];
  return fixRows(await db.insert(questions).values(rows).returning(columns));
}

export async function updateQuestion(
  db: Db,
  questionId: string,
  patch: Partial<NewQuestionRow>,
): Promise<QuestionRow | undefined> {
  const [row] = await db
    .update(questions)
    .set({ ...patch, updatedAt: sql`now()` })
    .where(and(eq(questions.id, questionId), liveQuestion))
    .returning(columns);
  return row && fixRow(row);
}

/** Soft-deletes the live questions of the phase among `ids`; returns those deleted. */
export async function softDeleteQuestions(
  db: Db,
  phaseId: string,
  ids: string[],
): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .update(questions)
    .set({ deletedAt: sql`now()`, updatedAt: sql`now()` })
    .where(inPhase(phaseId, inArray(questions.id, ids)))
    .returning({ id: questions.id });
  return rows.map((r) => r.id);
}

/** Which of these questions were drawn into a test. */
export async function findQuestionsInTests(db: Db, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .selectDistinct({ id: testItems.questionId })
    .from(testItems)
    .where(inArray(testItems.questionId, [...ids]));
  return new Set(rows.map((r) => r.id));
}

/** Grading teachers per question, in the order they were added. */
export async function findReviewers(
  db: Db,
  questionIds: readonly string[],
): Promise<Map<string, string[]>> {
  const byQuestion = new Map<string, string[]>();
  if (questionIds.length === 0) return byQuestion;
  const rows = await db
    .select({ questionId: questionReviewers.questionId, teacherId: questionReviewers.teacherId })
    .from(questionReviewers)
    .where(inArray(questionReviewers.questionId, [...questionIds]))
    .orderBy(asc(questionReviewers.createdAt), asc(questionReviewers.teacherId));
  for (const row of rows) {
    byQuestion.set(row.questionId, [...(byQuestion.get(row.questionId) ?? []), row.teacherId]);
  }
  return byQuestion;
}

export async function addReviewers(db: Db, questionId: string, teacherIds: string[]) {
  if (teacherIds.length === 0) return;
  // One at a time so that created_at keeps the order they were named in.
  for (const teacherId of teacherIds) {
    await db
      .insert(questionReviewers)
      .values({ questionId, teacherId, createdAt: sql`clock_timestamp()` })
      .onConflictDoNothing();
  }
}

/**
 * The live questions whose pool holds the teacher (a grading teacher or the mediator), each
 * with its mediator and grading teachers, locked for the transaction.
 */
export async function findPoolsHolding(db: Db, teacherId: string) {
  const held = await db
    .select({ id: questions.id, mediatorTeacherId: questions.mediatorTeacherId })
    .from(questions)
    .where(
      and(
        liveQuestion,
        or(
          eq(questions.mediatorTeacherId, teacherId),
          sql`exists (select 1 from ${questionReviewers} qr
            where qr.question_id = ${questions.id} and qr.teacher_id = ${teacherId})`,
        ),
      ),
    )
    .orderBy(questions.id)
    .for('update');
  const reviewers = await findReviewers(
    db,
    held.map((q) => q.id),
  );
  return held.map((q) => ({ ...q, reviewers: reviewers.get(q.id) ?? [] }));
}

export async function removeReviewers(db: Db, questionId: string, teacherIds: string[]) {
  if (teacherIds.length === 0) return;
  await db
    .delete(questionReviewers)
    .where(
      and(
        eq(questionReviewers.questionId, questionId),
        inArray(questionReviewers.teacherId, teacherIds),
      ),
    );
}

/**
 * Questions of the phase that lack 2 grading teachers or a mediator, for the review start
 * (INSUFFICIENT_TEACHERS_FOR_TEST_ITEMS). Only questions drawn into a test of the phase count;
 * `openOnly`: only open items (an online phase marks nothing else).
 */
export async function findQuestionsMissingTeachers(
  db: Db,
  phaseId: string,
  openOnly = false,
): Promise<{ id: string; reviewers: number; hasMediator: boolean }[]> {
  const reviewers = sql<number>`(select count(*)::int from ${questionReviewers}
    where ${questionReviewers.questionId} = ${questions.id})`;
  const rows = await db
    .select({ id: questions.id, reviewers, mediator: questions.mediatorTeacherId })
    .from(questions)
    .where(
      and(
        inPhase(phaseId),
        sql`exists (select 1 from ${testItems} where ${testItems.questionId} = ${questions.id})`,
        openOnly ? eq(questions.itemType, 'open') : undefined,
      ),
    )
    .orderBy(asc(questions.id));
  return rows
    .map((r) => ({ id: r.id, reviewers: Number(r.reviewers), hasMediator: r.mediator !== null }))
    .filter((r) => r.reviewers < 2 || !r.hasMediator);
}

/** Sets a question's answer key (a committee's key fix). */
export async function setAnswerKey(db: Db, questionId: string, key: number[] | string) {
  await db
    .update(questions)
    .set({ itemCorrectAnswers: key, updatedAt: sql`now()` })
    .where(eq(questions.id, questionId));
}

/** Active, live teachers among `ids`. */
export async function findActiveTeachers(db: Db, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .select({ id: users.id })
    .from(users)
    .where(
      and(
        inArray(users.id, [...ids]),
        eq(users.type, 'teacher'),
        eq(users.state, 'active'),
        isNull(users.deletedAt),
      ),
    );
  return new Set(rows.map((r) => r.id));
}

/**
 * Whether a student has met this question: an attempt on a test that drew it, or an answer to
 * it (hybrid answers have no attempt).
 */
export async function isQuestionAnswered(db: Db, questionId: string): Promise<boolean> {
  const [started] = await db
    .select({ one: sql<number>`1` })
    .from(testItems)
    .innerJoin(attempts, eq(attempts.testId, testItems.testId))
    .where(eq(testItems.questionId, questionId))
    .limit(1);
  if (started) return true;
  const [answered] = await db
    .select({ one: sql<number>`1` })
    .from(answers)
    .where(eq(answers.questionId, questionId))
    .limit(1);
  return answered !== undefined;
}

/** These questions, deleted ones included (a test's items must always resolve). */
export async function findQuestionsByIds(db: Db, ids: readonly string[]): Promise<QuestionRow[]> {
  if (ids.length === 0) return [];
  return fixRows(
    await db
      .select(columns)
      .from(questions)
      .where(inArray(questions.id, [...ids])),
  );
}
