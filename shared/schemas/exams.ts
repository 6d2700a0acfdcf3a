import { z } from 'zod';
import { GRADES, MAX_TEXT_LENGTH } from '../constants.js';
import {
  gradeField,
  optionalMultilineText,
  optionalText,
  requiredText,
  uuidField,
} from './fields.js';

/**
 * Competitions (SPEC.md §3 Exam, Edition, Phase; §7 exam-mgmt). The server's routes and the
 * web app's forms use these same schemas; every message is a field code (`error_<code>`).
 */

export const EDITION_STATES = ['active', 'archived'] as const;
export type EditionState = (typeof EDITION_STATES)[number];
export const PHASE_TYPES = ['online', 'hybrid'] as const;
export type PhaseType = (typeof PHASE_TYPES)[number];
export const PHASE_STATES = ['open', 'closed'] as const;
export type PhaseState = (typeof PHASE_STATES)[number];
export const PHASE_RESULTS = ['admitted', 'rejected'] as const;
export type PhaseResult = (typeof PHASE_RESULTS)[number];

/** The caller's strongest role on a competition, so screens can hide what the server refuses. */
export const EXAM_ROLES = ['admin', 'examAdmin', 'staff', 'coordinator', 'student'] as const;
export type ExamRole = (typeof EXAM_ROLES)[number];

export const MAX_DESCRIPTION_LENGTH = 2000;
export const MAX_URL_LENGTH = 500;
/** Most students one bulk call (enrol, remove, results) may name. */
export const MAX_BULK_STUDENTS = 1000;
/** Most teachers in one admin, staff or coordinator list. */
export const MAX_TEACHER_IDS = 200;
/** The most a JSON `filter`/`where` query parameter may be. */
export const MAX_FILTER_LENGTH = 100_000;
export const MIN_EDITION_YEAR = 2000;
export const MAX_EDITION_YEAR = 2100;

// ---------------------------------------------------------------------------------------
// Responses (DTOs)

/** SPEC.md §3 Exam; `grades` ascending (99 = Absolvent). */
export const examSchema = z.object({
  _id: z.string(),
  name: z.string(),
  subject: z.string(),
  description: z.string().nullable(),
  grades: z.array(z.number()),
  adminTeacherIds: z.array(z.string()),
  staffTeacherIds: z.array(z.string()),
  createdAt: z.string(),
  /** The caller's role on this competition (null: none, e.g. a platform admin's own view). */
  myRole: z.enum(EXAM_ROLES).nullable(),
});
export type Exam = z.infer<typeof examSchema>;

/** A row of `GET /exams?filter=`: only the asked `fields`, always with `_id`. */
export const examListItemSchema = examSchema.partial().extend({ _id: z.string() });
export type ExamListItem = z.infer<typeof examListItemSchema>;

/** SPEC.md §3 Edition; `teacherIds` are its coordinators. */
export const editionSchema = z.object({
  _id: z.string(),
  examId: z.string(),
  name: z.string(),
  year: z.number().nullable(),
  state: z.enum(EDITION_STATES),
  termsUrl: z.string().nullable(),
  /** Manual sign-up switch of the edition (SPEC.md §4); the phases' own switches apply too. */
  registrationOpen: z.boolean(),
  teacherIds: z.array(z.string()),
  createdAt: z.string(),
});
export type Edition = z.infer<typeof editionSchema>;
export const editionListItemSchema = editionSchema.partial().extend({ _id: z.string() });
export type EditionListItem = z.infer<typeof editionListItemSchema>;

/** SPEC.md §3 Phase. Dates are ISO 8601 instants; phases of an edition are ordered by start. */
export const phaseSchema = z.object({
  _id: z.string(),
  examId: z.string(),
  editionId: z.string(),
  name: z.string(),
  type: z.enum(PHASE_TYPES),
  startDate: z.string(),
  endDate: z.string(),
  state: z.enum(PHASE_STATES),
  registrationOpen: z.boolean(),
  reviewStarted: z.boolean(),
  allPublished: z.boolean(),
  mediationThreshold: z.number(),
  /** The step of review marks (0.5 by default). */
  markStep: z.number(),
  /**
   * An appeal changes the score only when the re-marked paper differs from the first by at
   * least this many points (0 by default: any change counts; the olympiad's rule is 1).
   */
  appealMinPoints: z.number(),
  /**
   * The appeal window (both set, or neither): results of the phase are provisional until it
   * ends; without one they are final as soon as every item is decided.
   */
  appealStartDate: z.string().nullable(),
  appealEndDate: z.string().nullable(),
  closedAt: z.string().nullable(),
  createdAt: z.string(),
});
export type Phase = z.infer<typeof phaseSchema>;
export const phaseListItemSchema = phaseSchema.partial().extend({ _id: z.string() });
export type PhaseListItem = z.infer<typeof phaseListItemSchema>;

/**
 * `PUT …/phases/{phaseId}/finish` body (optional). `lastPhase: true` closes the last phase of
 * an edition (no phase after it), which makes its results and prizes final; it is refused with
 * EDITION_PHASE_NOT_CREATED while any student of it is admitted (they would have nowhere to go).
 * Without it, a phase with no next one is refused as before.
 */
const acceptedIds = z.array(uuidField()).max(10_000, { error: 'too_long' });

/**
 * `PUT …/phases/{phaseId}/finish`. `acceptOpen` closes the phase although these review entries
 * and appeals are still open; it must name exactly the open ones the refusal listed.
 */
export const phaseFinishSchema = z
  .object({
    lastPhase: z.boolean({ error: 'invalid' }).optional(),
    acceptOpen: z
      .object({ reviewIds: acceptedIds.optional(), appealIds: acceptedIds.optional() })
      .strict()
      .optional(),
  })
  .strict();
export type PhaseFinishInput = z.input<typeof phaseFinishSchema>;

/**
 * Details of 409 RESULTS_INCOMPLETE from finish: what still has no final score. `reviews`
 * entries await marks, `mediations` a mediator, `appeals` (of which `appealMediations` wait for
 * a mediator) are unresolved; `unmarkedAnswers` have no entry yet (the review has not started)
 * and cannot be accepted. `appealsWithoutMarkers` of the appeals (`shortAppealIds`) found fewer
 * than two teachers free to re-mark them: they wait for the exam's admins to decide them.
 */
export type PhaseOpenScores = {
  reviews: number;
  mediations: number;
  appeals: number;
  appealMediations: number;
  unmarkedAnswers: number;
  appealsWithoutMarkers: number;
  shortAppealIds: string[];
  reviewIds: string[];
  appealIds: string[];
};

/** `PUT …/phases/{phaseId}/finish`: the closed phase and how many admitted students it had. */
export const phaseCloseResultSchema = phaseSchema.extend({ advancedCount: z.number() });
export type PhaseCloseResult = z.infer<typeof phaseCloseResultSchema>;

/** SPEC.md §3 Stage (phase) student. `status` null: no decision yet. */
export const phaseStudentSchema = z.object({
  studentId: z.string(),
  familyName: z.string().nullable(),
  givenName: z.string().nullable(),
  studentCounty: z.string().nullable(),
  /** Bucharest's sector (1–6) of a student living there; null elsewhere or not set yet. */
  studentSector: z.number().nullable(),
  studentGrade: z.number().nullable(),
  studentCentre: z.string().nullable(),
  school: z.string().nullable(),
  status: z.enum(PHASE_RESULTS).nullable(),
  /** The phase total (DESIGN.md: the sum over the phase's tests); null: no result yet. */
  total: z.number().nullable(),
  /** Items of the student's tests still waiting to be marked (null with no result). */
  awaitingItems: z.number().nullable(),
});
export type PhaseStudent = z.infer<typeof phaseStudentSchema>;
export const phaseStudentListItemSchema = phaseStudentSchema
  .partial()
  .extend({ studentId: z.string() });
export type PhaseStudentListItem = z.infer<typeof phaseStudentListItemSchema>;

/** A student enrolled in an edition (the edition student list). Never the CMS password. */
export const editionStudentSchema = z.object({
  studentId: z.string(),
  familyName: z.string().nullable(),
  givenName: z.string().nullable(),
  email: z.string(),
  studentCounty: z.string().nullable(),
  /** Bucharest's sector (1–6) of a student living there; null elsewhere or not set yet. */
  studentSector: z.number().nullable(),
  city: z.string().nullable(),
  school: z.string().nullable(),
  studentGrade: z.number().nullable(),
  studentCentre: z.string().nullable(),
  teacherRef: z.string().nullable(),
  cmsUsername: z.string().nullable(),
  createdAt: z.string(),
});
export type EditionStudent = z.infer<typeof editionStudentSchema>;
export const editionStudentListItemSchema = editionStudentSchema
  .partial()
  .extend({ studentId: z.string() });
export type EditionStudentListItem = z.infer<typeof editionStudentListItemSchema>;

export const countSchema = z.object({ count: z.number() });
export type Count = z.infer<typeof countSchema>;

/** Bulk calls succeed when `failedStudents` is empty (SPEC.md §4). */
export const failedStudentsSchema = z.object({ failedStudents: z.array(z.string()) });
export type FailedStudents = z.infer<typeof failedStudentsSchema>;
/**
 * Why a student could not be enrolled: `unknown` (no such student), `inactive`, `unregistered`
 * (registration not finished), `grade` (a grade the competition does not have, or none),
 * `not_theirs` (a staff member or coordinator enrols their own students only).
 */
export const ENROL_FAILURES = [
  'unknown',
  'inactive',
  'unregistered',
  'grade',
  'not_theirs',
] as const;
export type EnrolFailure = (typeof ENROL_FAILURES)[number];
/** `POST …/editions/{editionId}/students`: who was not enrolled, and why. */
export const addStudentsResultSchema = failedStudentsSchema.extend({
  failures: z.array(z.object({ studentId: z.string(), reason: z.enum(ENROL_FAILURES) })),
});
export type AddStudentsResult = z.infer<typeof addStudentsResultSchema>;
export const bulkEnrolResultSchema = failedStudentsSchema.extend({ enrolledCount: z.number() });
export type BulkEnrolResult = z.infer<typeof bulkEnrolResultSchema>;
export const admitResultSchema = z.object({ admittedCount: z.number() });
export type AdmitResult = z.infer<typeof admitResultSchema>;

/** `GET /open-exams`: an edition open for sign-up (`_id` is the edition id). */
export const openExamSchema = z.object({
  _id: z.string(),
  editionId: z.string(),
  editionName: z.string(),
  year: z.number().nullable(),
  termsUrl: z.string().nullable(),
  examId: z.string(),
  examName: z.string(),
  subject: z.string(),
  description: z.string().nullable(),
  grades: z.array(z.number()),
  /** The earliest open phase whose registration is open. */
  phaseId: z.string(),
  phaseName: z.string(),
  startDate: z.string(),
  endDate: z.string(),
  registered: z.boolean(),
});
export type OpenExam = z.infer<typeof openExamSchema>;

/** `GET /cms-credentials`: the student's own account on the external programming judge. */
export const cmsCredentialSchema = z.object({
  examId: z.string(),
  examName: z.string(),
  editionId: z.string(),
  editionName: z.string(),
  username: z.string(),
  password: z.string(),
});
export type CmsCredential = z.infer<typeof cmsCredentialSchema>;

/** `GET /external-registrations`: the student's enrolments. */
export const externalRegistrationSchema = z.object({
  editionId: z.string(),
  editionName: z.string(),
  year: z.number().nullable(),
  examId: z.string(),
  examName: z.string(),
  subject: z.string(),
  grade: z.number().nullable(),
  studentCentre: z.string().nullable(),
  createdAt: z.string(),
});
export type ExternalRegistration = z.infer<typeof externalRegistrationSchema>;

// ---------------------------------------------------------------------------------------
// Requests

const teacherIdsField = () =>
  z.array(uuidField(), { error: 'invalid' }).max(MAX_TEACHER_IDS, 'too_long');

/** Grades, ascending and without repeats (SPEC.md §3: sorted on load; 99 = Absolvent). */
export const gradesField = () =>
  z
    .array(gradeField(), { error: 'required' })
    .min(1, 'required')
    .max(GRADES.length * 2, 'too_long')
    .transform((grades) => [...new Set(grades)].sort((a, b) => a - b));

const examFields = {
  name: requiredText(MAX_TEXT_LENGTH),
  subject: requiredText(100),
  description: optionalMultilineText(MAX_DESCRIPTION_LENGTH).nullable(),
  grades: gradesField(),
};

/** `POST /exams/` (admins only). Teacher lists are optional; only active teachers. */
export const examCreateSchema = z
  .object({
    ...examFields,
    adminTeacherIds: teacherIdsField().optional(),
    staffTeacherIds: teacherIdsField().optional(),
  })
  .strict();
export type ExamCreateInput = z.input<typeof examCreateSchema>;

/**
 * `PATCH /exams/{examId}`: only what is sent changes. `adminTeacherIds` / `staffTeacherIds`
 * replace the whole list (the pickers send it with one teacher checked or unchecked).
 */
export const examPatchSchema = examCreateSchema.partial().strict();
export type ExamPatchInput = z.input<typeof examPatchSchema>;

const editionFields = {
  name: requiredText(MAX_TEXT_LENGTH),
  year: z
    .number({ error: 'not_number' })
    .int('invalid')
    .min(MIN_EDITION_YEAR, 'invalid')
    .max(MAX_EDITION_YEAR, 'invalid')
    .nullable(),
  state: z.enum(EDITION_STATES, { error: 'invalid' }),
  /** The edition's terms and conditions (an http(s) link); null removes it. */
  termsUrl: z
    .url({ protocol: /^https?$/, error: 'invalid' })
    .max(MAX_URL_LENGTH, 'too_long')
    .nullable(),
  /** Coordinators (SPEC.md `teacherIds`); replaces the whole list. */
  teacherIds: teacherIdsField(),
  /** Manual sign-up switch of the whole edition (SPEC.md §4). */
  registrationOpen: z.boolean({ error: 'invalid' }),
};

export const editionCreateSchema = z
  .object({
    name: editionFields.name,
    year: editionFields.year.optional(),
    state: editionFields.state.optional(),
    termsUrl: editionFields.termsUrl.optional(),
    teacherIds: editionFields.teacherIds.optional(),
    registrationOpen: editionFields.registrationOpen.optional(),
  })
  .strict();
export type EditionCreateInput = z.input<typeof editionCreateSchema>;
export const editionPatchSchema = z.object(editionFields).partial().strict();
export type EditionPatchInput = z.input<typeof editionPatchSchema>;

/** An instant with its offset (`2026-11-23T09:00:00Z`, `…+02:00`). */
export const instantField = () =>
  z.iso.datetime({ offset: true, error: 'invalid_date' }).max(40, 'invalid_date');

export const phaseFields = {
  name: requiredText(MAX_TEXT_LENGTH),
  type: z.enum(PHASE_TYPES, { error: 'required' }),
  startDate: instantField(),
  endDate: instantField(),
  /** Manual sign-up switch (SPEC.md §4). */
  registrationOpen: z.boolean({ error: 'invalid' }),
  /** Share of an item's maximum above which two reviewers' marks go to the mediator. */
  mediationThreshold: z.number({ error: 'not_number' }).min(0, 'invalid').max(1, 'invalid'),
  /** The step of review marks: 0.01 to 100 points (0.5 by default). */
  markStep: z.number({ error: 'not_number' }).min(0.01, 'invalid').max(100, 'invalid'),
  /**
   * Points the re-marked paper must differ from the first by for an appeal to change its
   * score (0 to 1000, hundredths).
   */
  appealMinPoints: z
    .number({ error: 'not_number' })
    .min(0, 'invalid')
    .max(1000, 'invalid')
    .refine((n) => Number.isInteger(Math.round(n * 100 * 1e6) / 1e6), 'invalid'),
  /** The appeal window; null removes it. The server checks start < end (invalid_date). */
  appealStartDate: instantField().nullable(),
  appealEndDate: instantField().nullable(),
};

/**
 * `POST …/phases`. The server also checks start < end (INVALID_PHASE_DATES) and no overlap
 * with another phase of the edition (OVERLAPPING_PHASE_DATES); both mark startDate and
 * endDate `invalid_date`.
 */
export const phaseCreateSchema = z
  .object({
    name: phaseFields.name,
    type: phaseFields.type,
    startDate: phaseFields.startDate,
    endDate: phaseFields.endDate,
    registrationOpen: phaseFields.registrationOpen.optional(),
    mediationThreshold: phaseFields.mediationThreshold.optional(),
    markStep: phaseFields.markStep.optional(),
    appealMinPoints: phaseFields.appealMinPoints.optional(),
    appealStartDate: phaseFields.appealStartDate.optional(),
    appealEndDate: phaseFields.appealEndDate.optional(),
  })
  .strict();
export type PhaseCreateInput = z.input<typeof phaseCreateSchema>;
export const phasePatchSchema = z.object(phaseFields).partial().strict();
export type PhasePatchInput = z.input<typeof phasePatchSchema>;

const studentIdsField = () =>
  z.array(uuidField(), { error: 'required' }).min(1, 'required').max(MAX_BULK_STUDENTS, 'too_long');

/** `PUT …/phases/{phaseId}/students/`: admit or reject these students. */
export const phaseResultsSchema = z
  .object({
    studentIds: studentIdsField(),
    result: z.enum(PHASE_RESULTS, { error: 'required' }),
  })
  .strict();
export type PhaseResultsInput = z.input<typeof phaseResultsSchema>;

/** `POST …/students/admit-top`: the best `count` of each grade (or of `grade` only). */
export const admitTopSchema = z
  .object({
    grade: gradeField().optional(),
    count: z
      .number({ error: 'required' })
      .int('invalid')
      .positive('not_positive')
      .max(100_000, 'invalid'),
  })
  .strict();
export type AdmitTopInput = z.input<typeof admitTopSchema>;

/** `POST …/students/admit-threshold`: everyone whose phase total is at least `minScore`. */
export const admitThresholdSchema = z
  .object({
    grade: gradeField().optional(),
    minScore: z.number({ error: 'required' }).min(0, 'invalid').max(1_000_000, 'invalid'),
  })
  .strict();
export type AdmitThresholdInput = z.input<typeof admitThresholdSchema>;

/** `POST|DELETE …/editions/{editionId}/students`. */
export const editionStudentsSchema = z.object({ students: studentIdsField() }).strict();
export type EditionStudentsInput = z.input<typeof editionStudentsSchema>;

/** `PUT …/editions/{editionId}/students`: change the grade and/or exam location. */
export const editionStudentChangesSchema = z
  .object({
    students: z
      .array(
        z
          .object({
            studentId: uuidField(),
            grade: gradeField().optional(),
            studentCentre: optionalText().nullable(),
          })
          .strict(),
        { error: 'required' },
      )
      .min(1, 'required')
      .max(MAX_BULK_STUDENTS, 'too_long'),
  })
  .strict();
export type EditionStudentChangesInput = z.input<typeof editionStudentChangesSchema>;

/**
 * List query: `?filter=<LoopBack filter JSON>`, and nothing else: a parameter the list does
 * not understand (`?where=` on a list) is refused, never ignored.
 */
export const filterQuerySchema = z
  .object({ filter: z.string().max(MAX_FILTER_LENGTH, 'too_long').optional() })
  .strict();
/** Count query: `?where=<LoopBack where JSON>`, and nothing else (`?filter=` is refused). */
export const whereQuerySchema = z
  .object({ where: z.string().max(MAX_FILTER_LENGTH, 'too_long').optional() })
  .strict();
