import {
  type Answer,
  type AnswerFile,
  TEST_STUDENT_STATUSES,
  type TestStudent,
  type TestStudentStatus,
  type UploadTest,
} from '../../../shared/schemas/uploads.js';
import { cleanFileName } from '../../lib/files/names.js';
import type { AnswerRow, FileRow, TestPathRow, TestStudentRow } from './uploads.repo.js';

/** A stored page as the API shows it; its name cleaned again for rows stored before the rule. */
export function toAnswerFileDto(row: FileRow): AnswerFile {
  return {
    _id: row.id,
    name: cleanFileName(row.originalName ?? '', row.id),
    mime: row.mime,
    size: row.size,
    createdAt: row.createdAt.toISOString(),
  };
}

/** A stored online answer as the API shows it; anything else stored there is not one. */
function submittedAnswerOf(value: unknown): number[] | string | null {
  if (typeof value === 'string') return value;
  if (Array.isArray(value) && value.every((v) => typeof v === 'number')) return value;
  return null;
}

/** SPEC.md §3 Answer record: its files in the answer's order. */
export function toAnswerDto(row: AnswerRow, filesById: ReadonlyMap<string, FileRow>): Answer {
  const answerFiles = row.fileIds
    .map((id) => filesById.get(id))
    .filter((f): f is FileRow => f !== undefined)
    .map(toAnswerFileDto);
  return {
    _id: row.id,
    itemId: row.questionId,
    studentId: row.studentId,
    answerFiles,
    areFilesUploaded: answerFiles.length > 0,
    submittedAnswer: submittedAnswerOf(row.submittedAnswer),
    score: row.score,
    enteredBy: row.enteredBy,
    updatedAt: row.updatedAt.toISOString(),
  };
}

const isStatus = (s: string): s is TestStudentStatus =>
  (TEST_STUDENT_STATUSES as readonly string[]).includes(s);

export function toTestStudentDto(row: TestStudentRow): TestStudent {
  return {
    studentId: row.studentId,
    familyName: row.familyName,
    givenName: row.givenName,
    studentCounty: row.studentCounty,
    studentSector: row.studentSector,
    studentGrade: row.studentGrade,
    school: row.school,
    studentCentre: row.studentCentre,
    status: isStatus(row.status) ? row.status : 'not_started',
    score: row.score === null ? null : Number(row.score),
    awaitingItems: row.awaitingItems === null ? null : Number(row.awaitingItems),
    answeredItems: Number(row.answeredItems),
    fileCount: Number(row.fileCount),
  };
}

export function toUploadTestDto(test: TestPathRow): UploadTest {
  return {
    _id: test.id,
    name: test.name,
    subject: test.subject,
    grades: [...test.grades].sort((a, b) => a - b),
    startDate: test.startDate.toISOString(),
    endDate: test.endDate.toISOString(),
    type: test.phaseType,
    published: test.published,
  };
}
