/**
 * What a path, query or header parameter means, by its name: the API names each id the same
 * everywhere (server/lib/route-params.ts), so one sentence serves every route that has it.
 * A route whose parameter means something else describes it in its own schema.
 */
export const PARAMETER_DESCRIPTIONS: Readonly<
  Record<string, string | ((path: string) => string | undefined)>
> = {
  examId: 'The competition (exam) id.',
  editionId: "The edition id, one of the competition's yearly editions.",
  phaseId: "The phase id, one of the edition's rounds.",
  testId: "The test id, one grade's paper of the phase.",
  studentId: "The student's user id.",
  itemId: 'The item id: one question of the test as the test holds it.',
  questionId: 'The question id, in the phase’s question bank.',
  answerId: "The answer id: a student's answer to one item.",
  reviewId: 'The review entry id: one answer to one item, marked by the assigned reviewers.',
  fileId: 'The file id.',
  mailId: 'The mail id, in the outbox.',
  sessionId: 'The id of one of the caller’s own sessions (as GET auth/sessions lists them).',
  notificationId: 'The id of one of the caller’s own notifications.',
  q: 'The text to find (2–100 characters): in names, e-mail addresses and statements.',
  jobId: (path) =>
    path.includes('/paper/')
      ? 'The paper job id (booklets or a scan) of the test.'
      : 'The diploma job id.',
  pageId: 'The id of one scanned page of the test (as GET …/paper/pages lists them).',
  presetId: 'The rule preset id: county_to_national or national_prizes.',
  uid: 'The user id the link was sent for.',
  code: (path) =>
    path.startsWith('/diploma-generator/')
      ? "The diploma's verification code, as printed on it."
      : 'The one-time code of the link.',
  user: 'The user: their id (a UUID) or their e-mail address.',
  email: "The user's e-mail address.",
  id: (path) => {
    if (path.startsWith('/user-mgmt/')) return "The user's id.";
    if (path.startsWith('/exam-mgmt/open-exams/')) return 'The edition id.';
    if (path.startsWith('/resource-mgmt/files/')) return 'The image file id.';
    if (path.startsWith('/auth-service/auth/throttles/')) return 'The sign-in failure counter id.';
    return undefined;
  },
  userid:
    "The signed-in user's id, as SPEC.md's client sends it beside the token; ignored when absent, refused when another user's.",
};
