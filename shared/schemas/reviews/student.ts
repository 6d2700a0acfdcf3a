// The answers a student gets: their result per question and their appeals.

import { z } from 'zod';
import { ITEM_TYPES } from '../items.js';
import { RESULT_STATES, SCORE_CHANGE_CAUSES } from '../results.js';
import { APPEAL_OUTCOMES, STUDENT_APPEAL_STATUSES } from './rules.js';

/**
 * SPEC.md §3 student review item. `appealStatus` 'none' shows 'Reviewing' (or
 * `status_appeal_none` while no final score exists), 'pending' 'Contestation pending';
 * 'resolved' once the appeal was decided (`appealOutcome`). `canChallenge`: inside the appeal
 * window, a final score, never appealed.
 */
/** What a student is told set an item's points: the key (scored automatically) or a cause. */
export const STUDENT_SCORE_DECIDERS = ['key', ...SCORE_CHANGE_CAUSES] as const;
export type StudentScoreDecider = (typeof STUDENT_SCORE_DECIDERS)[number];

export const studentReviewItemSchema = z.object({
  itemId: z.string(),
  /** The item's place as the student had it ('Întrebarea N', N = index + 1). */
  itemIndexInTest: z.number(),
  /** The question as the student had it (Markdown), with its options; never its key. */
  statement: z.string(),
  itemType: z.enum(ITEM_TYPES),
  itemAnswers: z.array(z.string()),
  /** What the student answered online (options chosen, or typed); pages of a hybrid test are
   * read through the uploads module. Null: no answer. */
  ownAnswer: z.union([z.array(z.number()), z.string()]).nullable(),
  maxScore: z.number(),
  /** Null while the item waits for marking. */
  finalScore: z.number().nullable(),
  scoreState: z.enum(RESULT_STATES).nullable(),
  appealStatus: z.enum(STUDENT_APPEAL_STATUSES),
  appealOutcome: z.enum(APPEAL_OUTCOMES).nullable(),
  canChallenge: z.boolean(),
  /**
   * What set the points now shown (never who): the answer key, the reviewers' marking, a
   * mediator, an appeal, a corrected key. Null while the item waits for marking.
   */
  decidedBy: z.enum(STUDENT_SCORE_DECIDERS).nullable(),
  /** Every change of the item's decided points, oldest first (empty: the first still stands). */
  changes: z.array(
    z.object({
      before: z.number(),
      after: z.number(),
      cause: z.enum(SCORE_CHANGE_CAUSES),
      at: z.string(),
    }),
  ),
});
export type StudentReviewItem = z.infer<typeof studentReviewItemSchema>;

/** `GET /test-review/tests/{testId}/items`: the student's result, item by item. */
export const studentResultSchema = z.object({
  testId: z.string(),
  /** Where the test is, for the student's own answers (statement and pages) beside the points. */
  examId: z.string(),
  editionId: z.string(),
  phaseId: z.string(),
  /** A hybrid test: the student's answer is the pages they uploaded. */
  hybrid: z.boolean(),
  testName: z.string(),
  score: z.number().nullable(),
  scoreState: z.enum(RESULT_STATES).nullable(),
  appealStartDate: z.string().nullable(),
  appealEndDate: z.string().nullable(),
  /** The window is open now (server clock). */
  appealOpen: z.boolean(),
  items: z.array(studentReviewItemSchema),
});
export type StudentResult = z.infer<typeof studentResultSchema>;
