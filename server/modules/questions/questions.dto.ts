import type { Question } from '../../../shared/schemas/questions.js';
import { statementImageIds } from '../../../shared/statement.js';
import type { QuestionRow } from './questions.repo.js';

export type QuestionScope = { examId: string; editionId: string };

/** What a question's reader may see beyond the statement. */
export type QuestionView = {
  /** Only the bank's managers (admins, the exam's admin teachers) see the correct answers. */
  withAnswers: boolean;
};

export type ImageFields = { itemQ: string; itemAnswers: string[]; imageFileId: string | null };

/** Each image a question shows, with the field it comes from (its own image first). */
export function imagesByField(
  q: ImageFields,
): Map<string, 'imageFileId' | 'itemQ' | 'itemAnswers'> {
  const images = new Map<string, 'imageFileId' | 'itemQ' | 'itemAnswers'>();
  if (q.imageFileId) images.set(q.imageFileId, 'imageFileId');
  for (const fileId of statementImageIds(q.itemQ)) {
    if (!images.has(fileId)) images.set(fileId, 'itemQ');
  }
  for (const fileId of q.itemAnswers.flatMap((a) => statementImageIds(a))) {
    if (!images.has(fileId)) images.set(fileId, 'itemAnswers');
  }
  return images;
}

/** The stored images a question shows: its own image, then those of its statement and options. */
export const questionImageIds = (q: ImageFields) => [...imagesByField(q).keys()];

/** The API's view of a question for its managers and staff. */
export function toQuestionDto(
  row: QuestionRow,
  scope: QuestionScope,
  reviewers: string[],
  inTest: boolean,
  view: QuestionView,
): Question {
  return {
    _id: row.id,
    examId: scope.examId,
    editionId: scope.editionId,
    phaseId: row.phaseId,
    itemQ: row.itemQ,
    itemCategory: row.itemCategory,
    itemDiscipline: row.itemDiscipline,
    itemGrade: row.itemGrade,
    difficulty: row.difficulty,
    itemType: row.itemType,
    itemAnswers: row.itemAnswers,
    itemCorrectAnswers: view.withAnswers ? (row.itemCorrectAnswers ?? null) : null,
    imageFileId: row.imageFileId,
    images: questionImageIds(row),
    mediatorTeacher: row.mediatorTeacherId ?? '',
    gradingTeachers: reviewers,
    inTest,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** LoopBack `fields`: only the asked keys, always with `_id`. */
export function pickQuestionFields(dto: Question, fields: string[] | undefined) {
  if (!fields) return dto;
  const picked: Partial<Question> & { _id: string } = { _id: dto._id };
  for (const name of fields) {
    if (Object.hasOwn(dto, name)) {
      (picked as Record<string, unknown>)[name] = dto[name as keyof Question];
    }
  }
  return picked;
}
