import { z } from 'zod';
import { LOCALES, STUDENT_LOCALES, USER_STATES, USER_TYPES } from '../constants.js';
import {
  countyField,
  dateField,
  gradeField,
  nameField,
  optionalText,
  pictureField,
  requiredText,
  sectorField,
  teacherCodeField,
} from './fields.js';
import { DEFAULT_SETTINGS as DEVICE_DEFAULTS } from './users-values.js';

const settingsFields = {
  layout: z.enum(['full', 'boxed']),
  theme: z.enum(['light', 'dark']),
  colorScheme: z.enum(['blue', 'teal', 'indigo', 'amber']),
  customScrollbars: z.boolean(),
  animations: z.boolean(),
  direction: z.enum(['ltr', 'rtl']),
  folded: z.boolean(),
};

/** The layout settings a device starts with, checked here against the schema. */
export const DEFAULT_SETTINGS: Settings = DEVICE_DEFAULTS;

/**
 * Layout settings (SPEC.md §2 settings panel); guests keep them locally, users in `data`.
 * No defaults here: a partial update must not reset what it does not name.
 */
export const settingsSchema = z.object(settingsFields).partial().strict();
export type Settings = { [K in keyof typeof settingsFields]: z.infer<(typeof settingsFields)[K]> };

export const userDataSchema = z
  .object({
    shortcuts: z.array(z.string().max(200)).max(20),
    settings: settingsSchema,
  })
  .partial()
  .strict();
export type UserData = z.infer<typeof userDataSchema>;

/** The user as the API shows it (whoami, GET /users/{id}); never the password or tokens. */
export const userSchema = z.object({
  _id: z.string(),
  email: z.string(),
  givenName: z.string().nullable(),
  familyName: z.string().nullable(),
  givenNameNormalized: z.string().nullable(),
  familyNameNormalized: z.string().nullable(),
  locale: z.string().nullable(),
  uiLocale: z.enum(LOCALES),
  picture: z.string().nullable(),
  type: z.enum(USER_TYPES),
  role: z.array(z.enum(USER_TYPES)),
  state: z.enum(USER_STATES),
  registered: z.boolean(),
  emailConfirmed: z.boolean(),
  county: z.string().nullable(),
  /** A Bucharest student's sector (1–6); null elsewhere or not set yet. */
  bucharestSector: z.number().nullable(),
  country: z.string().nullable(),
  city: z.string().nullable(),
  school: z.string().nullable(),
  grade: z.number().nullable(),
  dateOfBirth: z.string().nullable(),
  occupation: z.string().nullable(),
  teacherRef: z.string().nullable(),
  /** A teacher's own team code; a student's is their coordinating teacher's. */
  teacherCode: z.string().nullable(),
  discipline: z.string().nullable(),
  studentCentre: z.string().nullable(),
  studentEditions: z.array(z.object({ editionId: z.string() })),
  data: userDataSchema,
  createdAt: z.string(),
});
export type User = z.infer<typeof userSchema>;

/** PATCH /user-mgmt/users/{email}: every field optional; only what is sent changes. */
export const profilePatchSchema = z
  .object({
    givenName: nameField(),
    familyName: nameField(),
    county: countyField(),
    /**
     * Students: their sector when the county is București (null: not known); the server
     * clears it when the county is another.
     */
    bucharestSector: sectorField().nullable(),
    city: requiredText(),
    school: requiredText(),
    discipline: requiredText(),
    dateOfBirth: dateField(),
    grade: gradeField(),
    locale: z.enum(STUDENT_LOCALES, { error: 'invalid' }),
    occupation: optionalText(),
    uiLocale: z.enum(LOCALES, { error: 'invalid' }),
    picture: pictureField().nullable(),
    data: userDataSchema,
    // Students only: the team code re-links them to that teacher (teacherRef).
    teacherCode: teacherCodeField(),
  })
  .partial()
  .strict();
export type ProfilePatch = z.input<typeof profilePatchSchema>;
