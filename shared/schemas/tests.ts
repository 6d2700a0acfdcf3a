import { z } from 'zod';
import { DIFFICULTIES, MAX_TEXT_LENGTH } from '../constants.js';
import { gradesField, instantField, MAX_URL_LENGTH } from './exams.js';
import { requiredText } from './fields.js';
import { ITEM_TYPES, MAX_DISCIPLINE_LENGTH } from './questions.js';

/**
 * Tests of a phase (SPEC.md §3 Test; §7 test management), under
 * `/api/v1/test-mgmt/exams/{examId}/editions/{editionId}/phases/{phaseId}/tests`:
 *
 * | call | who | answer |
 * |---|---|---|
 * | `POST …/tests` body {@link testCreateSchema} | managers | 201 {@link Test} |
 * | `GET …/tests` | managers, staff | {@link Test}[] (by first grade) |
 * | `GET …/tests/{testId}` | managers, staff | {@link TestPreview} (no correct answers) |
 * | `GET …/tests/{testId}/details` | managers | {@link TestDetails} (with correct answers) |
 * | `GET …/tests/{testId}/paper` | managers, staff | {@link TestPaper} (the print view's data) |
 * | `POST …/tests/{testId}/download` body {@link testDownloadSchema} | managers, staff | application/pdf |
 * | `DELETE …/tests/{testId}` | managers | 204 |
 * | `PUT …/tests/publish` (empty body) | managers | {@link TestPublishResult} |
 *
 * Managers are platform admins and the exam's admin teachers; staff the exam's staff
 * teachers. Anyone else gets 404 (students 403 from the role guard).
 */

/** Most questions of one difficulty in one test. */
export const MAX_TEST_ITEMS_PER_DIFFICULTY = 200;
export const MAX_TEST_DURATION_MINUTES = 24 * 60;
export const MAX_TOTAL_SCORE = 10_000;
/** Relative worth of an easy, medium and hard question when the total is shared out. */
export const DIFFICULTY_WEIGHTS = { low: 1, medium: 2, hard: 3 } as const;
/** File name of a downloaded paper: `test-<grades>.pdf`, e.g. `test-5-6.pdf`. */
export const testPaperFileName = (grades: readonly number[]) => `test-${grades.join('-')}.pdf`;

// ---------------------------------------------------------------------------------------
// Responses

/** A test. `duration` in minutes; `grades` ascending; the player's title is 'Clasa 5, 6'. */
export const testSchema = z.object({
  _id: z.string(),
  examId: z.string(),
  editionId: z.string(),
  phaseId: z.string(),
  name: z.string(),
  grades: z.array(z.number()),
  subject: z.string(),
  startDate: z.string(),
  endDate: z.string(),
  duration: z.number(),
  totalScore: z.number(),
  easyCount: z.number(),
  mediumCount: z.number(),
  hardCount: z.number(),
  published: z.boolean(),
  /** The total was shared by difficulty (easy 1, medium 2, hard 3) rather than equally. */
  weightByDifficulty: z.boolean(),
  /** Reproduces the draw (and each student's order) in an appeal. */
  seed: z.string(),
  itemCount: z.number(),
  /**
   * How many questions the draw took from each category (e.g. algebra and geometry), most
   * first; a question without a category counts under ''.
   */
  categoryCounts: z.array(z.object({ category: z.string(), count: z.number() })),
  createdAt: z.string(),
});
export type Test = z.infer<typeof testSchema>;

/**
 * A question of a test as the preview and the paper show it: never its correct answer.
 * `_id` and `itemId` are both the question's id; `position` is 1-based (easy questions
 * first, then medium, then hard). `imageFileId`: an image shown under the statement
 * (statements may also embed images, see shared/statement.ts).
 */
export const testItemSchema = z.object({
  _id: z.string(),
  itemId: z.string(),
  position: z.number(),
  score: z.number(),
  itemQ: z.string(),
  itemType: z.enum(ITEM_TYPES),
  itemAnswers: z.array(z.string()),
  itemCategory: z.string().nullable(),
  itemGrade: z.number(),
  difficulty: z.enum(DIFFICULTIES),
  imageFileId: z.string().nullable(),
});
export type TestItem = z.infer<typeof testItemSchema>;

/** The names the header of a preview, the details and the paper show. */
const names = {
  examName: z.string(),
  editionName: z.string(),
  phaseName: z.string(),
};

/** `GET …/tests/{testId}`: the test and its items without correct answers. */
export const testPreviewSchema = testSchema.extend({
  ...names,
  items: z.array(testItemSchema),
});
export type TestPreview = z.infer<typeof testPreviewSchema>;

/**
 * `GET …/tests/{testId}/details` item: with the correct answer — option indices (single,
 * multiple), the value as text (numeric) or null (open).
 */
export const testDetailItemSchema = testItemSchema.extend({
  itemCorrectAnswers: z.union([z.array(z.number()), z.string()]).nullable(),
});
export type TestDetailItem = z.infer<typeof testDetailItemSchema>;

/** SPEC.md §3 Test details: assignedItems, items with answers, names for the header. */
export const testDetailsSchema = testSchema.extend({
  ...names,
  assignedItems: z.array(z.object({ itemId: z.string(), score: z.number() })),
  items: z.array(testDetailItemSchema),
});
export type TestDetails = z.infer<typeof testDetailsSchema>;

/**
 * `GET …/tests/{testId}/paper`: what the printed paper shows, for the bare print view
 * `/test-download/examen/{examId}/edition/{editionId}/phase/{phaseId}/test/{testId}`.
 * `POST …/download` prints exactly this (Romanian labels, answer boxes, space for answers).
 */
export const testPaperSchema = z.object({
  testId: z.string(),
  examId: z.string(),
  editionId: z.string(),
  phaseId: z.string(),
  ...names,
  testName: z.string(),
  grades: z.array(z.number()),
  subject: z.string(),
  startDate: z.string(),
  endDate: z.string(),
  duration: z.number(),
  totalScore: z.number(),
  items: z.array(testItemSchema),
});
export type TestPaper = z.infer<typeof testPaperSchema>;

/** `PUT …/tests/publish`: how many tests this call published, and the phase's flag after it. */
export const testPublishResultSchema = z.object({
  publishedCount: z.number(),
  allPublished: z.boolean(),
});
export type TestPublishResult = z.infer<typeof testPublishResultSchema>;

/** INSUFFICIENT_TEST_ITEMS_FOR_CRITERIA details: what the bank lacks, per difficulty. */
export const testShortageSchema = z.object({
  difficulty: z.enum(DIFFICULTIES),
  requested: z.number(),
  available: z.number(),
});
export type TestShortage = z.infer<typeof testShortageSchema>;

// ---------------------------------------------------------------------------------------
// Requests

// Integers are checked by a refinement: zod's own int check reports a type error, which
// the server would show as 'required'.
const isWhole = (n: number) => Number.isInteger(n);

const countField = () =>
  z
    .number({ error: 'not_number' })
    .min(0, 'invalid')
    .max(MAX_TEST_ITEMS_PER_DIFFICULTY, 'invalid')
    .refine(isWhole, 'invalid');

/**
 * `POST …/tests`. The total is shared equally over the questions (whole or half points when it
 * divides so, the points left over to the hardest), or by difficulty (easy 1, medium 2,
 * hard 3) with `weightByDifficulty`; each item's points can then be set by hand
 * (`PUT …/tests/{testId}/items`). Field codes: the usual ones, `not_positive` on all three
 * counts when they are all 0, `invalid` on totalScore when it cannot give every question at
 * least 0.01 (by weight when weighted). The server then answers:
 * - CLIENT_ERROR `{grades: ['invalid']}`: a grade the exam does not have;
 * - 400 INVALID_TEST_DATE `{startDate: ['invalid_date']}`: start not before end, or outside
 *   the phase;
 * - 409 TEST_ALREADY_EXISTS `{grades: ['test_grade_duplicate']}`: a grade already has a test
 *   in the phase;
 * - 409 INSUFFICIENT_TEST_ITEMS_FOR_CRITERIA with {@link TestShortage}[]: the bank (questions
 *   of the phase for these grades whose discipline is the subject) is short;
 * - 409 PHASE_CLOSED.
 */
export const testCreateSchema = z
  .object({
    name: requiredText(MAX_TEXT_LENGTH),
    grades: gradesField(),
    subject: requiredText(MAX_DISCIPLINE_LENGTH),
    startDate: instantField(),
    endDate: instantField(),
    duration: z
      .number({ error: 'not_number' })
      .positive('not_positive')
      .max(MAX_TEST_DURATION_MINUTES, 'invalid')
      .refine(isWhole, 'invalid'),
    totalScore: z
      .number({ error: 'not_number' })
      .positive('not_positive')
      .max(MAX_TOTAL_SCORE, 'invalid')
      .refine((n) => Math.abs(n * 100 - Math.round(n * 100)) < 1e-6, 'invalid'),
    easyCount: countField(),
    mediumCount: countField(),
    hardCount: countField(),
    weightByDifficulty: z.boolean({ error: 'invalid' }).optional(),
  })
  .strict()
  .superRefine((t, ctx) => {
    const weight = t.weightByDifficulty
      ? t.easyCount * DIFFICULTY_WEIGHTS.low +
        t.mediumCount * DIFFICULTY_WEIGHTS.medium +
        t.hardCount * DIFFICULTY_WEIGHTS.hard
      : t.easyCount + t.mediumCount + t.hardCount;
    if (weight === 0) {
      for (const path of ['easyCount', 'mediumCount', 'hardCount']) {
        ctx.addIssue({ code: 'custom', path: [path], message: 'not_positive' });
      }
    } else if (Math.round(t.totalScore * 100) < weight) {
      ctx.addIssue({ code: 'custom', path: ['totalScore'], message: 'invalid' });
    }
  });
export type TestCreateInput = z.input<typeof testCreateSchema>;
export type TestCreate = z.output<typeof testCreateSchema>;

/** Two decimals at most: points are numeric(8, 2). */
const hasCents = (n: number) => Math.abs(n * 100 - Math.round(n * 100)) < 1e-6;

/**
 * `PUT …/tests/{testId}/items` (SPEC.md §3 `assignedItems`): every item of the test once, each
 * worth more than 0 with at most two decimals; they must add up to the test's total (the
 * server answers VALIDATION_FAILED `score_sum` at `assignedItems`, and `invalid` there for an
 * item that is not the test's or is missing). Attempts already scored are scored again.
 * 409 ITEM_ALREADY_MARKED when people have marked an answer of an item whose worth changes;
 * 409 PHASE_CLOSED.
 */
export const testPointsSchema = z
  .object({
    assignedItems: z
      .array(
        z
          .object({
            itemId: z.uuid({ error: 'invalid' }),
            score: z
              .number({ error: 'not_number' })
              .positive('not_positive')
              .max(MAX_TOTAL_SCORE, 'invalid')
              .refine(hasCents, 'invalid'),
          })
          .strict(),
        { error: 'required' },
      )
      .min(1, 'required')
      .max(3 * MAX_TEST_ITEMS_PER_DIFFICULTY, 'too_long')
      .refine((items) => new Set(items.map((i) => i.itemId)).size === items.length, 'invalid'),
  })
  .strict();
export type TestPointsInput = z.input<typeof testPointsSchema>;

/** `PUT …/tests/{testId}/items`: the test's details after the change, and what was rescored. */
export const testPointsResultSchema = z.object({
  /** Items' points that changed in attempts already scored, and how many students they are. */
  rescoredItems: z.number(),
  rescoredStudents: z.number(),
});
export type TestPointsResult = z.infer<typeof testPointsResultSchema>;

/**
 * `POST …/tests/{testId}/download`: `callbackUrl` (SPEC.md §7) is accepted and not used; the
 * body may also be left out.
 */
export const testDownloadSchema = z
  .object({ callbackUrl: z.string().trim().max(MAX_URL_LENGTH, 'too_long').optional() })
  .strict()
  .nullish();
