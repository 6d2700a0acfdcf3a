import { z } from 'zod';
import { MAX_EMAIL_LENGTH, USER_STATES } from '../constants.js';
import type { ERROR_CODES } from '../errors.js';
import { teacherCodeField } from './fields.js';
import { userSchema } from './users.js';

/**
 * People lists (issue 3, /work/briefs/people-contract.md): students and teachers of user-mgmt.
 * `filter` and `where` travel as LoopBack JSON text; the server checks them against the list's
 * allow-list (server/lib/filter) and answers VALIDATION_FAILED for anything it does not know.
 */

/** Longest `filter`/`where` JSON text accepted in a query string. */
export const MAX_FILTER_JSON_LENGTH = 100_000;
/** Most people in one bulk state change. */
export const MAX_STATE_CHANGES = 500;
/** Most rows in one spreadsheet download. */
export const MAX_DOWNLOAD_ROWS = 100_000;

const filterText = () => z.string().max(MAX_FILTER_JSON_LENGTH).optional();
/** Narrows a students list to one competition the caller organises. */
const examAdminField = () =>
  z.uuid().optional().meta({
    description:
      'A competition id: only its students, for its admin and staff teachers (404 otherwise).',
  });

/** GET /students?filter=…&examAdmin=… (and /students/downloads). */
export const studentsQuerySchema = z
  .object({ filter: filterText(), examAdmin: examAdminField() })
  .strict();
export type StudentsQuery = z.infer<typeof studentsQuerySchema>;

/** GET /students/count?where=…&examAdmin=… */
export const studentsCountQuerySchema = z
  .object({ where: filterText(), examAdmin: examAdminField() })
  .strict();
export type StudentsCountQuery = z.infer<typeof studentsCountQuerySchema>;

/** GET /teachers?filter=… (and /teachers/downloads). */
export const teachersQuerySchema = z.object({ filter: filterText() }).strict();
export type TeachersQuery = z.infer<typeof teachersQuerySchema>;

/** GET /teachers/count?where=… */
export const teachersCountQuerySchema = z.object({ where: filterText() }).strict();
export type TeachersCountQuery = z.infer<typeof teachersCountQuerySchema>;

/** `{ count }` of the count endpoints. */
export const countSchema = z.object({ count: z.number().int().nonnegative() });
export type CountAnswer = z.infer<typeof countSchema>;

/**
 * One row of a people list: the User DTO, possibly projected by `fields` (so any key may be
 * missing). Teachers also carry the computed `isStaff` / `isExamAdmin` flags.
 */
export const personSchema = userSchema
  .extend({ isStaff: z.boolean(), isExamAdmin: z.boolean() })
  .partial();
export type Person = z.infer<typeof personSchema>;
export const peopleListSchema = z.array(personSchema);

/** Fields the students list accepts in `where` (and `order`, `fields`). */
export const STUDENT_FILTER_FIELDS = [
  '_id',
  'email',
  'familyName',
  'givenName',
  'county',
  /** A Bucharest student's sector; `{ county: 'București', bucharestSector: null }`: not set. */
  'bucharestSector',
  'country',
  'city',
  'school',
  'grade',
  'state',
  'teacherRef',
  'studentCentre',
  'registered',
  'createdAt',
  'editionId',
] as const;

/** Fields the teachers list accepts in `where` (and `order`, `fields`). */
export const TEACHER_FILTER_FIELDS = [
  '_id',
  'email',
  'familyName',
  'givenName',
  'county',
  'country',
  'city',
  'school',
  'state',
  'discipline',
  'teacherCode',
  'registered',
  'createdAt',
  'isStaff',
  'isExamAdmin',
] as const;

/** The relation a students filter may ask for in `include`. */
export const STUDENT_INCLUDES = ['studentEditions'] as const;

const stateChange = z
  .object({
    email: z.string().trim().toLowerCase().min(1).max(MAX_EMAIL_LENGTH),
    state: z.enum(USER_STATES),
  })
  .strict();
export type StateChange = z.infer<typeof stateChange>;

/** POST /students/state */
export const studentsStateBodySchema = z
  .object({ students: z.array(stateChange).min(1).max(MAX_STATE_CHANGES) })
  .strict();
export type StudentsStateBody = z.input<typeof studentsStateBodySchema>;

/** POST /teachers/state */
export const teachersStateBodySchema = z
  .object({ teachers: z.array(stateChange).min(1).max(MAX_STATE_CHANGES) })
  .strict();
export type TeachersStateBody = z.input<typeof teachersStateBodySchema>;

/**
 * Why one person of a bulk state change was not changed:
 * NOT_FOUND — no such account, or one outside the caller's scope (never a hint which);
 * OPERATION_NOT_PERMITTED — in the caller's scope but not theirs to change (a student a
 * teacher sees through a competition but does not coordinate);
 * CLIENT_ERROR — the account is visible but not of the list's type (a teacher's e-mail sent
 * to /students/state) or named twice with different states. Already in that state is no failure.
 */
export const STATE_FAILURE_CODES = [
  'NOT_FOUND',
  'OPERATION_NOT_PERMITTED',
  'CLIENT_ERROR',
] as const satisfies readonly (typeof ERROR_CODES)[number][];
export const stateFailureSchema = z.object({
  email: z.string(),
  code: z.enum(STATE_FAILURE_CODES),
});
export type StateFailure = z.infer<typeof stateFailureSchema>;
/** The answer of a bulk state change: the failures; empty means everything was done. */
export const stateFailuresSchema = z.array(stateFailureSchema);

/** PUT /users/{email}/teacher-codes */
export const teacherCodeBodySchema = z.object({ teacherCode: teacherCodeField() }).strict();

/** PUT /users/{email}/type: an admin corrects the type of an account made as the wrong one. */
export const accountTypeBodySchema = z
  .object({ type: z.enum(['student', 'teacher'], { error: 'invalid' }) })
  .strict();
export type AccountTypeBody = z.infer<typeof accountTypeBodySchema>;
export type TeacherCodeBody = z.input<typeof teacherCodeBodySchema>;

/** Spreadsheet downloads: content type and file names. */
export const XLSX_CONTENT_TYPE =
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
export const STUDENTS_DOWNLOAD_NAME = 'elevi.xlsx';
export const TEACHERS_DOWNLOAD_NAME = 'profesori.xlsx';
