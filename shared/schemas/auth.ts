import { z } from 'zod';
import {
  BUCHAREST,
  LOCALES,
  MAX_PASSWORD_LENGTH,
  SIGNUP_TYPES,
  STUDENT_LOCALES,
} from '../constants.js';
import {
  countyField,
  dateField,
  emailField,
  gradeField,
  nameField,
  optionalText,
  passwordField,
  requiredText,
  sectorField,
  teacherCodeField,
  uuidField,
} from './fields.js';

export const signupSchema = z.object({
  email: emailField(),
  password: passwordField(),
  type: z.enum(SIGNUP_TYPES, { error: 'required' }),
  locale: z.enum(LOCALES, { error: 'invalid' }).default('ro'),
});
export type SignupInput = z.input<typeof signupSchema>;

export const loginSchema = z.object({
  email: emailField(),
  password: z.string({ error: 'required' }).min(1, 'required').max(MAX_PASSWORD_LENGTH, 'too_long'),
});
export type LoginInput = z.input<typeof loginSchema>;

export const forgotPasswordSchema = z.object({
  email: emailField(),
  locale: z.enum(LOCALES, { error: 'invalid' }).optional(),
});

export const resetPasswordSchema = z.object({
  uid: uuidField(),
  code: z.string({ error: 'required' }).min(1, 'required').max(200, 'too_long'),
  password: passwordField(),
});

/** Link codes are URL-safe base64 of 32 random bytes. */
export const tokenParamsSchema = z.object({
  uid: uuidField(),
  code: z.string().min(1).max(200),
});

export const sessionSchema = z.object({ token: z.string(), userId: z.string() });
export type Session = z.infer<typeof sessionSchema>;

export const registerTeacherSchema = z.object({
  givenName: nameField(),
  familyName: nameField(),
  county: countyField(),
  city: requiredText(),
  school: requiredText(),
  discipline: requiredText(),
  teacherCode: teacherCodeField(),
});
export type RegisterTeacherInput = z.input<typeof registerTeacherSchema>;

export const registerStudentSchema = z
  .object({
    givenName: nameField(),
    familyName: nameField(),
    dateOfBirth: dateField(),
    county: countyField(),
    /** Required when the county is București (its sector, 1–6); ignored for another county. */
    bucharestSector: sectorField().nullish(),
    city: requiredText(),
    school: requiredText(),
    grade: gradeField(),
    locale: z.enum(STUDENT_LOCALES, { error: 'required' }),
    // Checked by the server (TEACHER_CODE_NOT_PROVIDED / TEACHER_CODE_NOT_FOUND), so that
    // the answer lands on the field as SPEC.md §5 describes.
    teacherCode: z.string().trim().toUpperCase().max(20, 'too_long').optional(),
    occupation: optionalText(),
  })
  .refine((s) => s.county !== BUCHAREST || (s.bucharestSector ?? null) !== null, {
    message: 'required',
    path: ['bucharestSector'],
  });
export type RegisterStudentInput = z.input<typeof registerStudentSchema>;

export const registerSchema = z.union([registerTeacherSchema, registerStudentSchema]);

export const okSchema = z.object({ ok: z.literal(true) });

/** A sign-in throttle counter, for admins (GET /auth-service/auth/throttles). */
export const throttleSchema = z.object({
  _id: z.string(),
  /** pair: one account from one address; account: from anywhere; address: across accounts. */
  scope: z.enum(['pair', 'account', 'address']),
  email: z.string().nullable(),
  address: z.string().nullable(),
  /** Failures counted (for an address: accounts it failed on). */
  failures: z.number().int(),
  lastFailureAt: z.string(),
  /** Until when the next try must wait, or null when nobody waits now. */
  blockedUntil: z.string().nullable(),
});
export type ThrottleView = z.infer<typeof throttleSchema>;

/** A refused sign-in's TOO_MANY_ATTEMPTS details: seconds until the next try is taken. */
export type TooManyAttemptsDetails = { retryAfter: number };

export { DEVICE_HEADER, OIDC_ERROR_REASONS, type OidcErrorReason } from './auth-values.js';

/** A signed-in user's new password: the current one proves it is them (SPEC: same rules as sign-up). */
export const changePasswordSchema = z.object({
  currentPassword: z
    .string({ error: 'required' })
    .min(1, 'required')
    .max(MAX_PASSWORD_LENGTH, 'too_long'),
  password: passwordField(),
});
export type ChangePasswordInput = z.input<typeof changePasswordSchema>;

/** One live session of the signed-in user, as their security page lists it. */
export const accountSessionSchema = z.object({
  _id: z.uuid(),
  /** The browser's own description (User-Agent), cut to 300 characters; null when none. */
  userAgent: z.string().nullable(),
  createdAt: z.string(),
  lastSeenAt: z.string(),
  /** The session this request came with. */
  current: z.boolean(),
});
export type AccountSession = z.infer<typeof accountSessionSchema>;

export const sessionParamsSchema = z.object({ sessionId: z.uuid() });
export const endedSessionsSchema = z.object({ ended: z.number().int() });
