import type { TFunction } from 'i18next';
import { DIFFICULTIES, DISCIPLINES } from '../../../../shared/constants.js';
import { ITEM_TYPES } from '../../../../shared/schemas/questions.js';

/** A subject's label: the known disciplines translated, anything else as typed. */
export const disciplineLabel = (t: TFunction, discipline: string) =>
  t(`disciplines.${discipline}`, { defaultValue: discipline });

const unique = <T>(values: readonly (T | null | undefined | '')[]) => [
  ...new Set(values.filter((v): v is T => v !== null && v !== undefined && v !== '')),
];

/** The subjects offered: the platform's disciplines, the competition's and any already used. */
export const disciplineOptions = (t: TFunction, ...extra: (string | null | undefined)[]) =>
  unique<string>([...DISCIPLINES, ...extra]).map((d) => ({
    value: d,
    label: disciplineLabel(t, d),
  }));

/** The grades offered: the competition's (ascending) and the question's own if it differs. */
export const gradeOptions = (
  t: TFunction,
  grades: readonly number[],
  ...extra: (number | '' | null | undefined)[]
) =>
  unique<number>([...grades, ...extra])
    .sort((a, b) => a - b)
    .map((g) => ({ value: g, label: t(`grades.${g}`) }));

export const difficultyOptions = (t: TFunction) =>
  DIFFICULTIES.map((d) => ({ value: d, label: t(`questions.difficulty.${d}`) }));

export const typeOptions = (t: TFunction) =>
  ITEM_TYPES.map((type) => ({ value: type, label: t(`questions.types.${type}`) }));

/**
 * A statement as one short line of plain text (names a row for screen readers and in
 * refusal lists): images become their alt text in brackets, formulas stay as typed.
 */
export function plainExcerpt(markdown: string, imageWord: string, max = 80): string {
  const text = markdown
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, (_, alt: string) => `[${alt || imageWord}]`)
    .replace(/\s+/g, ' ')
    .trim();
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** The question screens' paths under a phase. */
export const phaseUrl = (ids: { examId: string; editionId: string; phaseId: string }) =>
  `/examene/${ids.examId}/editii/${ids.editionId}/phases/${ids.phaseId}`;
export const questionsUrl = (ids: { examId: string; editionId: string; phaseId: string }) =>
  `${phaseUrl(ids)}/questions`;
export const questionTeachersUrl = (
  ids: { examId: string; editionId: string; phaseId: string },
  questionId: string,
  role: 'mediator' | 'reviewers',
) => `${questionsUrl(ids)}/${questionId}/${role === 'mediator' ? 'mediator' : 'corectori'}`;
