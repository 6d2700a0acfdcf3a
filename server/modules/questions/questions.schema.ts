import { index, integer, jsonb, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { createdAt, tz } from '../../db/columns.js';
import { files } from '../../lib/files/files.schema.js';
import { phases } from '../exams/exams.schema.js';
import { users } from '../users/users.schema.js';

/**
 * A question of a phase's bank (SPEC.md §3 Question). The statement is Markdown with LaTeX;
 * `itemCorrectAnswers` never leaves the server for a student before their attempt is over.
 */
export const questions = pgTable(
  'questions',
  {
    id: uuid('id').primaryKey(),
    phaseId: uuid('phase_id')
      .notNull()
      .references(() => phases.id),
    itemQ: text('item_q').notNull(),
    itemCategory: text('item_category'),
    itemDiscipline: text('item_discipline').notNull(),
    itemGrade: integer('item_grade').notNull(),
    difficulty: text('difficulty', { enum: ['low', 'medium', 'hard'] }).notNull(),
    itemType: text('item_type', { enum: ['single', 'multiple', 'numeric', 'open'] }).notNull(),
    itemAnswers: jsonb('item_answers').$type<string[]>().notNull().default([]),
    itemCorrectAnswers: jsonb('item_correct_answers').$type<number[] | string>(),
    imageFileId: uuid('image_file_id').references(() => files.id),
    mediatorTeacherId: uuid('mediator_teacher_id').references(() => users.id),
    createdBy: uuid('created_by').references(() => users.id),
    createdAt: createdAt(),
    updatedAt: tz('updated_at').notNull().defaultNow(),
    deletedAt: tz('deleted_at'),
  },
  (t) => [index('questions_phase_idx').on(t.phaseId, t.itemQ, t.id)],
);

/** The reviewers (reviewers) of a question: two are needed before a hybrid review starts. */
export const questionReviewers = pgTable(
  'question_reviewers',
  {
    questionId: uuid('question_id')
      .notNull()
      .references(() => questions.id),
    teacherId: uuid('teacher_id')
      .notNull()
      .references(() => users.id),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.questionId, t.teacherId] }),
    index('question_reviewers_teacher_idx').on(t.teacherId),
  ],
);
