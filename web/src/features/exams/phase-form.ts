import { z } from 'zod';
import type { Phase } from '../../../../shared/schemas/exams.js';
import { phaseCreateSchema, phaseFields } from '../../../../shared/schemas/exams.js';
import { fromLocalInput, toLocalInput } from './format.js';

const { name, type, startDate, endDate } = phaseCreateSchema.shape;
const { mediationThreshold, markStep, appealMinPoints } = phaseFields;

/** A number as typed: digits with one decimal comma or point ('8', '8,5', ',5'). */
const NUMBER = /^[+-]?(\d+([.,]\d*)?|[.,]\d+)$/;

/**
 * A typed number (decimal comma or point) divided by `per` (100 for a percentage), then the
 * route's own check of the setting.
 */
const typedNumber = (setting: z.ZodType<number, number>, per = 1) =>
  z
    .string()
    .transform((value, ctx) => {
      const s = value.replace(/\s/g, '');
      if (s === '') {
        ctx.issues.push({ code: 'custom', message: 'required', input: value });
        return z.NEVER;
      }
      if (!NUMBER.test(s)) {
        ctx.issues.push({ code: 'custom', message: 'not_number', input: value });
        return z.NEVER;
      }
      return Math.round((Number(s.replace(',', '.')) / per) * 1e6) / 1e6;
    })
    .pipe(setting);

/** A setting as the form shows it: the interface language's decimal sign, no grouping. */
const typedText = (n: number, language: string) =>
  new Intl.NumberFormat(language, { maximumFractionDigits: 4, useGrouping: false }).format(n);

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
    /** Typed as a percentage of the item's points (10 → 0.1). */
    mediationThreshold: typedNumber(mediationThreshold, 100),
    markStep: typedNumber(markStep),
    appealMinPoints: typedNumber(appealMinPoints),
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
  'mediationThreshold',
  'markStep',
  'appealMinPoints',
] as const;

/** A new phase's marking settings: the server's defaults. */
const NEW_PHASE = { mediationThreshold: 0.1, markStep: 0.5, appealMinPoints: 0 };

/**
 * The form's values for a phase, or an empty online phase without appeals with the server's
 * default marking settings; numbers written in `language`.
 */
export const phaseFormValues = (phase?: Phase, language = 'ro'): PhaseFormInput => ({
  name: phase?.name ?? '',
  type: phase?.type ?? 'online',
  startDate: toLocalInput(phase?.startDate),
  endDate: toLocalInput(phase?.endDate),
  appealStartDate: toLocalInput(phase?.appealStartDate),
  appealEndDate: toLocalInput(phase?.appealEndDate),
  mediationThreshold: typedText(
    Math.round((phase ?? NEW_PHASE).mediationThreshold * 100 * 1e4) / 1e4,
    language,
  ),
  markStep: typedText((phase ?? NEW_PHASE).markStep, language),
  appealMinPoints: typedText((phase ?? NEW_PHASE).appealMinPoints, language),
});
