import { z } from 'zod';
import { PHASE_RESULTS, phaseCloseResultSchema, phaseSchema } from './exams.js';
import { requiredMultilineText } from './fields.js';
import { PRIZES } from './rankings.js';

/**
 * Reopening a closed phase for a correction, and what closing it again changed (issue 31:
 * "an explicit, audited reopening that re-runs the rules and says who changes").
 */

export const MAX_REOPEN_REASON_LENGTH = 1000;

/** `PUT …/phases/{phaseId}/reopen`: why the closed results must change, in writing. */
export const phaseReopenSchema = z
  .object({ reason: requiredMultilineText(MAX_REOPEN_REASON_LENGTH) })
  .strict();
export type PhaseReopenInput = z.infer<typeof phaseReopenSchema>;

/** The writes a reopened phase accepts again, the same ones a closed phase refuses. */
export const REOPEN_ALLOWS = [
  'marks',
  'mediations',
  'appeals',
  'keyFixes',
  'pointEdits',
  'rules',
  'decisions',
] as const;

export const phaseReopenResultSchema = phaseSchema.extend({
  reopen: z.object({
    reason: z.string(),
    reopenedAt: z.string(),
    reopenedBy: z.string(),
    /** Students whose total, place, decision and prize were kept at the close, to compare. */
    keptStandings: z.number(),
    allows: z.array(z.enum(REOPEN_ALLOWS)),
  }),
});
export type PhaseReopenResult = z.infer<typeof phaseReopenResultSchema>;

/** One student's standing in a phase: the facts a close makes final. */
export const standingSchema = z.object({
  total: z.number().nullable(),
  rank: z.number().nullable(),
  status: z.enum(PHASE_RESULTS).nullable(),
  prize: z.enum(PRIZES).nullable(),
});
export type Standing = z.infer<typeof standingSchema>;

/** A student whose standing differs from the one kept at the phase's previous close. */
export const standingChangeSchema = z.object({
  studentId: z.string(),
  familyName: z.string().nullable(),
  givenName: z.string().nullable(),
  before: standingSchema,
  after: standingSchema,
});
export type StandingChange = z.infer<typeof standingChangeSchema>;

/** A diploma printed before the change: its facts stay as printed; it needs a reprint. */
export const affectedDiplomaSchema = z.object({
  code: z.string(),
  studentId: z.string(),
  prize: z.enum(PRIZES).nullable(),
});
export type AffectedDiploma = z.infer<typeof affectedDiplomaSchema>;

/**
 * What `PUT …/finish` answers: the closed phase and, when it closes again after a reopening,
 * who changes (empty on a first close) and the diplomas of those students already printed.
 */
export const phaseClosedSchema = phaseCloseResultSchema.extend({
  changes: z.array(standingChangeSchema),
  diplomas: z.array(affectedDiplomaSchema),
});
export type PhaseClosed = z.infer<typeof phaseClosedSchema>;
