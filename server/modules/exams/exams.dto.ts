import type { Edition, Exam, ExamRole, Phase } from '../../../shared/schemas/exams.js';
import type { EditionRow } from './editions.repo.js';
import type { ExamRow, ExamTeacherLink } from './exams.repo.js';
import type { PhaseRow } from './phases.repo.js';

/** The API's view of an exam (SPEC.md §3): grades ascending, its teachers by role. */
export function toExamDto(row: ExamRow, links: ExamTeacherLink[], myRole: ExamRole | null): Exam {
  const ids = (role: ExamTeacherLink['role']) =>
    links.filter((l) => l.examId === row.id && l.role === role).map((l) => l.teacherId);
  return {
    _id: row.id,
    name: row.name,
    subject: row.subject,
    description: row.description,
    grades: [...row.grades].sort((a, b) => a - b),
    adminTeacherIds: ids('admin'),
    staffTeacherIds: ids('staff'),
    createdAt: row.createdAt.toISOString(),
    myRole,
  };
}

export function toEditionDto(row: EditionRow, teacherIds: string[]): Edition {
  return {
    _id: row.id,
    examId: row.examId,
    name: row.name,
    year: row.year,
    state: row.state,
    termsUrl: row.termsUrl,
    registrationOpen: row.registrationOpen,
    teacherIds,
    createdAt: row.createdAt.toISOString(),
  };
}

export function toPhaseDto(row: PhaseRow, examId: string): Phase {
  return {
    _id: row.id,
    examId,
    editionId: row.editionId,
    name: row.name,
    type: row.type,
    startDate: row.startDate.toISOString(),
    endDate: row.endDate.toISOString(),
    state: row.state,
    registrationOpen: row.registrationOpen,
    reviewStarted: row.reviewStarted,
    allPublished: row.allPublished,
    mediationThreshold: row.mediationThreshold,
    markStep: row.markStep,
    appealMinPoints: row.appealMinPoints,
    appealStartDate: row.appealStartDate?.toISOString() ?? null,
    appealEndDate: row.appealEndDate?.toISOString() ?? null,
    closedAt: row.closedAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
  };
}

/** LoopBack `fields`: only the asked keys, plus the row's identity key. */
export function pickFields<T extends Record<string, unknown>, K extends keyof T>(
  row: T,
  fields: string[] | undefined,
  idKey: K,
): Partial<T> & Pick<T, K> {
  if (!fields) return row;
  const picked: Partial<T> = {};
  for (const name of [idKey as string, ...fields]) {
    if (Object.hasOwn(row, name)) picked[name as keyof T] = row[name as keyof T];
  }
  return picked as Partial<T> & Pick<T, K>;
}
