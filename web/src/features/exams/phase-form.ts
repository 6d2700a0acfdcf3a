import { z } from 'zod';
import type { Phase } from '../../../../shared/schemas/exams.js';
import { phaseCreateSchema } from '../../../../shared/schemas/exams.js';
import { fromLocalInput, toLocalInput } from './format.js';

const { name, type, startDate, endDate } = phaseCreateSchema.shape;

/** A `datetime-local` value, required, turned into the instant the route checks. */
const localInstant = (instant: typeof startDate) =>
  z.string({ error: 'required' }).min(1, 'required').transform(fromLocalInput).pipe(instant);

/** A `datetime-local` value that may stay empty: null then, as the route takes "none". */
const optionalLocalInstant = () =>
  z.string().transform((value, ctx) => {
    if (value.trim() === '') return null;
    const iso = fromLocalInput(value);
    if (iso) return iso;
    ctx.issues.push({ code: 'custom', message: 'invalid_date', input: value });
    return z.NEVER;
  });

/**
 * The phase dialog's values → the body of `POST`/`PATCH …/phases`. The appeal window is
 * optional but whole, as the server wants it (INVALID_PHASE_DATES otherwise): an end without
 * a start (or the reverse) marks the empty one as required, an end not after the start marks
 * both.
 */
export const phaseForm = z
  .object({
    name,
    type,
    startDate: localInstant(startDate),
    endDate: localInstant(endDate),
    appealStartDate: optionalLocalInstant(),
    appealEndDate: optionalLocalInstant(),
  })
  .superRefine((v, ctx) => {
    const start = v.appealStartDate;
    const end = v.appealEndDate;
    if (start === null && end !== null) {
      ctx.addIssue({ code: 'custom', path: ['appealStartDate'], message: 'required' });
    } else if (start !== null && end === null) {
      ctx.addIssue({ code: 'custom', path: ['appealEndDate'], message: 'required' });
    } else if (start !== null && end !== null && end <= start) {
      for (const path of ['appealStartDate', 'appealEndDate']) {
        ctx.addIssue({ code: 'custom', path: [path], message: 'invalid_date' });
      }
    }
  });
export type PhaseFormInput = z.input<typeof phaseForm>;

/** Fields the server may name in an error, and so the form shows errors on. */
export const PHASE_FORM_FIELDS = [
  'name',
  'type',
  'startDate',
  'endDate',
  'appealStartDate',
  'appealEndDate',
] as const;

/** The form's values for a phase, or an empty online phase without appeals. */
export const phaseFormValues = (phase?: Phase): PhaseFormInput => ({
  name: phase?.name ?? '',
  type: phase?.type ?? 'online',
  startDate: toLocalInput(phase?.startDate),
  endDate: toLocalInput(phase?.endDate),
  appealStartDate: toLocalInput(phase?.appealStartDate),
  appealEndDate: toLocalInput(phase?.appealEndDate),
});
