import { z } from 'zod';
import { MAX_PAGE_SIZE, PAGE_SIZE } from '../constants.js';
import { optionalMultilineText, requiredMultilineText, uuidField } from './fields.js';
import { ITEM_TYPES } from './items.js';
import { RESULT_STATES, SCORE_CHANGE_CAUSES } from './results.js';

/**
 * Marking, mediation and appeals (SPEC.md §3 review and contestation entries, student review
 * item; §4 hybrid phase review and appeals; §7 Review service), the `test-review` service.
 *
 * ## Endpoints
 *
 * Staff and markers, under `/api/v1/test-review/exams/{examId}/editions/{editionId}/phases/{phaseId}`
 * (`P` below). Who gets an answer: the phase's markers (a grading teacher or the mediator of
 * one of its questions) and those who see the whole competition (platform admins, the exam's
 * admin teachers, its staff); anyone else 404.
 *
 * - `GET  P/reviews?filter=ReviewListFilter` → `ReviewEntry[]` (type `REVIEW_ITEMS` by default)
 * - `GET  P/reviews/count?where=ReviewCountWhere` → `{ count }`
 * - `GET  P/reviews/{reviewId}` → `ReviewDetail` (the entry, the question, the answer, the rubric)
 * - `PUT  P/reviews/{reviewId}` body `MarkInput` → `ReviewEntry` (an assigned reviewer's mark)
 * - `GET  P/reviews/{reviewId}/history` → `HistoryEvent[]`
 * - `PUT  P/reviews/{reviewId}/mediations` body `MarkInput` → `ReviewEntry` (the mediator)
 * - `GET  P/reviews/{reviewId}/answer` → `response_{code}.zip` (every page, in order)
 * - `GET  P/reviews/{reviewId}/files/{fileId}` → one page of the answer, or an image of the
 *   question's statement, inline (pass it as `renderStatement`'s `imageSrc`)
 * - `GET  P/appeals?filter=AppealListFilter` → `ContestationEntry[]` (type `REVIEW_ITEMS` by default)
 * - `GET  P/appeals/count?where=AppealCountWhere` → `{ count }`
 * - `GET  P/appeals/{reviewId}` → `AppealDetail`
 * - `PUT  P/appeals/{reviewId}` body `MarkInput` → `ContestationEntry` (an appeal reviewer)
 * - `PUT  P/appeals/{reviewId}/mediations` body `MarkInput` → `ContestationEntry` (appeal mediator)
 * - `PUT  P/appeals/{reviewId}/decision` body `AppealDecisionInput` → `ContestationEntry`
 *   (the exam's admins close a committee appeal: the score stays)
 * - `GET  P/appeals/{reviewId}/history`, `…/answer`, `…/files/{fileId}`: as for reviews
 * - `GET  P/items/{itemId}/rubric` → `Rubric`; `PUT` body `RubricInput` → `Rubric` (staff)
 * - `GET  P/progress` → `ReviewProgress` (staff)
 * - `POST P/reminders` body `ReminderInput` → `ReminderResult` (staff)
 * - `POST P/reassignments` body `ReassignInput` → `ReassignResult` (staff)
 * - `GET  P/scope` → `ReviewScope` (the phase's names and the caller's standing on it)
 * - `POST P/items/{itemId}/key/preview` body `KeyFixInput` → `KeyFixPreview` (exam's admins)
 * - `PUT  P/items/{itemId}/key` body `KeyFixInput` → `KeyFixResult` (exam's admins)
 *
 * The start of review stays where SPEC.md §7 puts it, `PUT /api/v1/exam-mgmt/…/phases/{phaseId}/review`:
 * 409 `INSUFFICIENT_TEACHERS_FOR_TEST_ITEMS` with `details: InsufficientTeachersDetail[]`
 * (one entry per missing field per question) until every question that people mark has two
 * grading teachers and a mediator; 409 `TESTS_STILL_RUNNING` in an online phase while one of its
 * tests is open or an attempt runs. On success every answer gets its two reviewers.
 *
 * Any teacher: `GET /api/v1/test-review/my-phases` → `MarkerPhase[]`, the phases where they
 * mark or mediate with their open work (empty for a teacher with none; students 403).
 *
 * Students, under `/api/v1/test-review/tests/{testId}`:
 * - `GET  …/items` → `StudentResult` (their own test; 404 before any result exists)
 * - `PUT  …/items/{itemId}/appeal` body `AppealInput` → `StudentReviewItem`
 *
 * Phases (exam-mgmt `Phase`) gain two settings next to `mediationThreshold`: `markStep` (the
 * step of marks, 0.5 by default) and `appealMinPoints` (points, 0 by default: an appeal whose
 * re-marked paper differs from the first by less keeps the original).
 *
 * ## Rules the server keeps
 *
 * - Blind marking: nothing a marker receives names the student (no name, e-mail, school,
 *   county, team code; `studentId` is null for them), and an answer's pages are named
 *   `page-01.png`…; each answer has an anonymous `code`. A reviewer sees the other reviewer's
 *   mark (and the final score) only once they have given theirs. Lists are ordered by test,
 *   question and code, never by name.
 * - A mark is 0 to the item's points in the phase's `markStep` (0.5 by default), a decimal
 *   number; otherwise 400 CLIENT_ERROR `{ reviewerScore: ['out_of_range' | 'not_in_step'] }`.
 *   Ticked rubric criteria (`criteria`) must add up to the mark (`{ criteria: ['score_sum'] }`).
 * - A reviewer may correct their mark until the second mark arrives; then the entry is
 *   decided: final = the average of the two marks (rounded to hundredths) when they differ by
 *   at most the phase's `mediationThreshold` × the item's points, else it waits for the
 *   question's mediator, whose mark is final. 409 `REVIEW_CLOSED` when the entry no longer
 *   takes that write.
 * - Optimistic concurrency: send back the entry's `version`; a stale one gets 409
 *   `REVIEW_CHANGED` and nothing changes (the second of two tabs). Without `version` the
 *   write is taken as it is.
 * - Appeals: once per item, while the phase's appeal window is open, on an item with a final
 *   score (409 `APPEAL_NOT_ALLOWED`, `details.reason` `window` | `already_appealed` |
 *   `no_final_score`). An item people marked is marked again by two teachers of the question
 *   who did not mark it the first time (nor are the student's coordinating teacher), with the
 *   same threshold and a mediator who did not mark it either; the result is final and may be
 *   lower, but stays the original when the paper's score would move by less than the phase's
 *   `appealMinPoints`: the student's re-marked items of one test are summed (a second appeal
 *   on the paper may turn the first one's outcome either way). An item scored from the key (or with nothing handed in) goes to the
 *   exam's admins (`COMMITTEE_ITEMS`): they correct the key (preview, then apply: every
 *   attempt rescored in one transaction) or close it with a decision.
 * - Every mark, mediation, decision and key fix is an audit event; a final score that changes
 *   updates the totals at once and the student is told by e-mail (also when a test's result
 *   becomes complete).
 */

// ---------------------------------------------------------------------------------------
// Enums and limits

/** The lists of SPEC.md §3: one's own marking work, mediations, mediations still to give. */
export const REVIEW_LIST_TYPES = [
  'REVIEW_ITEMS',
  'MEDIATION_ITEMS',
  'NEEDS_MEDIATION_ITEMS',
] as const;
export type ReviewListType = (typeof REVIEW_LIST_TYPES)[number];
/** Appeal lists add the committee's: appeals on items no person marked (exam admins). */
export const APPEAL_LIST_TYPES = [...REVIEW_LIST_TYPES, 'COMMITTEE_ITEMS'] as const;
export type AppealListType = (typeof APPEAL_LIST_TYPES)[number];

/** An entry waits for marks, waits for its mediator, or has its final score. */
export const REVIEW_STATUSES = ['marking', 'needs_mediation', 'final'] as const;
export type ReviewStatus = (typeof REVIEW_STATUSES)[number];
export const APPEAL_STATUSES = ['pending', 'needs_mediation', 'resolved'] as const;
export type AppealStatus = (typeof APPEAL_STATUSES)[number];
/** `remark`: marked again by people; `committee`: an item nobody marked, for the exam admins. */
export const APPEAL_KINDS = ['remark', 'committee'] as const;
export type AppealKind = (typeof APPEAL_KINDS)[number];
/** How an appeal ended: the score changed, or the original stayed. */
export const APPEAL_OUTCOMES = ['changed', 'kept'] as const;
export type AppealOutcome = (typeof APPEAL_OUTCOMES)[number];
/** What a student's item shows: 'Reviewing' (none), 'Contestation pending', or decided. */
export const STUDENT_APPEAL_STATUSES = ['none', 'pending', 'resolved'] as const;
export type StudentAppealStatus = (typeof STUDENT_APPEAL_STATUSES)[number];
/** How the caller stands on an entry (decides what it shows them and what they may do). */
export const MARKER_ROLES = ['reviewer', 'mediator', 'staff'] as const;
export type MarkerRole = (typeof MARKER_ROLES)[number];
/** Where a final score came from: the two marks' average or the mediator. */
export const FINAL_BY = ['average', 'mediator'] as const;
export type FinalBy = (typeof FINAL_BY)[number];

/** The phase's default step of marks (phases carry `markStep`). */
export const DEFAULT_MARK_STEP = 0.5;
export const MAX_NOTE_LENGTH = 2000;
export const MAX_APPEAL_REASON_LENGTH = 2000;
export const MAX_RUBRIC_CRITERIA = 30;
export const MAX_CRITERION_LABEL_LENGTH = 300;
export const REVIEW_PAGE_SIZE = PAGE_SIZE;

/**
 * Whether `score` is a mark in `step` (scores are kept to hundredths, so the comparison is in
 * hundredths and 0.1 + 0.2 counts as 0.3).
 */
export function isInStep(score: number, step: number): boolean {
  const cents = Math.round(score * 100);
  const stepCents = Math.round(step * 100);
  return Math.abs(score * 100 - cents) < 1e-6 && stepCents > 0 && cents % stepCents === 0;
}

/** The final of two marks that agree: their average, rounded half up to hundredths. */
export function averageMark(a: number, b: number): number {
  return Math.round((Math.round(a * 100) + Math.round(b * 100)) / 2) / 100;
}

/** Whether two marks of an item worth `points` differ by more than the phase's threshold. */
export function needsMediation(a: number, b: number, points: number, threshold: number): boolean {
  const diff = Math.abs(Math.round(a * 100) - Math.round(b * 100));
  return diff > threshold * points * 100 + 1e-6;
}

// ---------------------------------------------------------------------------------------
// Requests

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

// ---------------------------------------------------------------------------------------
// Responses: marking

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

// ---------------------------------------------------------------------------------------
// Responses: appeals

/** Where an appeal stands; values the caller may not see yet are null (as `reviewInfo`). */
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

// ---------------------------------------------------------------------------------------
// Responses: where a teacher marks

/** The part a teacher has in a phase's marking: grading teacher, mediator, or both. */
export const MARKER_PART = ['reviewer', 'mediator'] as const;
export type MarkerPart = (typeof MARKER_PART)[number];

/**
 * `GET /test-review/my-phases`: a phase where the caller marks or mediates (a grading
 * teacher or the mediator of one of its questions, or given marks there), with their work
 * still open: marks to give, mediations waiting for them, appeal marks to give, appeal
 * mediations waiting for them. Newest phase first; no competition role needed.
 */
export const markerPhaseSchema = z.object({
  examId: z.string(),
  examName: z.string(),
  editionId: z.string(),
  editionName: z.string(),
  phaseId: z.string(),
  phaseName: z.string(),
  phaseType: z.enum(['online', 'hybrid']),
  reviewStarted: z.boolean(),
  roles: z.array(z.enum(MARKER_PART)),
  open: z.object({
    reviews: z.number(),
    mediations: z.number(),
    appeals: z.number(),
    appealMediations: z.number(),
  }),
});
export type MarkerPhase = z.infer<typeof markerPhaseSchema>;

/**
 * `GET /admin-decisions`: the phases of the competitions the caller administers (all, for a
 * platform admin) where appeals wait for the exam's admins to decide them (an appeal short of
 * re-markers, or whose question's mediator the rules bar), as many as the rules let the caller
 * decide; phases with none are left out.
 */
export const adminDecisionPhaseSchema = z.object({
  examId: z.string(),
  examName: z.string(),
  editionId: z.string(),
  phaseId: z.string(),
  phaseName: z.string(),
  appeals: z.number(),
});
export type AdminDecisionPhase = z.infer<typeof adminDecisionPhaseSchema>;

/**
 * `GET P/scope`: the phase as the marking screens name it, and how the caller stands on it
 * (the phase's markers and those who see the whole competition; anyone else 404).
 * `seesWholePhase`: staff, who may open the progress and the phase page; `managesExam`: the
 * exam's admins (key fixes, committee decisions).
 */
export const reviewScopeSchema = z.object({
  examId: z.string(),
  examName: z.string(),
  editionId: z.string(),
  editionName: z.string(),
  phaseId: z.string(),
  phaseName: z.string(),
  phaseType: z.enum(['online', 'hybrid']),
  reviewStarted: z.boolean(),
  seesWholePhase: z.boolean(),
  managesExam: z.boolean(),
});
export type ReviewScope = z.infer<typeof reviewScopeSchema>;

// ---------------------------------------------------------------------------------------
// Responses: staff

/** `{ count }` of a list (SPEC.md §7 `count.count`). */
export const reviewCountSchema = z.object({ count: z.number() });

/** How far the marking of one question has come. */
export const questionProgressSchema = z.object({
  itemId: z.string(),
  testId: z.string(),
  itemIndexInTest: z.number(),
  /** Answers under review. */
  total: z.number(),
  /** Entries with both marks given. */
  marked: z.number(),
  needsMediation: z.number(),
  final: z.number(),
  appealsPending: z.number(),
  appealsNeedMediation: z.number(),
  appealsResolved: z.number(),
});
/** How far one reviewer (or mediator) has come. */
export const reviewerProgressSchema = z.object({
  teacherId: z.string(),
  givenName: z.string().nullable(),
  familyName: z.string().nullable(),
  email: z.string(),
  assigned: z.number(),
  marked: z.number(),
  /** Marks still to give. */
  open: z.number(),
  /** Mediations waiting for them. */
  mediationsOpen: z.number(),
});
/** `GET …/progress`. */
/**
 * `GET …/marking-scope`: how many questions drawn into the phase's tests people mark — every
 * question of a hybrid phase, the open ones of an online phase (0: nothing to start marking,
 * only appeals on the key).
 */
export const markingScopeSchema = z.object({ questionsToMark: z.number() });
export type MarkingScope = z.infer<typeof markingScopeSchema>;

export const reviewProgressSchema = z.object({
  reviewStarted: z.boolean(),
  questions: z.array(questionProgressSchema),
  reviewers: z.array(reviewerProgressSchema),
});
export type ReviewProgress = z.infer<typeof reviewProgressSchema>;

/** A reviewer gets at most one reminder of a phase's marking in this time. */
export const REMINDER_INTERVAL_HOURS = 12;

/**
 * `POST …/reminders`: who was mailed, with their open work, and who was not because they had a
 * reminder of the phase less than REMINDER_INTERVAL_HOURS ago (`retryAfter`: when they may get
 * the next one).
 */
export const reminderResultSchema = z.object({
  sent: z.array(z.object({ teacherId: z.string(), open: z.number(), mediationsOpen: z.number() })),
  skipped: z.array(z.object({ teacherId: z.string(), retryAfter: z.string() })),
});
export type ReminderResult = z.infer<typeof reminderResultSchema>;

/** `POST …/reassignments`: marks moved, and those no other teacher could take. */
export const reassignResultSchema = z.object({ moved: z.number(), unmoved: z.number() });
export type ReassignResult = z.infer<typeof reassignResultSchema>;

/** One student's item whose score a key fix changes (admins see who). */
export const keyFixChangeSchema = z.object({
  testId: z.string(),
  studentId: z.string(),
  givenName: z.string().nullable(),
  familyName: z.string().nullable(),
  oldScore: z.number().nullable(),
  newScore: z.number(),
});
/** `POST …/key/preview`: whose scores the corrected key would change (nothing changes yet). */
export const keyFixPreviewSchema = z.object({
  itemId: z.string(),
  changes: z.array(keyFixChangeSchema),
  /** Committee appeals on this item that applying would resolve. */
  pendingAppeals: z.number(),
});
export type KeyFixPreview = z.infer<typeof keyFixPreviewSchema>;
/** `PUT …/key`: the key is corrected and every attempt rescored, in one transaction. */
export const keyFixResultSchema = keyFixPreviewSchema.extend({
  changedItems: z.number(),
  students: z.number(),
  resolvedAppeals: z.number(),
});
export type KeyFixResult = z.infer<typeof keyFixResultSchema>;

/** One question of the start-of-review refusal: the field still missing (SPEC.md §4). */
export const insufficientTeachersDetailSchema = z.object({
  itemId: z.string(),
  field: z.enum(['mediatorTeacher', 'gradingTeachers']),
});
export type InsufficientTeachersDetail = z.infer<typeof insufficientTeachersDetailSchema>;

// ---------------------------------------------------------------------------------------
// Responses: the student

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
