import { z } from 'zod';
import { DIFFICULTIES, GRADES } from '../constants.js';
import type { FieldCode } from '../errors.js';
import { statementMathProblem } from '../statement-core.js';
import { optionalText, requiredText, uuidField } from './fields.js';
import { ITEM_TYPES, type ItemType, MAX_ANSWERS } from './items.js';

export { ITEM_TYPES, type ItemType, MAX_ANSWERS } from './items.js';

/**
 * The question bank (SPEC.md §3 Question; §7 question and resource service), under
 * `/api/v1/resource-mgmt/exams/{examId}/editions/{editionId}/phases/{phaseId}/items`.
 * Statements are Markdown with `$…$` LaTeX (shared/statement.ts renders them).
 */

export type Difficulty = (typeof DIFFICULTIES)[number];

export const MAX_STATEMENT_LENGTH = 20_000;
export const MAX_ANSWER_LENGTH = 2000;
export const MAX_CATEGORY_LENGTH = 100;
export const MAX_DISCIPLINE_LENGTH = 100;
export const MAX_NUMERIC_ANSWER_LENGTH = 50;
/** Most stored images one question (statement and options) may show. */
export const MAX_QUESTION_IMAGES = 20;
/** Most teachers named in one mediator/reviewer call, and most reviewers of one question. */
export const MAX_REVIEWERS = 20;
/** Most ids in one bulk delete. */
export const MAX_BULK_QUESTIONS = 500;
/** Most data rows in one spreadsheet import. */
export const MAX_IMPORT_ROWS = 2000;
/**
 * Most bytes a spreadsheet may unpack to (its XML, from the zip's directory, checked before it
 * is parsed): 2,000 long questions take a few megabytes; a parser holds about twenty times this.
 */
export const MAX_IMPORT_UNPACKED_BYTES = 10 * 1024 * 1024;
/** Page size of the question list (SPEC.md §9). */
export const QUESTION_PAGE_SIZE = 10;
/** Image types a statement may embed (checked from the bytes). */
export const IMAGE_FILE_TYPES = ['png', 'jpg'] as const;
export const XLSX_MIME = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
export const IMPORT_TEMPLATE_NAME = 'model-import-intrebari.xlsx';

// ---------------------------------------------------------------------------------------
// Responses

/**
 * A question as its managers and the exam's staff see it. `itemCorrectAnswers`: indices into
 * `itemAnswers` (single/multiple), the value as text (numeric), null (open) — and always null
 * for the exam's staff, who may read the bank but not its answers (only admins and the exam's
 * admin teachers get them). `mediatorTeacher` is a teacher id or '' (SPEC.md §3). `images`:
 * the stored files the statement and the options show, plus `imageFileId`. `inTest`: drawn
 * into a test, so it cannot be deleted.
 */
export const questionSchema = z.object({
  _id: z.string(),
  examId: z.string(),
  editionId: z.string(),
  phaseId: z.string(),
  itemQ: z.string(),
  itemCategory: z.string().nullable(),
  itemDiscipline: z.string(),
  itemGrade: z.number(),
  difficulty: z.enum(DIFFICULTIES),
  itemType: z.enum(ITEM_TYPES),
  itemAnswers: z.array(z.string()),
  itemCorrectAnswers: z.union([z.array(z.number()), z.string()]).nullable(),
  imageFileId: z.string().nullable(),
  images: z.array(z.string()).optional(),
  mediatorTeacher: z.string(),
  gradingTeachers: z.array(z.string()),
  inTest: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Question = z.infer<typeof questionSchema>;
/** A row of the list: only the asked `fields`, always with `_id`. */
export const questionListItemSchema = questionSchema.partial().extend({ _id: z.string() });
export type QuestionListItem = z.infer<typeof questionListItemSchema>;

/** `DELETE …/items` answer: the ids that were NOT deleted (empty = all done). */
export const bulkDeleteResultSchema = z.object({ ids: z.array(z.string()) });
export type BulkDeleteResult = z.infer<typeof bulkDeleteResultSchema>;

/** `POST /files` answer. */
export const storedFileSchema = z.object({ _id: z.string(), mime: z.string(), size: z.number() });
export type StoredFile = z.infer<typeof storedFileSchema>;

/** A refusal in an import report: the row (1-based, as the spreadsheet shows it) and why. */
export const sheetImportReportSchema = z.object({
  createdCount: z.number(),
  created: z.array(z.object({ row: z.number(), _id: z.string() })),
  refused: z.array(z.object({ row: z.number(), field: z.string().nullable(), code: z.string() })),
});
export type SheetImportReport = z.infer<typeof sheetImportReportSchema>;

/** `POST …/items/files`: one question per accepted image; refused files with their code. */
export const imageImportReportSchema = z.object({
  createdCount: z.number(),
  created: z.array(z.object({ file: z.string(), _id: z.string() })),
  refused: z.array(z.object({ file: z.string(), code: z.string() })),
});
export type ImageImportReport = z.infer<typeof imageImportReportSchema>;

// ---------------------------------------------------------------------------------------
// Requests

/** Numeric answers travel as text; a decimal comma (Romanian habit) becomes a point. */
const correctAnswersField = () =>
  z
    .union(
      [
        z.array(z.number().int().min(0).max(MAX_ANSWERS), { error: 'invalid' }).max(MAX_ANSWERS),
        z.string().trim().max(MAX_NUMERIC_ANSWER_LENGTH, 'too_long'),
        z.number().finite(),
      ],
      { error: 'invalid' },
    )
    .transform((v) => (Array.isArray(v) ? v : String(v).replace(',', '.')))
    .nullable();

const NUMERIC_RE = /^-?\d+(\.\d+)?$/;

export type AnswerFields = {
  itemType: ItemType;
  itemAnswers: string[];
  /** A numeric answer may still be a number here (form input before the schema's transform). */
  itemCorrectAnswers?: number[] | string | number | null;
};
export type FieldIssue = { field: 'itemAnswers' | 'itemCorrectAnswers'; code: FieldCode };

/**
 * Whether the answers fit the type: single (≥ 2 options, one correct index), multiple (≥ 2
 * options, one or more distinct indices), numeric (no options, a number), open (neither).
 */
export function checkAnswers({ itemType, itemAnswers, itemCorrectAnswers }: AnswerFields) {
  const issues: FieldIssue[] = [];
  const correct =
    typeof itemCorrectAnswers === 'number'
      ? String(itemCorrectAnswers)
      : (itemCorrectAnswers ?? null);
  if (itemType === 'single' || itemType === 'multiple') {
    if (itemAnswers.length < 2) issues.push({ field: 'itemAnswers', code: 'required' });
    if (correct === null || (Array.isArray(correct) && correct.length === 0)) {
      issues.push({ field: 'itemCorrectAnswers', code: 'required' });
    } else if (
      !Array.isArray(correct) ||
      (itemType === 'single' && correct.length !== 1) ||
      new Set(correct).size !== correct.length ||
      correct.some((i) => i >= itemAnswers.length)
    ) {
      issues.push({ field: 'itemCorrectAnswers', code: 'invalid' });
    }
  } else {
    if (itemAnswers.length > 0) issues.push({ field: 'itemAnswers', code: 'invalid' });
    if (itemType === 'numeric') {
      if (correct === null || correct === '') {
        issues.push({ field: 'itemCorrectAnswers', code: 'required' });
      } else if (typeof correct !== 'string' || !NUMERIC_RE.test(correct)) {
        issues.push({ field: 'itemCorrectAnswers', code: 'not_number' });
      }
    } else if (correct !== null && correct !== '') {
      issues.push({ field: 'itemCorrectAnswers', code: 'invalid' });
    }
  }
  return issues;
}

/** Missing → 'required'; present but wrong (type or value) → 'invalid'. */
const missingOrInvalid = (issue: { input?: unknown }) =>
  issue.input === undefined ? 'required' : 'invalid';

/** A grade of SPEC.md §3 (0–12, 99 'Absolvent'). */
const questionGradeField = () =>
  z
    .number({ error: missingOrInvalid })
    .int('invalid')
    .refine((g) => (GRADES as readonly number[]).includes(g), 'invalid');

/** `''` from a cleared form field means "no category". */
const categoryField = () =>
  optionalText(MAX_CATEGORY_LENGTH)
    .nullable()
    .transform((v) => (v ? v : null));

/** Formulas within the renderer's limits (shared/statement.ts): depth and length. */
const withinMathLimits =
  (inline: boolean) => (text: string, ctx: z.core.$RefinementCtx<string>) => {
    const problem = statementMathProblem(text, { inline });
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  };

const questionFields = {
  itemQ: z
    .string({ error: 'required' })
    .trim()
    .min(1, 'required')
    .max(MAX_STATEMENT_LENGTH, 'too_long')
    .superRefine(withinMathLimits(false)),
  itemCategory: categoryField(),
  itemDiscipline: requiredText(MAX_DISCIPLINE_LENGTH),
  itemGrade: questionGradeField(),
  difficulty: z.enum(DIFFICULTIES, { error: missingOrInvalid }),
  itemType: z.enum(ITEM_TYPES, { error: missingOrInvalid }),
  itemAnswers: z
    .array(
      z
        .string({ error: 'invalid' })
        .trim()
        .min(1, 'required')
        .max(MAX_ANSWER_LENGTH, 'too_long')
        .superRefine(withinMathLimits(true)),
      { error: 'invalid' },
    )
    .max(MAX_ANSWERS, 'too_long'),
  itemCorrectAnswers: correctAnswersField(),
  imageFileId: uuidField().nullable(),
};

/** `POST …/items` (and the add/edit form): the whole question, answers checked against type. */
export const questionCreateSchema = z
  .object({
    ...questionFields,
    itemCategory: questionFields.itemCategory.optional(),
    itemAnswers: questionFields.itemAnswers.default([]),
    itemCorrectAnswers: questionFields.itemCorrectAnswers.optional(),
    imageFileId: questionFields.imageFileId.optional(),
  })
  .strict()
  .superRefine((q, ctx) => {
    for (const issue of checkAnswers(q)) {
      ctx.addIssue({ code: 'custom', path: [issue.field], message: issue.code });
    }
  });
export type QuestionCreateInput = z.input<typeof questionCreateSchema>;
export type QuestionCreate = z.output<typeof questionCreateSchema>;

/** `PATCH …/items/{questionId}`: what is sent changes; the result is checked as a whole. */
export const questionPatchSchema = z.object(questionFields).partial().strict();
export type QuestionPatchInput = z.input<typeof questionPatchSchema>;
export type QuestionPatch = z.output<typeof questionPatchSchema>;

/**
 * `POST|DELETE …/items/{questionId}/teachers` (SPEC.md §5). POST adds: the mediator when one
 * is named, and each grading teacher (appended). DELETE removes the named mediator (sent with
 * an empty grading list) or the named reviewers (sent with an empty mediator).
 */
export const questionTeachersSchema = z
  .object({
    mediatorTeacher: z
      .union([z.literal(''), uuidField()], { error: 'invalid' })
      .nullable()
      .optional()
      .transform((v) => v || null),
    gradingTeachers: z
      .array(uuidField(), { error: 'invalid' })
      .max(MAX_REVIEWERS, 'too_long')
      .default([]),
  })
  .strict();
export type QuestionTeachersInput = z.input<typeof questionTeachersSchema>;

/** `DELETE …/items` body. */
export const bulkDeleteSchema = z
  .object({
    ids: z
      .array(uuidField(), { error: 'required' })
      .min(1, 'required')
      .max(MAX_BULK_QUESTIONS, 'too_long'),
  })
  .strict();
export type BulkDeleteInput = z.input<typeof bulkDeleteSchema>;

/** A number typed into a multipart field; '' is "not given". */
const formNumber = () =>
  z.preprocess(
    (v) => (v === '' || v === undefined ? undefined : typeof v === 'string' ? Number(v) : v),
    questionGradeField(),
  );

/**
 * The text fields of `POST …/items/files` (multipart): `Discipline` and `Grade` as SPEC.md
 * names them, and optionally `Difficulty` (default medium) and `Category`.
 */
export const imageImportFieldsSchema = z
  .object({
    Discipline: requiredText(MAX_DISCIPLINE_LENGTH),
    Grade: formNumber(),
    Difficulty: z.enum(DIFFICULTIES, { error: 'invalid' }).default('medium'),
    Category: categoryField(),
  })
  .strict();
export type ImageImportFields = z.output<typeof imageImportFieldsSchema>;

/** Grades a question may have (the same list as students'). */
export const QUESTION_GRADES = GRADES;
