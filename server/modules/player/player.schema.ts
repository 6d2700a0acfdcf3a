import { sql } from 'drizzle-orm';
import { index, integer, pgTable, primaryKey, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt, tz } from '../../db/columns.js';
import { tests } from '../test-papers/tests.schema.js';
import { users } from '../users/users.schema.js';

/**
 * One student's sitting of one test (online tests; hybrid tests have answers without an
 * attempt). `deadlineAt` is min(start + duration, test end) plus any extra time staff gave;
 * the grace for answers in flight is configuration, not stored. The state moves
 * in_progress → finished once, under a row lock.
 */
export const attempts = pgTable(
  'attempts',
  {
    id: uuid('id').primaryKey(),
    testId: uuid('test_id')
      .notNull()
      .references(() => tests.id),
    studentId: uuid('student_id')
      .notNull()
      .references(() => users.id),
    state: text('state', { enum: ['in_progress', 'finished'] })
      .notNull()
      .default('in_progress'),
    startedAt: tz('started_at').notNull(),
    deadlineAt: tz('deadline_at').notNull(),
    extraSeconds: integer('extra_seconds').notNull().default(0),
    /** The question ids of the test in this student's stable shuffled order. */
    itemOrder: uuid('item_order').array().notNull(),
    finishedAt: tz('finished_at'),
    /** Who ended the attempt: the student, the sweeper at the deadline, or staff. */
    finishedBy: text('finished_by', { enum: ['student', 'sweeper', 'staff', 'closed'] }),
    /** When the student was first shown the answer key of this test (it can no longer reopen). */
    keyShownAt: tz('key_shown_at'),
    /**
     * The player's last state check or event stream, noted at most every 20 s (the exam-day
     * panel's sign of life besides the answers' own times; the answer write never sets it).
     */
    lastSeenAt: tz('last_seen_at'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('attempts_test_student_uq').on(t.testId, t.studentId),
    index('attempts_student_idx').on(t.studentId),
    index('attempts_open_deadline_idx').on(t.deadlineAt).where(sql`${t.state} = 'in_progress'`),
  ],
);

/**
 * Exam day's answer writes per minute, test and server process (exam-day-stats.ts): each
 * process adds its in-memory counts every few seconds; the exam-day panel merges the rows of
 * every process. `latency` counts the acknowledged writes per latency bucket
 * (LATENCY_BOUNDS_MS, then one bucket for slower). Rows older than a day are deleted.
 */
export const examDayStats = pgTable(
  'exam_day_stats',
  {
    minute: tz('minute').notNull(),
    /** The test written to (the zero id when a process saw too many tests to keep apart). */
    testId: uuid('test_id').notNull(),
    instance: text('instance').notNull(),
    writes: integer('writes').notNull().default(0),
    errors: integer('errors').notNull().default(0),
    latency: integer('latency').array().notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.minute, t.testId, t.instance] }),
    index('exam_day_stats_test_minute_idx').on(t.testId, t.minute),
  ],
);
