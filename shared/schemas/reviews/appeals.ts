// The answers of appeals: where an appeal stands, the appeal list's entry, its detail.

import { z } from 'zod';
import { markSchema, reviewAnswerSchema, reviewQuestionSchema, rubricSchema } from './marking.js';
import { APPEAL_KINDS, APPEAL_OUTCOMES, APPEAL_STATUSES, MARKER_ROLES } from './rules.js';

export const appealInfoSchema = z.object({
  kind: z.enum(APPEAL_KINDS),
  status: z.enum(APPEAL_STATUSES),
  /** What the student contests. */
  reason: z.string(),
  filedAt: z.string(),
  maxScore: z.number(),
  markStep: z.number(),
  thresholdPoints: z.number(),
  /** A change smaller than this many points keeps the original score. */
  minChangePoints: z.number(),
  /** The final score before the appeal (an appeal reviewer sees it after marking). */
  originalScore: z.number().nullable(),
  grade1: z.number().nullable(),
  grade2: z.number().nullable(),
  average: z.number().nullable(),
  mediatorScore: z.number().nullable(),
  mediatorNote: z.string().nullable(),
  /** The score the appeal's marking came to, and the item's final score after it. */
  resultScore: z.number().nullable(),
  finalScore: z.number().nullable(),
  outcome: z.enum(APPEAL_OUTCOMES).nullable(),
  decisionNote: z.string().nullable(),
  resolvedAt: z.string().nullable(),
  /**
   * Fewer than two teachers of the question are free to re-mark it (they marked or mediated
   * the answer, or coordinate the student): the exam's admins decide it through
   * `…/mediations`, with the one re-mark it may have.
   */
  waitsForMarkers: z.boolean(),
});
export type AppealInfo = z.infer<typeof appealInfoSchema>;

/**
 * SPEC.md §3 contestation entry: one appealed item. `_id` is the `reviewId` of the appeal
 * calls; `appeals` its marks (the original marks are not among them).
 */
export const contestationEntrySchema = z.object({
  _id: z.string(),
  code: z.string(),
  itemIndexInTest: z.number(),
  testId: z.string(),
  itemId: z.string(),
  answerId: z.string(),
  studentId: z.string().nullable(),
  appeals: z.array(markSchema),
  appealInfo: appealInfoSchema,
  reviewerScore: z.number().nullable(),
  myRole: z.enum(MARKER_ROLES),
  version: z.number(),
  canMark: z.boolean(),
  canMediate: z.boolean(),
  /** The exam's admins may close a committee appeal or correct the key. */
  canDecide: z.boolean(),
  updatedAt: z.string(),
});
export type ContestationEntry = z.infer<typeof contestationEntrySchema>;

/** `GET …/appeals/{reviewId}`. `answer.text` for online items also holds the typed answer. */
export const appealDetailSchema = z.object({
  entry: contestationEntrySchema,
  question: reviewQuestionSchema,
  answer: reviewAnswerSchema.extend({
    /** An online choice or numeric answer as submitted (option indices or the typed value). */
    submittedAnswer: z.union([z.array(z.number()), z.string()]).nullable(),
  }),
  rubric: rubricSchema,
});
export type AppealDetail = z.infer<typeof appealDetailSchema>;
