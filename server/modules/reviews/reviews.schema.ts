import {
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { createdAt, tz } from '../../db/columns.js';
import { phases } from '../exams/exams.schema.js';
import { questions } from '../questions/questions.schema.js';
import { answers } from '../results/results.schema.js';
import { tests } from '../test-papers/tests.schema.js';
import { users } from '../users/users.schema.js';

const points = (name: string) => numeric(name, { precision: 8, scale: 2, mode: 'number' });

/**
 * One answer under review (SPEC.md §3 review entry): a hybrid item's pages or an online open
 * item's text, marked by two reviewers and, when they differ too much, the question's mediator.
 * `code` is the anonymous name markers know it by. `version` grows with every write, so a
 * second tab's stale write is told the entry changed. Final scores are recorded through the
 * results module; the entry keeps how they came about.
 */
export const reviewEntries = pgTable(
  'review_entries',
  {
    id: uuid('id').primaryKey(),
    phaseId: uuid('phase_id')
      .notNull()
      .references(() => phases.id),
    testId: uuid('test_id')
      .notNull()
      .references(() => tests.id),
    itemId: uuid('item_id')
      .notNull()
      .references(() => questions.id),
    answerId: uuid('answer_id')
      .notNull()
      .references(() => answers.id),
    studentId: uuid('student_id')
      .notNull()
      .references(() => users.id),
    itemIndexInTest: integer('item_index_in_test').notNull(),
    code: text('code').notNull(),
    status: text('status', { enum: ['marking', 'needs_mediation', 'final'] })
      .notNull()
      .default('marking'),
    /** The item's points in its test when the review started. */
    maxScore: points('max_score').notNull(),
    mediatorId: uuid('mediator_id').references(() => users.id),
    mediatorScore: points('mediator_score'),
    mediatorNote: text('mediator_note'),
    mediatedAt: tz('mediated_at'),
    finalScore: points('final_score'),
    finalBy: text('final_by', { enum: ['average', 'mediator'] }),
    version: integer('version').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: tz('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('review_entries_answer_uq').on(t.answerId),
    uniqueIndex('review_entries_phase_code_uq').on(t.phaseId, t.code),
    index('review_entries_phase_idx').on(t.phaseId, t.testId, t.itemIndexInTest, t.code),
  ],
);

/**
 * An appeal of one item of a student's test (SPEC.md §3 contestation entry): once per item.
 * `remark`: an item people marked, marked again by two other teachers of the question (and
 * mediated like the first time); `committee`: an item scored from the key or with nothing
 * handed in, for the exam's admins.
 */
export const reviewAppeals = pgTable(
  'review_appeals',
  {
    id: uuid('id').primaryKey(),
    phaseId: uuid('phase_id')
      .notNull()
      .references(() => phases.id),
    testId: uuid('test_id')
      .notNull()
      .references(() => tests.id),
    itemId: uuid('item_id')
      .notNull()
      .references(() => questions.id),
    studentId: uuid('student_id')
      .notNull()
      .references(() => users.id),
    answerId: uuid('answer_id').references(() => answers.id),
    /** The review entry of the first marking (null for committee appeals). */
    entryId: uuid('entry_id').references(() => reviewEntries.id),
    itemIndexInTest: integer('item_index_in_test').notNull(),
    code: text('code').notNull(),
    kind: text('kind', { enum: ['remark', 'committee'] }).notNull(),
    status: text('status', { enum: ['pending', 'needs_mediation', 'resolved'] })
      .notNull()
      .default('pending'),
    reason: text('reason').notNull(),
    filedAt: tz('filed_at').notNull(),
    maxScore: points('max_score').notNull(),
    originalScore: points('original_score'),
    mediatorId: uuid('mediator_id').references(() => users.id),
    mediatorScore: points('mediator_score'),
    mediatorNote: text('mediator_note'),
    resultScore: points('result_score'),
    finalScore: points('final_score'),
    outcome: text('outcome', { enum: ['changed', 'kept'] }),
    decisionNote: text('decision_note'),
    resolvedAt: tz('resolved_at'),
    version: integer('version').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: tz('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('review_appeals_item_uq').on(t.testId, t.studentId, t.itemId),
    index('review_appeals_phase_idx').on(t.phaseId, t.testId, t.itemIndexInTest, t.code),
  ],
);

/**
 * One reviewer's mark of an entry (`round` review) or of an appeal (`round` appeal); `parentId`
 * is the entry's or the appeal's id, `slot` 1 or 2 the order the reviewers were assigned in.
 * A row exists from the assignment; `score` is null until the mark is given.
 */
export const reviewMarks = pgTable(
  'review_marks',
  {
    id: uuid('id').primaryKey(),
    parentId: uuid('parent_id').notNull(),
    round: text('round', { enum: ['review', 'appeal'] }).notNull(),
    slot: integer('slot').notNull(),
    reviewerId: uuid('reviewer_id')
      .notNull()
      .references(() => users.id),
    score: points('score'),
    criteria: jsonb('criteria').$type<string[]>().notNull().default([]),
    note: text('note'),
    markedAt: tz('marked_at'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('review_marks_slot_uq').on(t.parentId, t.slot),
    uniqueIndex('review_marks_reviewer_uq').on(t.parentId, t.reviewerId),
    index('review_marks_reviewer_idx').on(t.reviewerId, t.round),
  ],
);

/** A question's marking scheme: criteria with points, ticked by markers to build a mark. */
export const questionRubrics = pgTable('question_rubrics', {
  itemId: uuid('item_id')
    .primaryKey()
    .references(() => questions.id),
  criteria: jsonb('criteria').$type<{ id: string; label: string; points: number }[]>().notNull(),
  updatedBy: uuid('updated_by').references(() => users.id),
  updatedAt: tz('updated_at').notNull().defaultNow(),
});
