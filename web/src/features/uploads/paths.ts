import type { TestIds } from '../../components/answer-files/paths.js';

const enc = encodeURIComponent;

/** The phase page (SPEC.md §2; the route spells the edition id as `editii`). */
export const phasePagePath = (ids: Omit<TestIds, 'testId'>) =>
  `/examene/${enc(ids.examId)}/editii/${enc(ids.editionId)}/phases/${enc(ids.phaseId)}`;

/** The phase's test list. */
export const testsPagePath = (ids: Omit<TestIds, 'testId'>) => `${phasePagePath(ids)}/tests`;

/** The students of a test: `…/phases/{phaseId}/test/{testId}`. */
export const testStudentsPagePath = (ids: TestIds) =>
  `${phasePagePath(ids)}/test/${enc(ids.testId)}`;

/** A student's answers: `…/test/{testId}/student/{studentId}/answers`. */
export const studentAnswersPagePath = (ids: TestIds, studentId: string) =>
  `${testStudentsPagePath(ids)}/student/${enc(studentId)}/answers`;

/** The paper exam of a hybrid test (booklets, scans, matching): `…/test/{testId}/hartie`. */
export const paperExamPagePath = (ids: TestIds) => `${testStudentsPagePath(ids)}/hartie`;
