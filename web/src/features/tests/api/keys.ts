import type { PhaseIds } from '../../../components/phase/get-phase-context.js';

/**
 * Query keys and paths of a phase's tests (test-mgmt). Keys nest like the resources, so
 * invalidating a phase's tests refreshes its list and every test's preview together.
 */
export const TESTS_KEY = ['tests'] as const;
export const phaseTestsKey = ({ examId, editionId, phaseId }: PhaseIds) =>
  [...TESTS_KEY, examId, editionId, phaseId] as const;
export const testKey = (ids: TestIds) => [...phaseTestsKey(ids), 'test', ids.testId] as const;

const enc = encodeURIComponent;
export const testsPath = ({ examId, editionId, phaseId }: PhaseIds) =>
  `/test-mgmt/exams/${enc(examId)}/editions/${enc(editionId)}/phases/${enc(phaseId)}/tests`;
export const testPath = (ids: TestIds) => `${testsPath(ids)}/${enc(ids.testId)}`;

export type TestIds = PhaseIds & { testId: string };
