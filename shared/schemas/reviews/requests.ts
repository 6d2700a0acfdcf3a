// What the review's routes take: list filters and counts, marks, appeals, decisions, rubrics,
// reminders, reassignments, key fixes.

import { z } from 'zod';
import { MAX_PAGE_SIZE } from '../../constants.js';
import { optionalMultilineText, requiredMultilineText, uuidField } from '../fields.js';
import {
  APPEAL_LIST_TYPES,
  APPEAL_STATUSES,
  MAX_APPEAL_REASON_LENGTH,
  MAX_CRITERION_LABEL_LENGTH,
  MAX_NOTE_LENGTH,
  MAX_RUBRIC_CRITERIA,
  REVIEW_LIST_TYPES,
  REVIEW_STATUSES,
} from './rules.js';

const listFilterBase = {
  limit: z.number().int('invalid').min(1, 'invalid').max(MAX_PAGE_SIZE, 'invalid').optional(),
  skip: z.number().int('invalid').min(0, 'invalid').optional(),
  /**
   * Taken and ignored: SPEC.md §9 sorts these lists by given name, which blind marking cannot
   * do; they are ordered by test, question and anonymous code.
   */
  order: z
    .union([z.string().max(100, 'too_long'), z.array(z.string().max(100, 'too_long')).max(10)])
    .optional(),
};

/** Narrowing a list: one test, one question, one status. */
const reviewWhere = z
  .object({
    testId: uuidField().optional(),
    itemId: uuidField().optional(),
    status: z.enum(REVIEW_STATUSES, { error: 'invalid' }).optional(),
    /** REVIEW_ITEMS: only entries the caller has (true) or has not yet (false) marked. */
    marked: z.boolean({ error: 'invalid' }).optional(),
  })
  .strict();
const appealWhere = z
  .object({
    testId: uuidField().optional(),
    itemId: uuidField().optional(),
    status: z.enum(APPEAL_STATUSES, { error: 'invalid' }).optional(),
    marked: z.boolean({ error: 'invalid' }).optional(),
  })
  .strict();

/** `GET …/reviews?filter=` (JSON): `{ limit: 10, skip: 0, type: 'REVIEW_ITEMS' }` by default. */
export const reviewListFilterSchema = z
  .object({
    ...listFilterBase,
    type: z.enum(REVIEW_LIST_TYPES, { error: 'invalid' }).optional(),
    where: reviewWhere.optional(),
  })
  .strict();
export type ReviewListFilter = z.input<typeof reviewListFilterSchema>;
/** `GET …/reviews/count?where=` (JSON): the list's type and narrowing, flat. */
export const reviewCountWhereSchema = reviewWhere
  .extend({ type: z.enum(REVIEW_LIST_TYPES, { error: 'invalid' }).optional() })
  .strict();
export type ReviewCountWhere = z.input<typeof reviewCountWhereSchema>;

/** `GET …/appeals?filter=` (JSON): `type` `REVIEW_ITEMS` by default (SPEC.md §2). */
export const appealListFilterSchema = z
  .object({
    ...listFilterBase,
    type: z.enum(APPEAL_LIST_TYPES, { error: 'invalid' }).optional(),
    where: appealWhere.optional(),
  })
  .strict();
export type AppealListFilter = z.input<typeof appealListFilterSchema>;
export const appealCountWhereSchema = appealWhere
  .extend({ type: z.enum(APPEAL_LIST_TYPES, { error: 'invalid' }).optional() })
  .strict();
export type AppealCountWhere = z.input<typeof appealCountWhereSchema>;

/** The query strings that carry those JSON objects. */
export const listQuerySchema = z.object({ filter: z.string().max(2000, 'too_long').optional() });
export const countQuerySchema = z.object({ where: z.string().max(2000, 'too_long').optional() });

/**
 * `PUT …/reviews/{reviewId}`, `…/mediations`, `PUT …/appeals/{reviewId}` and its mediations:
 * the mark as a decimal number (SPEC.md §5); the rubric criteria ticked to build it (their
 * points must add up to it; leave out for a free mark); a note; the entry's `version` as
 * last read (a stale one: 409 REVIEW_CHANGED).
 */
export const markInputSchema = z
  .object({
    reviewerScore: z.number({ error: 'not_number' }).min(0, 'out_of_range'),
    criteria: z
      .array(z.string().max(40, 'invalid'), { error: 'invalid' })
      .max(MAX_RUBRIC_CRITERIA, 'too_long')
      .optional(),
    note: optionalMultilineText(MAX_NOTE_LENGTH).nullable(),
    version: z.number().int('invalid').min(0, 'invalid').optional(),
  })
  .strict();
export type MarkInput = z.input<typeof markInputSchema>;

/** `PUT /test-review/tests/{testId}/items/{itemId}/appeal`: why the student contests. */
export const appealInputSchema = z
  .object({ reason: requiredMultilineText(MAX_APPEAL_REASON_LENGTH) })
  .strict();
export type AppealInput = z.input<typeof appealInputSchema>;

/** `PUT …/appeals/{reviewId}/decision`: a committee appeal closed, the score kept, and why. */
export const appealDecisionInputSchema = z
  .object({
    note: requiredMultilineText(MAX_NOTE_LENGTH),
    version: z.number().int('invalid').min(0, 'invalid').optional(),
  })
  .strict();
export type AppealDecisionInput = z.input<typeof appealDecisionInputSchema>;

/** One criterion of a marking scheme: what earns how many points. */
export const rubricCriterionInputSchema = z
  .object({
    /** Kept when given (marks name the criteria they ticked); a new one gets an id. */
    id: z.string().trim().min(1, 'required').max(40, 'too_long').optional(),
    label: requiredMultilineText(MAX_CRITERION_LABEL_LENGTH, 1),
    points: z.number({ error: 'not_number' }).min(0, 'out_of_range').max(1000, 'out_of_range'),
  })
  .strict();
/** `PUT …/items/{itemId}/rubric`: the question's marking scheme (empty: free marks only). */
export const rubricInputSchema = z
  .object({
    criteria: z.array(rubricCriterionInputSchema).max(MAX_RUBRIC_CRITERIA, 'too_long'),
  })
  .strict();
export type RubricInput = z.input<typeof rubricInputSchema>;

/** `POST …/reminders`: mail these reviewers (default: everyone with open work). */
export const reminderInputSchema = z
  .object({ teacherIds: z.array(uuidField()).max(500, 'too_long').optional() })
  .strict();
export type ReminderInput = z.input<typeof reminderInputSchema>;

/**
 * `POST …/reassignments`: a reviewer who cannot mark hands their open marks (of one question,
 * or all) to the question's other grading teachers, or to `toTeacherId` (a grading teacher of
 * the question). Marks already given stay theirs.
 */
export const reassignInputSchema = z
  .object({
    teacherId: uuidField(),
    itemId: uuidField().optional(),
    toTeacherId: uuidField().optional(),
    reason: optionalMultilineText(MAX_NOTE_LENGTH),
  })
  .strict();
export type ReassignInput = z.input<typeof reassignInputSchema>;

/** `…/items/{itemId}/key(/preview)`: the corrected key, in the question's own format. */
export const keyFixInputSchema = z
  .object({
    itemCorrectAnswers: z.union([
      z.array(z.number().int('invalid').min(0, 'invalid')).max(20, 'too_long'),
      z.string().trim().max(50, 'too_long'),
    ]),
    reason: optionalMultilineText(MAX_NOTE_LENGTH),
  })
  .strict();
export type KeyFixInput = z.input<typeof keyFixInputSchema>;
