import { sql } from 'drizzle-orm';
import { index, integer, jsonb, numeric, pgTable, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt, tz } from '../../db/columns.js';
import { attempts } from '../player/player.schema.js';
import { questions } from '../questions/questions.schema.js';
import { tests } from '../tests/tests.schema.js';
import { users } from '../users/users.schema.js';

/**
 * A student's answer to one item of a test. Online: `submittedAnswer` (option indices in
 * the question's own order, or the typed value) with the highest client `seq` kept. Hybrid:
 * the scanned pages in `fileIds`. `score` is the automatic score of an online item; hybrid
 * marks live with the reviews.
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
    score: numeric('score', { precision: 8, scale: 2, mode: 'number' }),
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
