import { sql } from 'drizzle-orm';
import { bigint, index, integer, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { DIPLOMA_JOB_STATES, DIPLOMA_KINDS } from '../../../shared/schemas/diplomas.js';
import { PRIZES } from '../../../shared/schemas/rankings.js';
import { createdAt, tz } from '../../db/columns.js';
import { editions, exams, phases } from '../exams/exams.schema.js';
import { users } from '../users/users.schema.js';

/**
 * Each diploma issued: its verification code and what it printed, so the public verification
 * page confirms the paper in someone's hands (and shows nothing else about the person). One per
 * person and phase in force; printing it again prints the same facts, code and date, whatever
 * changed in the profile since. Anonymising the person erases the name and school here and stamps
 * `anonymised_at`: the check then confirms only the diploma.
 *
 * When a reopened phase closes again and the result a diploma printed changed, `stale_at` flags
 * it; the organiser reissues it: a new diploma (new code, today's facts), the old one stamped
 * `replaced_at` and `replaced_by` (the check then says it was replaced). Only one diploma per
 * person and phase is not replaced.
 */
export const diplomas = pgTable(
  'diplomas',
  {
    /** 12 characters of Crockford's base32, without dashes. */
    code: text('code').primaryKey(),
    phaseId: uuid('phase_id')
      .notNull()
      .references(() => phases.id),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    kind: text('kind', { enum: DIPLOMA_KINDS }).notNull(),
    name: text('name').notNull(),
    examName: text('exam_name').notNull(),
    editionName: text('edition_name').notNull(),
    phaseName: text('phase_name').notNull(),
    grade: integer('grade'),
    school: text('school'),
    prize: text('prize', { enum: PRIZES }),
    studentCount: integer('student_count'),
    issuedAt: tz('issued_at').notNull().defaultNow(),
    updatedAt: tz('updated_at').notNull().defaultNow(),
    /** When the holder was anonymised: name and school erased, the check names nobody. */
    anonymisedAt: tz('anonymised_at'),
    /** When the phase closed again and the result this diploma printed had changed. */
    staleAt: tz('stale_at'),
    /** When a new diploma replaced it, and that one's code. */
    replacedAt: tz('replaced_at'),
    replacedBy: text('replaced_by'),
  },
  (t) => [
    uniqueIndex('diplomas_phase_user_key')
      .on(t.phaseId, t.userId)
      .where(sql`${t.replacedAt} is null`),
  ],
);

/**
 * A background ZIP of a phase's diplomas (or one teacher's), made by whichever server process
 * takes it first; `heartbeat_at` lets another take it over when the maker died. A person has at
 * most one waiting or running job per phase (the partial unique index).
 */
export const diplomaJobs = pgTable(
  'diploma_jobs',
  {
    id: uuid('id').primaryKey(),
    requestedBy: uuid('requested_by')
      .notNull()
      .references(() => users.id),
    examId: uuid('exam_id')
      .notNull()
      .references(() => exams.id),
    editionId: uuid('edition_id')
      .notNull()
      .references(() => editions.id),
    phaseId: uuid('phase_id')
      .notNull()
      .references(() => phases.id),
    teacherId: uuid('teacher_id').references(() => users.id),
    /** The origin the QR codes point to, fixed when asked for. */
    origin: text('origin').notNull(),
    state: text('state', { enum: DIPLOMA_JOB_STATES }).notNull().default('queued'),
    total: integer('total').notNull().default(0),
    done: integer('done').notNull().default(0),
    fileName: text('file_name'),
    /** The ZIP in file storage once made. */
    fileKey: text('file_key'),
    /** Its size: the kept archives together may not pass DIPLOMA_JOBS_MAX_MB. */
    fileBytes: bigint('file_bytes', { mode: 'number' }),
    errorCode: text('error_code'),
    tries: integer('tries').notNull().default(0),
    createdAt: createdAt(),
    heartbeatAt: tz('heartbeat_at'),
    finishedAt: tz('finished_at'),
  },
  (t) => [
    index('diploma_jobs_requester_idx').on(t.requestedBy, t.createdAt),
    index('diploma_jobs_pending_idx').on(t.state, t.createdAt),
    uniqueIndex('diploma_jobs_one_running_key')
      .on(t.requestedBy, t.phaseId)
      .where(sql`${t.state} in ('queued', 'running')`),
  ],
);
