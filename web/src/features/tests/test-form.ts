import { z } from 'zod';
import type { Exam, Phase } from '../../../../shared/schemas/exams.js';
import { testCreateSchema } from '../../../../shared/schemas/tests.js';
import { ceilToMinute, fromLocalInput, toLocalInput } from './format.js';

/**
 * The create dialog's values: numbers and dates as their inputs hold them (text), turned
 * into the route's body by `testForm`, which then applies the route's own schema.
 */
export type TestFormValues = {
  name: string;
  grades: number[];
  subject: string;
  startDate: string;
  endDate: string;
  duration: string;
  totalScore: string;
  easyCount: string;
  mediumCount: string;
  hardCount: string;
  /** Off: the total is shared equally (whole or half points); on: easy 1 : medium 2 : hard 3. */
  weightByDifficulty?: boolean;
};

/** Fields the server may name in an error, and so the form shows errors on. */
export const TEST_FORM_FIELDS = [
  'name',
  'grades',
  'subject',
  'startDate',
  'endDate',
  'duration',
  'totalScore',
  'easyCount',
  'mediumCount',
  'hardCount',
  'weightByDifficulty',
] as const;

const fields = testCreateSchema.shape;

/** A number typed in a box ('' is missing; a decimal comma is a point, as Romanians write). */
const numberText = <T extends z.ZodType<unknown, number>>(field: T) =>
  z
    .string()
    .trim()
    .transform((s, ctx) => {
      const n = Number(s.replace(',', '.'));
      if (s !== '' && Number.isFinite(n)) return n;
      ctx.issues.push({ code: 'custom', message: s === '' ? 'required' : 'not_number', input: s });
      return z.NEVER;
    })
    .pipe(field);

/** A `datetime-local` value, required, as the instant the route checks. */
const localInstant = <T extends z.ZodType<unknown, string>>(field: T) =>
  z.string().min(1, 'required').transform(fromLocalInput).pipe(field);

/**
 * The form → the body of `POST …/tests`. Every field is checked by the route's own field
 * schema (so all wrong fields show at once); the whole body then by the route's schema.
 */
export const testForm = z
  .object({
    name: fields.name,
    grades: fields.grades,
    subject: fields.subject,
    startDate: localInstant(fields.startDate),
    endDate: localInstant(fields.endDate),
    duration: numberText(fields.duration),
    totalScore: numberText(fields.totalScore),
    easyCount: numberText(fields.easyCount),
    mediumCount: numberText(fields.mediumCount),
    hardCount: numberText(fields.hardCount),
    weightByDifficulty: fields.weightByDifficulty,
  })
  .superRefine((v, ctx) => {
    // The route only checks the dates against the phase; an end before the start is plain.
    if (v.endDate <= v.startDate) {
      ctx.addIssue({ code: 'custom', path: ['endDate'], message: 'invalid_date' });
    }
  })
  .pipe(testCreateSchema);

/**
 * A new test: the competition's subject, the phase's window (in whole minutes, inside it), the
 * usual 120 minutes and 100 points, shared equally between the questions.
 */
export function emptyTest(
  exam: Pick<Exam, 'subject'>,
  phase: Pick<Phase, 'startDate' | 'endDate'>,
) {
  return {
    name: '',
    grades: [],
    subject: exam.subject,
    startDate: toLocalInput(ceilToMinute(phase.startDate)),
    endDate: toLocalInput(phase.endDate),
    duration: '120',
    totalScore: '100',
    easyCount: '',
    mediumCount: '',
    hardCount: '',
    weightByDifficulty: false,
  } satisfies TestFormValues;
}
