import { sql } from 'drizzle-orm';
import {
  boolean,
  index,
  integer,
  numeric,
  pgTable,
  primaryKey,
  real,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { createdAt, tz } from '../../db/columns.js';
import { users } from '../users/users.schema.js';

/** A competition (SPEC.md §3 Exam): its subject and the grades that take part. */
export const exams = pgTable(
  'exams',
  {
    id: uuid('id').primaryKey(),
    name: text('name').notNull(),
    nameNormalized: text('name_normalized').notNull(),
    subject: text('subject').notNull(),
    grades: integer('grades').array().notNull().default(sql`'{}'::integer[]`),
    description: text('description'),
    createdBy: uuid('created_by').references(() => users.id),
    createdAt: createdAt(),
    updatedAt: tz('updated_at').notNull().defaultNow(),
    deletedAt: tz('deleted_at'),
  },
  (t) => [
    index('exams_name_idx').on(t.nameNormalized, t.id),
    index('exams_name_trgm_idx').using('gin', sql`${t.nameNormalized} gin_trgm_ops`),
  ],
);

/** Teachers with a role on a whole competition: its admins and its staff (commission). */
export const examTeachers = pgTable(
  'exam_teachers',
  {
    examId: uuid('exam_id')
      .notNull()
      .references(() => exams.id),
    teacherId: uuid('teacher_id')
      .notNull()
      .references(() => users.id),
    role: text('role', { enum: ['admin', 'staff'] }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.examId, t.teacherId, t.role] }),
    index('exam_teachers_teacher_idx').on(t.teacherId),
  ],
);

/** One run of a competition, usually one per school year. */
export const editions = pgTable(
  'editions',
  {
    id: uuid('id').primaryKey(),
    examId: uuid('exam_id')
      .notNull()
      .references(() => exams.id),
    name: text('name').notNull(),
    year: integer('year'),
    state: text('state', { enum: ['active', 'archived'] })
      .notNull()
      .default('active'),
    termsUrl: text('terms_url'),
    /**
     * Manual sign-up switch of the whole edition (SPEC.md §4): while off, no phase of it takes
     * sign-ups, whatever the phase's own switch says. On by default, so the phases decide.
     */
    registrationOpen: boolean('registration_open').notNull().default(true),
    createdAt: createdAt(),
    updatedAt: tz('updated_at').notNull().defaultNow(),
    deletedAt: tz('deleted_at'),
  },
  (t) => [index('editions_exam_idx').on(t.examId, t.name)],
);

/** An edition's coordinating teachers (SPEC.md `teacherIds`). */
export const editionCoordinators = pgTable(
  'edition_coordinators',
  {
    editionId: uuid('edition_id')
      .notNull()
      .references(() => editions.id),
    teacherId: uuid('teacher_id')
      .notNull()
      .references(() => users.id),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.editionId, t.teacherId] }),
    index('edition_coordinators_teacher_idx').on(t.teacherId),
  ],
);

/**
 * Students enrolled in an edition (the user's `studentEditions`), with the grade they compete
 * in, their exam location and their credentials for the external programming judge.
 */
export const editionStudents = pgTable(
  'edition_students',
  {
    editionId: uuid('edition_id')
      .notNull()
      .references(() => editions.id),
    studentId: uuid('student_id')
      .notNull()
      .references(() => users.id),
    grade: integer('grade'),
    studentCentre: text('student_centre'),
    cmsUsername: text('cms_username'),
    cmsPassword: text('cms_password'),
    addedBy: uuid('added_by'),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.editionId, t.studentId] }),
    index('edition_students_student_idx').on(t.studentId),
    uniqueIndex('edition_students_cms_username_key').on(t.cmsUsername),
  ],
);

/** A stage of an edition (SPEC.md §3 Phase), ordered by start date. */
export const phases = pgTable(
  'phases',
  {
    id: uuid('id').primaryKey(),
    editionId: uuid('edition_id')
      .notNull()
      .references(() => editions.id),
    name: text('name').notNull(),
    type: text('type', { enum: ['online', 'hybrid'] }).notNull(),
    startDate: tz('start_date').notNull(),
    endDate: tz('end_date').notNull(),
    state: text('state', { enum: ['open', 'closed'] })
      .notNull()
      .default('open'),
    registrationOpen: boolean('registration_open').notNull().default(false),
    reviewStarted: boolean('review_started').notNull().default(false),
    allPublished: boolean('all_published').notNull().default(false),
    /** Marks further apart than this share of the item's maximum go to the mediator. */
    mediationThreshold: real('mediation_threshold').notNull().default(0.1),
    /** The step of review marks (0.5: 0, 0.5, 1, …). */
    markStep: real('mark_step').notNull().default(0.5),
    /**
     * An appeal changes the score only when the re-marked paper's score differs from the
     * first by at least this many points (0: any change counts; the olympiad's rule: 1).
     */
    appealMinPoints: numeric('appeal_min_points', { precision: 8, scale: 2, mode: 'number' })
      .notNull()
      .default(0),
    /** The appeal window: results stay provisional until it ends (none set: final at once). */
    appealStartDate: tz('appeal_start_date'),
    appealEndDate: tz('appeal_end_date'),
    closedAt: tz('closed_at'),
    createdAt: createdAt(),
    updatedAt: tz('updated_at').notNull().defaultNow(),
    deletedAt: tz('deleted_at'),
  },
  (t) => [index('phases_edition_idx').on(t.editionId, t.startDate)],
);

/** Who takes part in a phase, and the staff's decision: admitted to the next one or not. */
export const phaseStudents = pgTable(
  'phase_students',
  {
    phaseId: uuid('phase_id')
      .notNull()
      .references(() => phases.id),
    studentId: uuid('student_id')
      .notNull()
      .references(() => users.id),
    result: text('result', { enum: ['admitted', 'rejected'] }),
    source: text('source', { enum: ['enrolment', 'advanced', 'staff', 'signup'] })
      .notNull()
      .default('enrolment'),
    createdAt: createdAt(),
    updatedAt: tz('updated_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.phaseId, t.studentId] }),
    index('phase_students_student_idx').on(t.studentId),
  ],
);
