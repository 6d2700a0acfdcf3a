import { type FieldErrors, type Resolver, set } from 'react-hook-form';
import { DISCIPLINES } from '../../../../shared/constants.js';
import {
  checkAnswers,
  type Difficulty,
  type ItemType,
  type Question,
  type QuestionCreateInput,
  questionCreateSchema,
} from '../../../../shared/schemas/questions.js';

/**
 * The add/edit form's values. Answer options are objects (react-hook-form's field arrays
 * need them); the numeric answer has its own text box; everything else is the API's field.
 */
export type QuestionFormValues = {
  itemQ: string;
  itemType: ItemType;
  itemAnswers: { text: string }[];
  /** Indices of the correct options (single: one; multiple: one or more). */
  itemCorrectAnswers: number[];
  numericAnswer: string;
  difficulty: Difficulty | '';
  itemGrade: number | '';
  itemCategory: string;
  itemDiscipline: string;
};

/** Fields the server may name in an error, and so the form shows errors on. */
export const QUESTION_FORM_FIELDS = [
  'itemQ',
  'itemType',
  'itemAnswers',
  'itemCorrectAnswers',
  'difficulty',
  'itemGrade',
  'itemCategory',
  'itemDiscipline',
] as const;
export type QuestionFormField = (typeof QUESTION_FORM_FIELDS)[number];

const hasOptions = (type: ItemType) => type === 'single' || type === 'multiple';

/** A new question starts as a single-choice one of the competition's subject. */
export function emptyQuestion(subject: string, grade: number | ''): QuestionFormValues {
  return {
    itemQ: '',
    itemType: 'single',
    itemAnswers: [{ text: '' }, { text: '' }, { text: '' }, { text: '' }],
    itemCorrectAnswers: [],
    numericAnswer: '',
    difficulty: 'medium',
    itemGrade: grade,
    itemCategory: '',
    itemDiscipline: subject || DISCIPLINES[0],
  };
}

/** A stored question as the form edits it. */
export function questionToForm(q: Question): QuestionFormValues {
  const correct = q.itemCorrectAnswers;
  return {
    itemQ: q.itemQ,
    itemType: q.itemType,
    itemAnswers: hasOptions(q.itemType) ? q.itemAnswers.map((text) => ({ text })) : [],
    itemCorrectAnswers: Array.isArray(correct) ? correct : [],
    numericAnswer: typeof correct === 'string' ? correct : '',
    difficulty: q.difficulty,
    itemGrade: q.itemGrade,
    itemCategory: q.itemCategory ?? '',
    itemDiscipline: q.itemDiscipline,
  };
}

/** The request body: options and correct answers only where the type has them. */
export function formToBody(v: QuestionFormValues): QuestionCreateInput {
  const options = hasOptions(v.itemType);
  return {
    itemQ: v.itemQ,
    itemType: v.itemType,
    itemAnswers: options ? v.itemAnswers.map((a) => a.text) : [],
    itemCorrectAnswers: options
      ? [...v.itemCorrectAnswers].sort((a, b) => a - b)
      : v.itemType === 'numeric'
        ? v.numericAnswer
        : null,
    // '' reaches the schema as "missing", which it reports as required.
    difficulty: (v.difficulty || undefined) as Difficulty,
    itemGrade: (v.itemGrade === '' ? undefined : v.itemGrade) as number,
    itemCategory: v.itemCategory,
    itemDiscipline: v.itemDiscipline,
  };
}

/** A form field a problem is shown on: an API field, the numeric answer's box or one option. */
export type FormIssueField = QuestionFormField | 'numericAnswer' | `itemAnswers.${number}.text`;
export type FormIssue = { field: FormIssueField; code: string };

/** Where the form shows a problem the API reports on `field` (an answer lives in two boxes). */
export function formFieldOf(
  v: Pick<QuestionFormValues, 'itemType'>,
  field: string,
  index?: unknown,
) {
  if (field === 'itemAnswers' && typeof index === 'number') {
    return `itemAnswers.${index}.text` as const;
  }
  if (field === 'itemCorrectAnswers' && v.itemType === 'numeric') return 'numericAnswer';
  return (QUESTION_FORM_FIELDS as readonly string[]).includes(field)
    ? (field as QuestionFormField)
    : undefined;
}

/**
 * The route's own schema run in the browser: the problems, each on the form field that shows
 * it (an empty option on that option's box). The answers are also checked on their own: the
 * schema skips that check while another field is wrong, and the author should see every
 * problem at once.
 */
export function checkQuestionForm(v: QuestionFormValues): FormIssue[] {
  const body = formToBody(v);
  const parsed = questionCreateSchema.safeParse(body);
  const issues: FormIssue[] = [];
  const add = (field: FormIssueField | undefined, code: string) => {
    if (field && !issues.some((i) => i.field === field)) issues.push({ field, code });
  };
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const [head, index] = issue.path;
      const code = /^[a-z_]+$/.test(issue.message) ? issue.message : 'invalid';
      if (typeof head === 'string') add(formFieldOf(v, head, index), code);
    }
  }
  const answers = {
    itemType: v.itemType,
    itemAnswers: body.itemAnswers ?? [],
    itemCorrectAnswers: body.itemCorrectAnswers,
  };
  if (typeof answers.itemCorrectAnswers === 'string') {
    answers.itemCorrectAnswers = answers.itemCorrectAnswers.trim().replace(',', '.');
  }
  for (const issue of checkAnswers(answers)) add(formFieldOf(v, issue.field), issue.code);
  return issues;
}

/** react-hook-form's resolver over `checkQuestionForm`: each code lands on its own box. */
export const questionFormResolver: Resolver<QuestionFormValues> = async (values) => {
  const issues = checkQuestionForm(values);
  if (issues.length === 0) return { values, errors: {} };
  const errors: FieldErrors<QuestionFormValues> = {};
  for (const issue of issues) set(errors, issue.field, { type: 'validate', message: issue.code });
  return { values: {}, errors };
};

/** Toggles an option's correctness: single keeps one, multiple any number. */
export function toggleCorrect(type: ItemType, current: number[], index: number): number[] {
  if (type === 'single') return [index];
  return current.includes(index) ? current.filter((i) => i !== index) : [...current, index];
}

/** After removing option `index`, the correct indices still point at the same options. */
export function shiftCorrect(current: number[], index: number): number[] {
  return current.filter((i) => i !== index).map((i) => (i > index ? i - 1 : i));
}

/** 'A', 'B', … for option `index` (the spreadsheet template uses the same letters). */
export const optionLetter = (index: number) => String.fromCharCode(65 + index);
