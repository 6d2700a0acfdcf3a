// The answers of marking: marks, entries, the question, answer and rubric, history.

import { z } from 'zod';
import { ITEM_TYPES } from '../items.js';
import { FINAL_BY, MARKER_ROLES, REVIEW_STATUSES } from './rules.js';

/**
 * One mark of an entry. `isMine`: the caller gave it. `reviewer` 1 or 2 (the order the
 * answer's reviewers were assigned in; appeal marks in the order given). `reviewerId` only for
 * those who see the whole competition. A mark the caller may not see yet is left out.
 */
export const markSchema = z.object({
  _id: z.string(),
  reviewer: z.number(),
  isMine: z.boolean(),
  reviewerId: z.string().nullable(),
  reviewerScore: z.number().nullable(),
  criteria: z.array(z.string()),
  note: z.string().nullable(),
  markedAt: z.string().nullable(),
});
export type Mark = z.infer<typeof markSchema>;

/**
 * Where an entry stands (SPEC.md §3 "grade 1, grade 2, average or mediator"). Values the
 * caller may not see yet are null: a reviewer sees `grade1`/`grade2`/`finalScore` only after
 * giving their own mark.
 */
export const reviewInfoSchema = z.object({
  status: z.enum(REVIEW_STATUSES),
  /** The item's points in its test (marks go from 0 to this). */
  maxScore: z.number(),
  /** The phase's step of marks. */
  markStep: z.number(),
  /** Marks further apart than this many points go to the mediator. */
  thresholdPoints: z.number(),
  grade1: z.number().nullable(),
  grade2: z.number().nullable(),
  average: z.number().nullable(),
  mediatorScore: z.number().nullable(),
  mediatorNote: z.string().nullable(),
  mediatedAt: z.string().nullable(),
  finalScore: z.number().nullable(),
  finalBy: z.enum(FINAL_BY).nullable(),
  /** An appeal was filed on this answer (its marks are then fixed). */
  hasAppeal: z.boolean(),
});
export type ReviewInfo = z.infer<typeof reviewInfoSchema>;

/**
 * SPEC.md §3 review entry: one answer under review, 'Intrebare N' with N = itemIndexInTest + 1
 * (the item's place in the test). `_id` is the `reviewId` of every call about it.
 * `reviewerScore`: the caller's own mark (null: not given, or not a reviewer of it).
 * `studentId` is null for markers (blind); `code` is the answer's anonymous code. `answerId`
 * is the answer's id for staff; a marker gets a stand-in of it (ids are time-ordered and would
 * tell when the student handed the answer in), the same in the entry and in its appeal.
 */
export const reviewEntrySchema = z.object({
  _id: z.string(),
  code: z.string(),
  itemIndexInTest: z.number(),
  testId: z.string(),
  itemId: z.string(),
  answerId: z.string(),
  studentId: z.string().nullable(),
  reviews: z.array(markSchema),
  reviewInfo: reviewInfoSchema,
  reviewerScore: z.number().nullable(),
  myRole: z.enum(MARKER_ROLES),
  /** What the caller's next write of this entry sends back as `version`. */
  version: z.number(),
  canMark: z.boolean(),
  canMediate: z.boolean(),
  updatedAt: z.string(),
});
export type ReviewEntry = z.infer<typeof reviewEntrySchema>;

/** A criterion of a question's marking scheme. */
export const rubricCriterionSchema = z.object({
  id: z.string(),
  label: z.string(),
  points: z.number(),
});
export type RubricCriterion = z.infer<typeof rubricCriterionSchema>;
/** A question's marking scheme; `criteria` empty: marks are free. */
export const rubricSchema = z.object({
  itemId: z.string(),
  criteria: z.array(rubricCriterionSchema),
  updatedAt: z.string().nullable(),
});
export type Rubric = z.infer<typeof rubricSchema>;

/** The question as a marker needs it: its statement (Markdown with LaTeX) and key. */
export const reviewQuestionSchema = z.object({
  itemId: z.string(),
  itemQ: z.string(),
  itemType: z.enum(ITEM_TYPES),
  itemAnswers: z.array(z.string()),
  itemCorrectAnswers: z.union([z.array(z.number()), z.string()]).nullable(),
  /** An image under the statement: `GET …/files/{fileId}`. */
  imageFileId: z.string().nullable(),
  maxScore: z.number(),
});
export type ReviewQuestion = z.infer<typeof reviewQuestionSchema>;

/**
 * A page of an answer, named by its place only (`page-01.pdf`): the student's name is not.
 * `_id` is what `…/files/{fileId}` takes: the file's id for staff, a stand-in for a marker (a
 * file's id is time-ordered and would tell when it was uploaded).
 */
export const reviewPageSchema = z.object({
  _id: z.string(),
  name: z.string(),
  mime: z.string(),
  size: z.number(),
});
export type ReviewPage = z.infer<typeof reviewPageSchema>;

/** The answer to mark: the scanned pages (hybrid) or the typed text (an online open item). */
export const reviewAnswerSchema = z.object({
  pages: z.array(reviewPageSchema),
  text: z.string().nullable(),
});
export type ReviewAnswer = z.infer<typeof reviewAnswerSchema>;

/** `GET …/reviews/{reviewId}`: the entry with what marking it needs. */
export const reviewDetailSchema = z.object({
  entry: reviewEntrySchema,
  question: reviewQuestionSchema,
  answer: reviewAnswerSchema,
  rubric: rubricSchema,
});
export type ReviewDetail = z.infer<typeof reviewDetailSchema>;

/**
 * One event of an entry's history (the audit trail): who (`by` as the caller may know it:
 * themselves, reviewer 1/2, the mediator, a committee member; `actorId` only for those who see
 * the whole competition), when, the score before and after, and the note or reason.
 * A reviewer sees the other reviewer's events only once they have given their mark.
 */
export const historyEventSchema = z.object({
  _id: z.string(),
  at: z.string(),
  action: z.enum([
    'assigned',
    'reassigned',
    'marked',
    'mediated',
    'decided',
    'appealed',
    'appeal_marked',
    'appeal_mediated',
    'appeal_decided',
    'key_fixed',
  ]),
  by: z.enum(['me', 'reviewer', 'mediator', 'committee', 'student', 'system']),
  /** For `reviewer`: 1 or 2. */
  reviewer: z.number().nullable(),
  actorId: z.string().nullable(),
  before: z.number().nullable(),
  after: z.number().nullable(),
  note: z.string().nullable(),
});
export type HistoryEvent = z.infer<typeof historyEventSchema>;
