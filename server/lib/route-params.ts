import { z } from 'zod';

// The path parameters of the API, one schema each: every id in a path is a UUID (a malformed
// one is VALIDATION_FAILED before any route runs), named as SPEC.md §7 names it.

/** `/{id}` (a user, a file, an edition to sign up for). */
export const idParams = z.object({ id: z.uuid() });
/** `/exams/{examId}`. */
export const examParams = z.object({ examId: z.uuid() });
/** `/exams/{examId}/editions/{editionId}`. */
export const editionParams = examParams.extend({ editionId: z.uuid() });
/** `/exams/{examId}/editions/{editionId}/phases/{phaseId}`. */
export const phaseParams = editionParams.extend({ phaseId: z.uuid() });
/** `…/phases/{phaseId}/tests/{testId}`. */
export const phaseTestParams = phaseParams.extend({ testId: z.uuid() });

export type PhaseIds = z.infer<typeof phaseParams>;
export type PhaseTestIds = z.infer<typeof phaseTestParams>;
