/** The four ids of a test under its phase. */
export type TestIds = { examId: string; editionId: string; phaseId: string; testId: string };

const enc = encodeURIComponent;

/** `/upload-mgmt/exams/{examId}/editions/{editionId}/phases/{phaseId}/tests/{testId}`. */
export const uploadTestPath = (ids: TestIds) =>
  `/upload-mgmt/exams/${enc(ids.examId)}/editions/${enc(ids.editionId)}/phases/${enc(ids.phaseId)}/tests/${enc(ids.testId)}`;

/** Query keys of a test's answers: invalidating the root refreshes every screen of it. */
export const uploadsTestKey = (testId: string) => ['uploads', 'test', testId] as const;
export const studentItemsKey = (testId: string, studentId: string) =>
  [...uploadsTestKey(testId), 'student', studentId, 'items'] as const;
