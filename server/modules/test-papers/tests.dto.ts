import type {
  Test,
  TestDetailItem,
  TestDetails,
  TestItem,
  TestPaper,
  TestPreview,
} from '../../../shared/schemas/tests.js';
import type { TestItemRow, TestListRow } from './tests.repo.js';

/** Where a test lives and what its headers show. */
export type TestScope = {
  examId: string;
  editionId: string;
  examName: string;
  editionName: string;
  phaseName: string;
};

export function toTestDto(row: TestListRow, scope: TestScope): Test {
  return {
    _id: row.id,
    examId: scope.examId,
    editionId: scope.editionId,
    phaseId: row.phaseId,
    name: row.name,
    grades: [...row.grades].sort((a, b) => a - b),
    subject: row.subject,
    startDate: row.startDate.toISOString(),
    endDate: row.endDate.toISOString(),
    duration: row.durationMinutes,
    totalScore: row.totalScore,
    easyCount: row.easyCount,
    mediumCount: row.mediumCount,
    hardCount: row.hardCount,
    published: row.published,
    weightByDifficulty: row.weightByDifficulty,
    seed: row.seed,
    itemCount: row.itemCount,
    categoryCounts: row.categoryCounts,
    createdAt: row.createdAt.toISOString(),
  };
}

/** A test's question without its correct answer. */
export function toTestItemDto(row: TestItemRow): TestItem {
  return {
    _id: row.questionId,
    itemId: row.questionId,
    position: row.position,
    score: row.score,
    itemQ: row.itemQ,
    itemType: row.itemType,
    itemAnswers: row.itemAnswers,
    itemCategory: row.itemCategory,
    itemGrade: row.itemGrade,
    difficulty: row.difficulty,
    imageFileId: row.imageFileId,
  };
}

const names = (scope: TestScope) => ({
  examName: scope.examName,
  editionName: scope.editionName,
  phaseName: scope.phaseName,
});

export function toTestPreviewDto(
  row: TestListRow,
  items: TestItemRow[],
  scope: TestScope,
): TestPreview {
  return { ...toTestDto(row, scope), ...names(scope), items: items.map(toTestItemDto) };
}

export function toTestDetailsDto(
  row: TestListRow,
  items: TestItemRow[],
  scope: TestScope,
): TestDetails {
  return {
    ...toTestDto(row, scope),
    ...names(scope),
    assignedItems: items.map((i) => ({ itemId: i.questionId, score: i.score })),
    items: items.map(
      (i): TestDetailItem => ({ ...toTestItemDto(i), itemCorrectAnswers: i.itemCorrectAnswers }),
    ),
  };
}

export function toTestPaperDto(
  row: TestListRow,
  items: TestItemRow[],
  scope: TestScope,
): TestPaper {
  return {
    testId: row.id,
    examId: scope.examId,
    editionId: scope.editionId,
    phaseId: row.phaseId,
    ...names(scope),
    testName: row.name,
    grades: [...row.grades].sort((a, b) => a - b),
    subject: row.subject,
    startDate: row.startDate.toISOString(),
    endDate: row.endDate.toISOString(),
    duration: row.durationMinutes,
    totalScore: row.totalScore,
    items: items.map(toTestItemDto),
  };
}
