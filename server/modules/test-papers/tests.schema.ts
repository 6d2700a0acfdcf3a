import {
  boolean,
  index,
  integer,
  numeric,
  pgTable,
  primaryKey,
  text,
  uuid,
} from 'drizzle-orm/pg-core';
import { createdAt, tz } from '../../db/columns.js';
import { phases } from '../exams/exams.schema.js';
import { questions } from '../questions/questions.schema.js';
import { users } from '../users/users.schema.js';

/** A test of a phase for one or more grades, drawn from the bank with a stored seed. */
export const tests = pgTable(
  'tests',
  {
    id: uuid('id').primaryKey(),
    phaseId: uuid('phase_id')
      .notNull()
      .references(() => phases.id),
    name: text('name').notNull(),
    grades: integer('grades').array().notNull(),
    subject: text('subject').notNull(),
    startDate: tz('start_date').notNull(),
    endDate: tz('end_date').notNull(),
    durationMinutes: integer('duration_minutes').notNull(),
    totalScore: numeric('total_score', { precision: 8, scale: 2, mode: 'number' }).notNull(),
    easyCount: integer('easy_count').notNull().default(0),
    mediumCount: integer('medium_count').notNull().default(0),
    hardCount: integer('hard_count').notNull().default(0),
    seed: text('seed').notNull(),
    /** Share the total by difficulty (easy 1, medium 2, hard 3) instead of equally. */
    weightByDifficulty: boolean('weight_by_difficulty').notNull().default(false),
    published: boolean('published').notNull().default(false),
    createdBy: uuid('created_by').references(() => users.id),
    createdAt: createdAt(),
    updatedAt: tz('updated_at').notNull().defaultNow(),
  },
  (t) => [index('tests_phase_idx').on(t.phaseId)],
);

/** One row per grade of a test: the unique index keeps a grade in one test per phase. */
export const testGrades = pgTable(
  'test_grades',
  {
    phaseId: uuid('phase_id')
      .notNull()
      .references(() => phases.id),
    grade: integer('grade').notNull(),
    testId: uuid('test_id')
      .notNull()
      .references(() => tests.id, { onDelete: 'cascade' }),
  },
  (t) => [
    primaryKey({ columns: [t.phaseId, t.grade] }),
    index('test_grades_test_idx').on(t.testId),
  ],
);

/** The questions a test drew, in order, with the score each is worth. */
export const testItems = pgTable(
  'test_items',
  {
    testId: uuid('test_id')
      .notNull()
      .references(() => tests.id, { onDelete: 'cascade' }),
    questionId: uuid('question_id')
      .notNull()
      .references(() => questions.id),
    position: integer('position').notNull(),
    score: numeric('score', { precision: 8, scale: 2, mode: 'number' }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.testId, t.questionId] }),
    index('test_items_question_idx').on(t.questionId),
  ],
);
