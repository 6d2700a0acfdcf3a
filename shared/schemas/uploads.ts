import { z } from 'zod';
import { DIFFICULTIES } from '../constants.js';
import { ITEM_TYPES } from './items.js';

/**
 * Hybrid answers (SPEC.md §3 Answer record; §7 upload service) under
 * `/api/v1/upload-mgmt/exams/{examId}/editions/{editionId}/phases/{phaseId}/tests/{testId}`:
 * the scanned pages of each item, and the teachers' view of a test's students.
 */

/** Most files (pages) one answer may hold, and most files in one upload request. */
export const MAX_ANSWER_FILES = 20;
/** An answer may hold this many times the largest single file (UPLOAD_MAX_BYTES) in all. */
export const ANSWER_BYTES_FACTOR = 4;
export { ANSWER_FILE_ACCEPT } from './uploads-values.js';
/** Multipart fields of an upload: `item_0`, `item_1`, … (SPEC.md §3). */
export const ANSWER_FILE_FIELD = /^item_\d{1,3}$/;
/** The zip of all an answer's files (SPEC.md §7: saved as response_{answerId}.zip). */
export const answerZipName = (answerId: string) => `response_${answerId}.zip`;

/** Where a student stands on a test (SPEC.md §2 students of a test). */
export const TEST_STUDENT_STATUSES = [
  'not_started',
  'in_progress',
  'finished',
  'uploaded',
] as const;
export type TestStudentStatus = (typeof TEST_STUDENT_STATUSES)[number];

/** Why a file of an upload was left out; the others of the same upload are kept. */
export const REJECTED_FILE_CODES = [
  'FILE_TYPE_NOT_ALLOWED',
  'FILE_TYPE_HEIC',
  'FILE_TOO_LARGE',
] as const;
export type RejectedFileCode = (typeof REJECTED_FILE_CODES)[number];

/**
 * Whether the caller may add or remove files now, and if not why: the test is not yet open
 * or over (students only), review has started, the phase is closed, the test is online, or
 * the caller only views.
 */
export const UPLOAD_STATES = [
  'open',
  'not_started',
  'ended',
  'review_started',
  'closed',
  'online',
  'view_only',
] as const;
export type UploadState = (typeof UPLOAD_STATES)[number];

// ---------------------------------------------------------------------------------------
// Responses

/** One stored page of an answer. */
export const answerFileSchema = z.object({
  _id: z.string(),
  name: z.string(),
  mime: z.string(),
  size: z.number(),
  createdAt: z.string(),
});
export type AnswerFile = z.infer<typeof answerFileSchema>;

/**
 * SPEC.md §3 Answer record. Hybrid: `answerFiles` in their order; online: `submittedAnswer`
 * (option indices in the question's own order, or the typed value) and its automatic score.
 * `enteredBy` is set when staff entered the answer of a student who wrote on paper.
 */
export const answerSchema = z.object({
  _id: z.string(),
  itemId: z.string(),
  studentId: z.string(),
  answerFiles: z.array(answerFileSchema),
  areFilesUploaded: z.boolean(),
  submittedAnswer: z.union([z.array(z.number()), z.string()]).nullable(),
  score: z.number().nullable(),
  enteredBy: z.string().nullable(),
  updatedAt: z.string(),
});
export type Answer = z.infer<typeof answerSchema>;

/** A file of an upload that was not kept, and why. */
export const rejectedFileSchema = z.object({
  field: z.string(),
  name: z.string(),
  code: z.enum(REJECTED_FILE_CODES),
  /** The type the bytes showed (null: not recognised). */
  mime: z.string().nullable(),
});
export type RejectedFile = z.infer<typeof rejectedFileSchema>;

/** `POST …/answers`: the answer with every kept file, and the report on the refused ones. */
export const uploadResultSchema = answerSchema.extend({
  rejectedFiles: z.array(rejectedFileSchema),
});
export type UploadResult = z.infer<typeof uploadResultSchema>;

/**
 * One item of a test for one student, 'Întrebarea N' with N = `index`, with that student's
 * answer (null: none yet). `itemCorrectAnswers` only for staff, and for coordinators once the
 * test has ended; never for students.
 */
export const answerItemSchema = z.object({
  itemId: z.string(),
  index: z.number(),
  score: z.number(),
  itemQ: z.string(),
  itemType: z.enum(ITEM_TYPES),
  itemAnswers: z.array(z.string()),
  imageFileId: z.string().nullable(),
  difficulty: z.enum(DIFFICULTIES),
  itemCorrectAnswers: z
    .union([z.array(z.number()), z.string()])
    .nullable()
    .optional(),
  answer: answerSchema.nullable(),
});
export type AnswerItem = z.infer<typeof answerItemSchema>;

/** A test as the upload screens show it in their header. */
export const uploadTestSchema = z.object({
  _id: z.string(),
  name: z.string(),
  subject: z.string(),
  grades: z.array(z.number()),
  startDate: z.string(),
  endDate: z.string(),
  type: z.enum(['online', 'hybrid']),
  published: z.boolean(),
});
export type UploadTest = z.infer<typeof uploadTestSchema>;

/**
 * `GET …/tests/{testId}` (teachers): the test, and whether the caller may enter paper answers
 * now (`uploadState` 'open') or why not.
 */
export const testSummarySchema = z.object({
  test: uploadTestSchema,
  uploadState: z.enum(UPLOAD_STATES),
  canEnterAnswers: z.boolean(),
});
export type TestSummary = z.infer<typeof testSummarySchema>;

/** `GET …/students/{studentId}/items`. */
export const studentItemsSchema = z.object({
  test: uploadTestSchema,
  student: z.object({
    _id: z.string(),
    givenName: z.string().nullable(),
    familyName: z.string().nullable(),
    grade: z.number().nullable(),
  }),
  status: z.enum(TEST_STUDENT_STATUSES),
  score: z.number().nullable(),
  uploadState: z.enum(UPLOAD_STATES),
  limits: z.object({
    maxFileBytes: z.number(),
    maxAnswerBytes: z.number(),
    maxFiles: z.number(),
    fileTypes: z.array(z.string()),
  }),
  items: z.array(answerItemSchema),
});
export type StudentItems = z.infer<typeof studentItemsSchema>;

/** A row of `GET …/students?filter=`: the test's students with how far they got. */
export const testStudentSchema = z.object({
  studentId: z.string(),
  familyName: z.string().nullable(),
  givenName: z.string().nullable(),
  studentCounty: z.string().nullable(),
  /** Bucharest's sector (1–6) of a student living there; null elsewhere or not set yet. */
  studentSector: z.number().nullable(),
  studentGrade: z.number().nullable(),
  school: z.string().nullable(),
  studentCentre: z.string().nullable(),
  status: z.enum(TEST_STUDENT_STATUSES),
  /** The points known once any item is decided (online: once finished; hybrid: once marked). */
  score: z.number().nullable(),
  /** Items still waiting to be marked, when `score` is set. */
  awaitingItems: z.number().nullable(),
  /** Items with an answer (files or a submitted answer). */
  answeredItems: z.number(),
  fileCount: z.number(),
});
export type TestStudent = z.infer<typeof testStudentSchema>;
export const testStudentListItemSchema = testStudentSchema
  .partial()
  .extend({ studentId: z.string() });
export type TestStudentListItem = z.infer<typeof testStudentListItemSchema>;

// ---------------------------------------------------------------------------------------
// Requests

/** `PATCH …/answers/{answerId}`: the files to keep, in the order to keep them. */
export const answerFilesPatchSchema = z
  .object({
    answerFiles: z
      .array(z.uuid({ error: 'invalid' }), { error: 'required' })
      .max(MAX_ANSWER_FILES, 'too_long'),
  })
  .strict();
export type AnswerFilesPatch = z.input<typeof answerFilesPatchSchema>;

/** `GET …/answers/{answerId}/files`: one file inline, or all of them as a zip. */
export const answerFilesQuerySchema = z.object({ fileId: z.uuid({ error: 'invalid' }).optional() });
