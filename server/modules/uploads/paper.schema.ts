import { sql } from 'drizzle-orm';
import {
  bigint,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import {
  PAPER_JOB_KINDS,
  PAPER_JOB_STATES,
  SCAN_PAGE_STATES,
  SCAN_REFUSALS,
} from '../../../shared/schemas/paper.js';
import { createdAt, tz } from '../../db/columns.js';
import { files } from '../../lib/files/files.schema.js';
import { questions } from '../questions/questions.schema.js';
import { tests } from '../test-papers/tests.schema.js';
import { users } from '../users/users.schema.js';

/**
 * A student's sitting of a paper test: the anonymous code printed on every page of their
 * booklet (never derived from the name; only the cover page joins the two), and the exam
 * centre's room and seat. Made the first time a booklet or a seat needs it.
 */
export const paperSeats = pgTable(
  'paper_seats',
  {
    testId: uuid('test_id')
      .notNull()
      .references(() => tests.id),
    studentId: uuid('student_id')
      .notNull()
      .references(() => users.id),
    code: text('code').notNull(),
    room: text('room').notNull().default(''),
    seat: text('seat').notNull().default(''),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.testId, t.studentId] }),
    uniqueIndex('paper_seats_code_key').on(t.testId, t.code),
  ],
);

/**
 * Background work of a paper test, run like the diploma ZIPs (claimed with SKIP LOCKED,
 * `heartbeat_at` lets another process take over): the booklets of a room, or a scan of the
 * stack. A scan is first received in chunks (`uploading`, `received` of `size` bytes, so an
 * upload cut off resumes where it stopped), then queued.
 */
export const paperJobs = pgTable(
  'paper_jobs',
  {
    id: uuid('id').primaryKey(),
    kind: text('kind', { enum: PAPER_JOB_KINDS }).notNull(),
    requestedBy: uuid('requested_by')
      .notNull()
      .references(() => users.id),
    testId: uuid('test_id')
      .notNull()
      .references(() => tests.id),
    room: text('room'),
    state: text('state', { enum: PAPER_JOB_STATES }).notNull(),
    /** The scan's declared size and how much of it has arrived. */
    size: bigint('size', { mode: 'number' }),
    received: bigint('received', { mode: 'number' }).notNull().default(0),
    /** The uploaded scan, or the booklets made. */
    fileKey: text('file_key'),
    fileName: text('file_name'),
    total: integer('total').notNull().default(0),
    done: integer('done').notNull().default(0),
    errorCode: text('error_code'),
    tries: integer('tries').notNull().default(0),
    createdAt: createdAt(),
    heartbeatAt: tz('heartbeat_at'),
    finishedAt: tz('finished_at'),
  },
  (t) => [
    index('paper_jobs_test_idx').on(t.testId, t.createdAt),
    index('paper_jobs_pending_idx').on(t.state, t.createdAt),
  ],
);

/**
 * Each page of a scan and what became of it. A page stored as an answer page names its
 * student, question and booklet page once (the partial unique index: a page scanned twice is
 * kept once); a page nobody could read keeps its image (`file_id`, metadata stripped) for the
 * matching screen.
 */
export const scanPages = pgTable(
  'scan_pages',
  {
    id: uuid('id').primaryKey(),
    jobId: uuid('job_id')
      .notNull()
      .references(() => paperJobs.id),
    testId: uuid('test_id')
      .notNull()
      .references(() => tests.id),
    pageNo: integer('page_no').notNull(),
    state: text('state', { enum: SCAN_PAGE_STATES }).notNull(),
    reason: text('reason', { enum: SCAN_REFUSALS }),
    /** What the page's code said, as read (a refused page's code may name nobody). */
    qrText: text('qr_text'),
    studentId: uuid('student_id').references(() => users.id),
    questionId: uuid('question_id').references(() => questions.id),
    bookletPage: integer('booklet_page'),
    fileId: uuid('file_id').references(() => files.id),
    createdAt: createdAt(),
  },
  (t) => [
    index('scan_pages_test_idx').on(t.testId, t.state),
    uniqueIndex('scan_pages_one_stored_key')
      .on(t.testId, t.studentId, t.questionId, t.bookletPage)
      .where(sql`${t.state} = 'stored'`),
  ],
);
