import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  boolean,
  date,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  real,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import type { UserData } from '../../shared/schemas/users.js';

const tz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
const createdAt = () => tz('created_at').notNull().defaultNow();

/** Everyone who signs in: students, teachers and admins (SPEC.md §3 User). */
export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey(),
    email: text('email').notNull(),
    passwordHash: text('password_hash'),
    type: text('type', { enum: ['student', 'teacher', 'admin'] }).notNull(),
    state: text('state', { enum: ['active', 'inactive'] })
      .notNull()
      .default('inactive'),
    registered: boolean('registered').notNull().default(false),
    emailConfirmedAt: tz('email_confirmed_at'),
    givenName: text('given_name'),
    familyName: text('family_name'),
    givenNameNormalized: text('given_name_normalized'),
    familyNameNormalized: text('family_name_normalized'),
    locale: text('locale'),
    uiLocale: text('ui_locale', { enum: ['ro', 'en'] })
      .notNull()
      .default('ro'),
    picture: text('picture'),
    county: text('county'),
    country: text('country'),
    city: text('city'),
    school: text('school'),
    grade: integer('grade'),
    dateOfBirth: date('date_of_birth', { mode: 'string' }),
    occupation: text('occupation'),
    teacherRef: uuid('teacher_ref').references((): AnyPgColumn => users.id),
    teacherCode: text('teacher_code'),
    discipline: text('discipline'),
    studentCentre: text('student_centre'),
    data: jsonb('data').$type<UserData>().notNull().default({ shortcuts: [] }),
    createdAt: createdAt(),
    updatedAt: tz('updated_at').notNull().defaultNow(),
    deletedAt: tz('deleted_at'),
  },
  (t) => [
    uniqueIndex('users_email_key').on(t.email),
    uniqueIndex('users_teacher_code_key').on(t.teacherCode),
    index('users_teacher_ref_idx').on(t.teacherRef),
    index('users_type_family_name_idx').on(t.type, t.familyNameNormalized, t.id),
    index('users_type_county_idx').on(t.type, t.county),
    // Partial-match name search ("%pop%") on 50,000+ people without scanning the table.
    index('users_family_name_trgm_idx').using('gin', sql`${t.familyNameNormalized} gin_trgm_ops`),
    index('users_given_name_trgm_idx').using('gin', sql`${t.givenNameNormalized} gin_trgm_ops`),
  ],
);

/** Opaque session tokens, stored as SHA-256 hashes; valid on every instance. */
export const sessions = pgTable(
  'sessions',
  {
    id: uuid('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    tokenHash: text('token_hash').notNull(),
    createdAt: createdAt(),
    expiresAt: tz('expires_at').notNull(),
    revokedAt: tz('revoked_at'),
    lastSeenAt: tz('last_seen_at').notNull().defaultNow(),
    ip: text('ip'),
    userAgent: text('user_agent'),
  },
  (t) => [
    uniqueIndex('sessions_token_hash_key').on(t.tokenHash),
    index('sessions_user_idx').on(t.userId),
  ],
);

/** One-time codes carried by e-mail links (confirmation, password reset, sign-in). */
export const authLinks = pgTable(
  'auth_links',
  {
    id: uuid('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    purpose: text('purpose', { enum: ['confirm', 'reset', 'login', 'oauth'] }).notNull(),
    codeHash: text('code_hash').notNull(),
    expiresAt: tz('expires_at').notNull(),
    usedAt: tz('used_at'),
    createdAt: createdAt(),
  },
  (t) => [index('auth_links_user_idx').on(t.userId, t.purpose)],
);

/** Failed sign-in counters per account and per address, shared by every instance. */
export const authFailures = pgTable('auth_failures', {
  key: text('key').primaryKey(),
  failures: integer('failures').notNull(),
  windowStartedAt: tz('window_started_at').notNull(),
});

/** OpenID Connect round trips in flight (state → PKCE verifier and nonce). */
export const oidcStates = pgTable('oidc_states', {
  state: text('state').primaryKey(),
  codeVerifier: text('code_verifier').notNull(),
  nonce: text('nonce').notNull(),
  signupType: text('signup_type', { enum: ['student', 'teacher'] })
    .notNull()
    .default('student'),
  expiresAt: tz('expires_at').notNull(),
});

/**
 * Append-only record of changes that matter (scores, states, deletions). A trigger in the
 * migrations refuses UPDATE and DELETE on it.
 */
export const auditEvents = pgTable(
  'audit_events',
  {
    id: uuid('id').primaryKey(),
    actorId: uuid('actor_id'),
    action: text('action').notNull(),
    entityType: text('entity_type').notNull(),
    entityId: text('entity_id').notNull(),
    before: jsonb('before'),
    after: jsonb('after'),
    reason: text('reason'),
    at: tz('at').notNull().default(sql`now()`),
  },
  (t) => [index('audit_events_entity_idx').on(t.entityType, t.entityId, t.at)],
);

/** Metadata of stored files; the bytes live in the file storage under `storageKey`. */
export const files = pgTable(
  'files',
  {
    id: uuid('id').primaryKey(),
    storageKey: text('storage_key').notNull(),
    mime: text('mime').notNull(),
    size: integer('size').notNull(),
    sha256: text('sha256').notNull(),
    ownerId: uuid('owner_id'),
    originalName: text('original_name'),
    createdAt: createdAt(),
  },
  (t) => [index('files_owner_idx').on(t.ownerId)],
);

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

/** The reviewers (graders) of a question: two are needed before a hybrid review starts. */
export const questionGraders = pgTable(
  'question_graders',
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
    index('question_graders_teacher_idx').on(t.teacherId),
  ],
);

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
    finishedBy: text('finished_by', { enum: ['student', 'sweeper', 'staff'] }),
    score: numeric('score', { precision: 8, scale: 2, mode: 'number' }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('attempts_test_student_uq').on(t.testId, t.studentId),
    index('attempts_student_idx').on(t.studentId),
    index('attempts_open_deadline_idx').on(t.deadlineAt).where(sql`${t.state} = 'in_progress'`),
  ],
);

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
