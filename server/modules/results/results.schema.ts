import { sql } from 'drizzle-orm';
import {
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { SCORE_CHANGE_CAUSES, SCORE_ORIGINS } from '../../../shared/schemas/results.js';
import { createdAt, tz } from '../../db/columns.js';
import { phases } from '../exams/exams.schema.js';
import { attempts } from '../player/player.schema.js';
import { questions } from '../questions/questions.schema.js';
import { tests } from '../test-papers/tests.schema.js';
import { users } from '../users/users.schema.js';

/** Whether an item's points are known: decided, or waiting for people to mark it. */
export const SCORE_STATES = ['decided', 'awaiting_marking'] as const;

const points = (name: string) => numeric(name, { precision: 10, scale: 2, mode: 'number' });

/**
 * A student's answer to one item of a test, and the points it earned. Online: `submittedAnswer`
 * (option indices in the question's own order, or the typed value) with the highest client
 * `seq` kept; once the attempt ends every item of it has a row. Hybrid: the scanned pages in
 * `fileIds`. The score columns (`score`, `scoreOrigin`, `scoreState`, `scoredAt`) are null
 * until the answer is handed over for scoring (an online attempt's end, a hybrid upload).
 */
export const answers = pgTable(
  'answers',
  {
    id: uuid('id').primaryKey(),
    testId: uuid('test_id')
      .notNull()
      .references(() => tests.id),
    studentId: uuid('student_id')
      .notNull()
      .references(() => users.id),
    questionId: uuid('question_id')
      .notNull()
      .references(() => questions.id),
    attemptId: uuid('attempt_id').references(() => attempts.id),
    submittedAnswer: jsonb('submitted_answer'),
    seq: integer('seq').notNull().default(0),
    fileIds: uuid('file_ids').array().notNull().default(sql`'{}'::uuid[]`),
    /** The points earned; null while the item awaits marking (or is not handed over yet). */
    score: numeric('score', { precision: 8, scale: 2, mode: 'number' }),
    scoreOrigin: text('score_origin', { enum: SCORE_ORIGINS }),
    scoreState: text('score_state', { enum: SCORE_STATES }),
    scoredAt: tz('scored_at'),
    /** Set when staff entered the answer for a student who wrote on paper. */
    enteredBy: uuid('entered_by').references(() => users.id),
    createdAt: createdAt(),
    updatedAt: tz('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('answers_test_student_question_uq').on(t.testId, t.studentId, t.questionId),
    index('answers_attempt_idx').on(t.attemptId),
  ],
);

/**
 * A student's result in one test: the sum of the items' known points and how many items still
 * await marking (`items` - decided answers). Kept by the results module in the transaction that
 * changes any item's points; there is a row once the test has been handed over for scoring.
 */
export const testResults = pgTable(
  'test_results',
  {
    testId: uuid('test_id')
      .notNull()
      .references(() => tests.id),
    studentId: uuid('student_id')
      .notNull()
      .references(() => users.id),
    phaseId: uuid('phase_id')
      .notNull()
      .references(() => phases.id),
    points: points('points').notNull().default(0),
    awaitingItems: integer('awaiting_items').notNull().default(0),
    updatedAt: tz('updated_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.testId, t.studentId] }),
    index('test_results_phase_student_idx').on(t.phaseId, t.studentId),
  ],
);

/**
 * A student's phase total (DESIGN.md: the sum of final item scores over the phase's tests),
 * with how many items still await marking; what admission, rankings and diplomas read. Kept
 * with `test_results`, never summed on a page view.
 */
export const phaseResults = pgTable(
  'phase_results',
  {
    phaseId: uuid('phase_id')
      .notNull()
      .references(() => phases.id),
    studentId: uuid('student_id')
      .notNull()
      .references(() => users.id),
    points: points('points').notNull().default(0),
    awaitingItems: integer('awaiting_items').notNull().default(0),
    /** Tests of the phase with a result for this student. */
    tests: integer('tests').notNull().default(0),
    updatedAt: tz('updated_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.phaseId, t.studentId] }),
    index('phase_results_points_idx').on(t.phaseId, t.points),
  ],
);

/**
 * Every change of an item's decided points (appended, never updated): from what, to what, why
 * (SCORE_CHANGE_CAUSES; never who) and when. What the student's result page shows as "before
 * and after"; a first score is not a change and has no row.
 */
export const scoreChanges = pgTable(
  'score_changes',
  {
    id: uuid('id').primaryKey(),
    answerId: uuid('answer_id')
      .notNull()
      .references(() => answers.id),
    testId: uuid('test_id')
      .notNull()
      .references(() => tests.id),
    studentId: uuid('student_id')
      .notNull()
      .references(() => users.id),
    itemId: uuid('item_id')
      .notNull()
      .references(() => questions.id),
    before: points('before').notNull(),
    after: points('after').notNull(),
    cause: text('cause', { enum: SCORE_CHANGE_CAUSES }).notNull(),
    at: tz('at').notNull(),
  },
  (t) => [index('score_changes_test_student_idx').on(t.testId, t.studentId)],
);
