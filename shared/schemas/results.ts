import { z } from 'zod';

/**
 * Scores (DESIGN.md: the results module owns them). An item's points, a test's total and a
 * phase total are each in one of three states:
 * - `awaiting_marking`: some item still waits for people to mark it (an open item of an online
 *   test, every item of a hybrid test); the points shown are those already known;
 * - `provisional`: every item is decided but the phase's appeal window has not ended;
 * - `final`: decided, and no appeal can change it any more (or the phase has no appeal window).
 */
export const RESULT_STATES = ['awaiting_marking', 'provisional', 'final'] as const;
export type ResultState = (typeof RESULT_STATES)[number];

/** Where an item's points came from: the key, reviewers, a mediator, an appeal, the committee. */
export const SCORE_ORIGINS = ['auto', 'marked', 'mediated', 'appealed', 'entered'] as const;
export type ScoreOrigin = (typeof SCORE_ORIGINS)[number];

/**
 * Why an item's decided points moved (never who moved them): the reviewers' marking, a
 * mediator, an appeal's re-marking, or a corrected answer key (or item worth).
 */
export const SCORE_CHANGE_CAUSES = ['marking', 'mediation', 'appeal', 'key_fix'] as const;
export type ScoreChangeCause = (typeof SCORE_CHANGE_CAUSES)[number];

/** A test's (or a phase's) result as a student or a list shows it. */
export const resultSummarySchema = z.object({
  /** The points already known (null: nothing handed over for scoring yet). */
  score: z.number().nullable(),
  scoreState: z.enum(RESULT_STATES).nullable(),
  /** Items still waiting to be marked (0 when complete). */
  awaitingItems: z.number(),
});
export type ResultSummary = z.infer<typeof resultSummarySchema>;
