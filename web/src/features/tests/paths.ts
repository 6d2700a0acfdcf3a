import type { TestIds } from './api/keys.js';

const enc = encodeURIComponent;

/** The phase page's path (SPEC.md §2). */
export const phasePagePath = ({ examId, editionId, phaseId }: Omit<TestIds, 'testId'>) =>
  `/examene/${enc(examId)}/editii/${enc(editionId)}/phases/${enc(phaseId)}`;

/** The phase's test list. */
export const testsPagePath = (ids: Omit<TestIds, 'testId'>) => `${phasePagePath(ids)}/tests`;

/** The students of a test (SPEC.md §2 `…/phases/{phaseId}/test/{testId}`). */
export const testStudentsPath = (ids: TestIds) => `${phasePagePath(ids)}/test/${enc(ids.testId)}`;

/** The bare print view (SPEC.md §2 `/test-download/…`). */
export const printViewPath = ({ examId, editionId, phaseId, testId }: TestIds) =>
  `/test-download/examen/${enc(examId)}/edition/${enc(editionId)}/phase/${enc(phaseId)}/test/${enc(testId)}`;
