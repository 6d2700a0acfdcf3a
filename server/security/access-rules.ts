import { type Caller, NO_ACCOUNT, type World } from '../test/world.js';

// Who may do what, route by route: the policy table the access matrix
// (access-matrix.api.test.ts) holds every registered route to. The matrix calls each route as
// every caller of the seeded world (server/test/world.ts) with the ids of student A's
// resources in its path, and fails on any answer that differs from the rule:
// - a caller in `ok` reaches the route (not 401, 403 or a 404 NOT_FOUND) and may get 2xx;
// - a caller in `notFound` gets 404: the resource is outside what they may even see;
// - any other signed-in caller gets 403: they see the resource but may not do this;
// - anonymous gets 401, unless the route is public (anonymous in `ok`).
// A route that is not in this table fails the matrix: a new route needs its rule here.

export type AccessRule = {
  ok: readonly Caller[];
  notFound?: readonly Caller[];
  /** A body other than the one made from the route's schema (which may not pass its refinements). */
  body?: (w: World) => unknown;
  /** Multipart text fields sent beside the file (routes whose schema has no body). */
  fields?: (w: World) => Record<string, string>;
  /** Path ids other than student A's resources. */
  params?: (w: World) => Record<string, string>;
  /** A query other than the one made from the route's schema (ids of the seeded world). */
  query?: (w: World) => Record<string, string>;
  /**
   * For bulk routes that answer 200 with what failed: whether the 2xx answer says it was done.
   * A denied caller's 2xx must say it was not.
   */
  done?: (body: string) => boolean;
  /** Run after every other route: it closes, deletes or ends what others use. */
  last?: true;
  /** Needs a session of its own (it ends the one it is called with). */
  ownSession?: true;
  /**
   * Why the allowed callers cannot get past a 404 in the seeded world, if they cannot (a 4xx
   * of the route's own rules, such as a closed sign-up, counts as reached).
   */
  unreachable?: string;
};

const STUDENTS = ['studentA', 'studentB'] as const;
const SIGNED = [
  'studentA',
  'studentB',
  'ownTeacher',
  'otherTeacher',
  'reviewer',
  'mediator',
  'examAdmin',
  'staff',
  'admin',
] as const;
const EVERYONE = ['anonymous', ...SIGNED] as const;
const TEACHERS_AND_ADMIN = [
  'ownTeacher',
  'otherTeacher',
  'reviewer',
  'mediator',
  'examAdmin',
  'staff',
  'admin',
] as const;
/** Teachers with no role in the competition (the reviewer and mediator have none yet). */
const OUTSIDERS = ['otherTeacher', 'reviewer', 'mediator'] as const;
/** Those with a role in the competition: it is in their scope. */
const IN_COMPETITION = ['ownTeacher', 'examAdmin', 'staff', 'admin'] as const;
/** Those who manage the competition. */
const MANAGERS = ['examAdmin', 'admin'] as const;
/** Those who run the competition's days (admission, extra time, printing). */
const ORGANISERS = ['examAdmin', 'staff', 'admin'] as const;
/** The question bank and the tests: the coordinator has no part in them. */
const BANK_OUTSIDERS = ['ownTeacher', ...OUTSIDERS] as const;

const PUBLIC: AccessRule = { ok: EVERYONE };
/** A bulk answer (a list of failures, or `failedStudents`) that is empty. */
const nothingFailed = (body: string) => {
  const json = JSON.parse(body) as unknown;
  const failed = Array.isArray(json)
    ? json
    : (json as { failedStudents?: unknown[] }).failedStudents;
  return Array.isArray(failed) && failed.length === 0;
};

const E = '/api/v1/exam-mgmt/exams/{examId}';
const ED = `${E}/editions/{editionId}`;
const P = `${ED}/phases/{phaseId}`;
const RP = '/api/v1/resource-mgmt/exams/{examId}/editions/{editionId}/phases/{phaseId}';
const TP = '/api/v1/test-mgmt/exams/{examId}/editions/{editionId}/phases/{phaseId}';
const UP =
  '/api/v1/upload-mgmt/exams/{examId}/editions/{editionId}/phases/{phaseId}/tests/{testId}';
const U = '/api/v1/user-mgmt';
const AUTH = '/api/v1/auth-service/auth';
const NOTE = '/api/v1/notification-service';
const HOME = '/api/v1/home-service';
const PLAYER = '/api/v1/test-player';
const RANK = '/api/v1/ranking-service';
const RANKP = `${RANK}/exams/{examId}/editions/{editionId}/phases/{phaseId}`;
const REVIEW = '/api/v1/test-review';
const REVIEWP = `${REVIEW}/exams/{examId}/editions/{editionId}/phases/{phaseId}`;

const DIPL = '/api/v1/diploma-generator';
/** A job id no one has: jobs are their requester's alone, and the world makes none. */
const NO_JOB = '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b';
const noJob: AccessRule = {
  ok: SIGNED,
  params: () => ({ jobId: NO_JOB }),
  unreachable:
    "the seeded world has no diploma job; a job is its requester's alone (404 to others)",
};

const paperRead: AccessRule = { ok: ORGANISERS, notFound: OUTSIDERS };
const paperManage: AccessRule = { ok: MANAGERS, notFound: OUTSIDERS };
/** The world makes no paper job: a job id of nobody's is 404 to those who may reach one. */
const noPaperJob: Pick<AccessRule, 'params' | 'unreachable'> = {
  params: () => ({ jobId: NO_JOB }),
  unreachable: 'the seeded world has no paper job of the test',
};
/** Nor any scanned page: a page id of nobody's is 404 to those who may reach one. */
const noScanPage: Pick<AccessRule, 'params' | 'unreachable'> = {
  params: () => ({ pageId: NO_JOB }),
  unreachable: 'the seeded world has no scanned page of the test',
};
const competitionRead: AccessRule = { ok: IN_COMPETITION, notFound: OUTSIDERS };
const competitionManage: AccessRule = { ok: MANAGERS, notFound: OUTSIDERS };
const bankRead: AccessRule = { ok: ORGANISERS, notFound: [...STUDENTS, ...BANK_OUTSIDERS] };
const bankManage: AccessRule = { ok: MANAGERS, notFound: [...STUDENTS, ...BANK_OUTSIDERS] };
const testsRead: AccessRule = { ok: ORGANISERS, notFound: BANK_OUTSIDERS };
const testsManage: AccessRule = { ok: MANAGERS, notFound: BANK_OUTSIDERS };
/** Printing a paper: SPEC.md §2 answers 403 to every teacher who may not (no 404 there). */
const testsPrint: AccessRule = { ok: ORGANISERS };
const ownPlayer: AccessRule = { ok: STUDENTS };

const question = (w: World) => ({
  itemQ: 'Cât face $2 + 2$?',
  itemDiscipline: 'Matematică',
  itemGrade: 5,
  difficulty: 'low',
  itemType: 'single',
  itemAnswers: ['3', '4'],
  itemCorrectAnswers: [1],
  itemCategory: w.exam.subject,
});

export const ACCESS_RULES: Record<string, AccessRule> = {
  // The OpenAPI description and its page are public, as is the health check.
  'GET /api/docs': PUBLIC,
  'GET /api/docs/': PUBLIC,
  'GET /api/docs/static/index.html': PUBLIC,
  'GET /api/docs/static/swagger-initializer.js': PUBLIC,
  'GET /api/docs/static/*': { ...PUBLIC, unreachable: 'no file named by the wildcard' },
  'GET /api/docs/json': PUBLIC,
  'GET /api/docs/yaml': PUBLIC,
  'GET /api/v1/health': PUBLIC,
  'GET /api/v1/health/ready': PUBLIC,

  // Signing up and in: public; the links' codes decide (none of the world's is valid).
  [`POST ${AUTH}/signup`]: PUBLIC,
  [`GET ${AUTH}/token/{uid}/{code}`]: { ...PUBLIC },
  [`GET ${AUTH}/oauth/token/{uid}/{code}`]: { ...PUBLIC },
  [`POST ${AUTH}/login`]: {
    ...PUBLIC,
    body: () => ({ email: NO_ACCOUNT, password: 'parola-gresita' }),
  },
  [`POST ${AUTH}/password/forgot`]: PUBLIC,
  [`POST ${AUTH}/password/reset`]: { ...PUBLIC },
  [`GET ${AUTH}/oidc`]: PUBLIC,
  [`GET ${AUTH}/oidc/start`]: { ...PUBLIC },
  [`GET ${AUTH}/oauth/callback`]: { ...PUBLIC },
  [`GET ${AUTH}/whoami`]: { ok: SIGNED },
  // Completing one's registration: people who sign up; admins are made complete.
  [`POST ${AUTH}/register`]: { ok: SIGNED.filter((c) => c !== 'admin') },
  [`POST ${AUTH}/logout`]: { ok: SIGNED, ownSession: true },
  // One's own password and sessions. The wrong current password is the route's own 400;
  // the world's session ids are nobody's here, so ending one is "not found" to everyone.
  [`POST ${AUTH}/password/change`]: {
    ok: SIGNED,
    body: () => ({ currentPassword: 'parola-gresita', password: 'o-parola-noua-2026' }),
  },
  [`GET ${AUTH}/sessions`]: { ok: SIGNED },
  [`DELETE ${AUTH}/sessions/{sessionId}`]: { ok: [], notFound: SIGNED },
  [`POST ${AUTH}/sessions/end-others`]: { ok: SIGNED, ownSession: true },
  // The bell: each person's own; another's notification is not found.
  [`GET ${NOTE}/notifications`]: { ok: SIGNED },
  [`POST ${NOTE}/notifications/{notificationId}/read`]: { ok: [], notFound: SIGNED },
  [`POST ${NOTE}/notifications/read-all`]: { ok: SIGNED },
  // Homes and the search: everyone their own (the search's scopes are in its own tests).
  [`GET ${HOME}/home`]: { ok: SIGNED },
  [`GET ${HOME}/search`]: { ok: SIGNED },
  // Sign-in failure counters: admins see and clear them.
  [`GET ${AUTH}/throttles`]: { ok: ['admin'] },
  [`DELETE ${AUTH}/throttles/{id}`]: { ok: ['admin'], params: (w) => ({ id: w.throttleId }) },

  // People. A's teacher and the competition's organisers see A; B and outsiders do not.
  // `{user}` is an id or an e-mail address: read by id, changed by address as SPEC.md calls them.
  [`GET ${U}/users/{user}`]: {
    ok: ['studentA', ...IN_COMPETITION],
    notFound: ['studentB', ...OUTSIDERS],
    params: (w) => ({ user: w.studentA.id }),
  },
  [`PATCH ${U}/users/{user}`]: {
    ok: ['studentA', 'admin'],
    notFound: ['studentB', ...OUTSIDERS],
    params: (w) => ({ user: w.studentA.email }),
  },
  // Set on the coordinator's own address: theirs and admins'.
  [`PUT ${U}/users/{email}/teacher-codes`]: {
    ok: ['ownTeacher', 'admin'],
    notFound: STUDENTS,
  },
  [`PUT ${U}/users/{email}/type`]: {
    ok: ['admin'],
  },
  [`POST ${U}/users/{id}/anonymise`]: { ok: ['admin'], last: true },
  // A person's data (GDPR): admins export anyone's, everyone their own.
  [`GET ${U}/users/{id}/personal-data`]: { ok: ['admin'] },
  [`GET ${U}/my-personal-data`]: { ok: SIGNED },
  // Lists are scoped to the caller (the matrix's leak check reads what they show).
  [`GET ${U}/students`]: { ok: TEACHERS_AND_ADMIN },
  [`GET ${U}/students/count`]: { ok: TEACHERS_AND_ADMIN },
  [`GET ${U}/students/downloads`]: { ok: TEACHERS_AND_ADMIN },
  // Activating A: A's teacher and the competition's organisers; others get A back as failed.
  [`POST ${U}/students/state`]: {
    ok: [...IN_COMPETITION],
    body: (w) => ({ students: [{ email: w.studentA.email, state: 'active' }] }),
    done: nothingFailed,
  },
  [`DELETE ${U}/students/{id}`]: {
    ok: ['ownTeacher', 'admin'],
    notFound: OUTSIDERS,
    last: true,
  },
  // Teachers list teachers (the pickers); only admins change or remove one.
  [`GET ${U}/teachers`]: { ok: TEACHERS_AND_ADMIN },
  [`GET ${U}/teachers/count`]: { ok: TEACHERS_AND_ADMIN },
  [`GET ${U}/teachers/downloads`]: { ok: TEACHERS_AND_ADMIN },
  [`POST ${U}/teachers/state`]: {
    ok: ['admin'],
    body: (w) => ({ teachers: [{ email: w.spareTeacher.email, state: 'inactive' }] }),
    done: nothingFailed,
  },
  [`DELETE ${U}/teachers/{id}`]: { ok: ['admin'], last: true },

  // The mail outbox: admins.
  'GET /api/v1/mail-service/outbox': { ok: ['admin'] },
  'GET /api/v1/mail-service/outbox/count': { ok: ['admin'] },
  'POST /api/v1/mail-service/outbox/{mailId}/resend': { ok: ['admin'] },

  // Competitions. Lists are scoped; a competition is seen by those with a role in it.
  'GET /api/v1/exam-mgmt/exams': { ok: SIGNED },
  'GET /api/v1/exam-mgmt/exams/count': { ok: SIGNED },
  'POST /api/v1/exam-mgmt/exams': { ok: ['admin'] },
  'POST /api/v1/exam-mgmt/exams/': { ok: ['admin'] },
  [`GET ${E}`]: { ok: IN_COMPETITION, notFound: [...STUDENTS, ...OUTSIDERS] },
  [`PATCH ${E}`]: competitionManage,
  [`DELETE ${E}`]: { ...competitionManage, ok: ['admin'], last: true },
  [`GET ${E}/editions`]: competitionRead,
  [`GET ${E}/editions/count`]: competitionRead,
  [`POST ${E}/editions`]: competitionManage,
  [`GET ${ED}`]: competitionRead,
  [`PATCH ${ED}`]: competitionManage,
  [`GET ${ED}/phases`]: competitionRead,
  [`POST ${ED}/phases`]: {
    ...competitionManage,
    body: () => ({
      name: 'Etapa județeană',
      type: 'online',
      startDate: '2027-02-01T08:00:00.000Z',
      endDate: '2027-02-02T08:00:00.000Z',
    }),
  },
  [`GET ${P}`]: competitionRead,
  [`GET ${E}/phases/{phaseId}`]: competitionRead,
  [`PATCH ${P}`]: competitionManage,
  [`POST ${P}`]: competitionManage,
  [`PUT ${P}/review`]: {
    ...competitionManage,
  },
  [`PUT ${P}/finish`]: { ...competitionManage, last: true },
  // Reached while the phase is open (409 PHASE_NOT_CLOSED counts as reached).
  [`PUT ${P}/reopen`]: competitionManage,
  [`GET ${P}/students`]: competitionRead,
  [`GET ${P}/students/count`]: competitionRead,
  [`PUT ${P}/students`]: { ok: ORGANISERS, notFound: OUTSIDERS },
  [`PUT ${P}/students/`]: { ok: ORGANISERS, notFound: OUTSIDERS },
  [`POST ${P}/students/admit-top`]: {
    ok: ORGANISERS,
    notFound: OUTSIDERS,
  },
  [`POST ${P}/students/admit-threshold`]: {
    ok: ORGANISERS,
    notFound: OUTSIDERS,
  },
  [`GET ${ED}/students`]: competitionRead,
  [`GET ${ED}/students/count`]: competitionRead,
  [`GET ${ED}/students/credentials`]: competitionRead,
  [`POST ${ED}/students`]: { ...competitionRead, done: nothingFailed },
  [`PUT ${ED}/students`]: { ...competitionRead, done: nothingFailed },
  [`DELETE ${ED}/students`]: { ...competitionRead, done: nothingFailed, last: true },
  [`POST ${ED}/students/all-mine`]: competitionRead,
  [`POST ${ED}/students/for-coordinators`]: competitionManage,
  // A student's own sign-ups and credentials.
  'GET /api/v1/exam-mgmt/open-exams': ownPlayer,
  'GET /api/v1/exam-mgmt/external-registrations': ownPlayer,
  'GET /api/v1/exam-mgmt/cms-credentials': ownPlayer,
  'PUT /api/v1/exam-mgmt/open-exams/{id}/register': {
    ...ownPlayer,
  },
  'PUT /api/v1/exam-mgmt/open-exams/{id}/unregister': {
    ...ownPlayer,
  },

  // Statement images: any teacher uploads one; it is read by its uploader, admins and the
  // organisers of a competition whose question shows it, and by a student whose test does.
  'POST /api/v1/resource-mgmt/files': { ok: TEACHERS_AND_ADMIN },
  'GET /api/v1/resource-mgmt/files/{id}': {
    ok: [...STUDENTS, 'examAdmin', 'staff', 'admin'],
    notFound: BANK_OUTSIDERS,
  },
  // The question bank: its managers; staff read it.
  [`GET ${RP}/items`]: bankRead,
  [`GET ${RP}/items/count`]: bankRead,
  [`GET ${RP}/items/import-template`]: bankRead,
  [`GET ${RP}/items/{questionId}`]: bankRead,
  [`POST ${RP}/items`]: { ...bankManage, body: question },
  [`PATCH ${RP}/items/{questionId}`]: bankManage,
  [`DELETE ${RP}/items/{questionId}`]: {
    ...bankManage,
    last: true,
    // The phase cannot close in the seeded world (answers wait for marking), so the first
    // manager deletes the question and the next find it gone.
    unreachable: 'the first allowed caller deletes the question; the next ones find it gone',
  },
  [`DELETE ${RP}/items`]: { ...bankManage, last: true },
  [`POST ${RP}/items/files`]: {
    ...bankManage,
    fields: () => ({ Discipline: 'Matematică', Grade: '5' }),
  },
  // The same import where SPEC.md §7 names it.
  'POST /api/v1/data-import/exams/{examId}/editions/{editionId}/phases/{phaseId}/items/files': {
    ...bankManage,
    fields: () => ({ Discipline: 'Matematică', Grade: '5' }),
  },
  [`POST ${RP}/items/import`]: bankManage,
  [`POST ${RP}/items/{questionId}/teachers`]: {
    ...bankManage,
    body: (w) => ({ mediatorTeacher: w.mediator.id, gradingTeachers: [w.reviewer.id] }),
  },
  [`DELETE ${RP}/items/{questionId}/teachers`]: {
    ...bankManage,
    body: (w) => ({ mediatorTeacher: '', gradingTeachers: [w.reviewer.id] }),
  },

  // Tests: their managers; staff view and print them.
  [`GET ${TP}/tests`]: testsRead,
  [`GET ${TP}/tests/{testId}`]: testsRead,
  [`GET ${TP}/tests/{testId}/paper`]: testsPrint,
  [`POST ${TP}/tests/{testId}/download`]: testsPrint,
  [`GET ${TP}/tests/{testId}/details`]: testsManage,
  [`POST ${TP}/tests`]: {
    ...testsManage,
    body: () => ({
      name: 'Test clasa a VI-a',
      grades: [6],
      subject: 'Matematică',
      startDate: '2026-11-24T08:00:00.000Z',
      endDate: '2026-11-24T12:00:00.000Z',
      duration: 60,
      totalScore: 10,
      easyCount: 1,
      mediumCount: 0,
      hardCount: 0,
    }),
  },
  [`PUT ${TP}/tests/{testId}/items`]: {
    ...testsManage,
    body: (w) => ({ assignedItems: w.onlineItemIds.map((itemId) => ({ itemId, score: 10 })) }),
  },
  [`PUT ${TP}/tests/publish`]: testsManage,
  [`DELETE ${TP}/tests/{testId}`]: {
    ...testsManage,
    last: true,
  },

  // Hybrid answers. The coordinator sees their own students' (A); B and outsiders nothing.
  [`GET ${UP}`]: { ok: IN_COMPETITION, notFound: OUTSIDERS },
  [`GET ${UP}/students`]: { ok: IN_COMPETITION, notFound: OUTSIDERS },
  [`GET ${UP}/students/count`]: { ok: IN_COMPETITION, notFound: OUTSIDERS },
  [`GET ${UP}/students/{studentId}/items`]: {
    ok: ['studentA', ...IN_COMPETITION],
    notFound: ['studentB', ...OUTSIDERS],
  },
  [`GET ${UP}/answers/{answerId}/files`]: {
    ok: ['studentA', ...IN_COMPETITION],
    notFound: ['studentB', ...OUTSIDERS],
  },
  [`POST ${UP}/items/{itemId}/answers`]: { ok: STUDENTS },
  // Entry of a paper answer, for student B (so A's own answer stays A's to change).
  [`POST ${UP}/students/{studentId}/items/{itemId}/answers`]: {
    ok: ['studentB', ...MANAGERS],
    notFound: ['studentA', 'ownTeacher', ...OUTSIDERS],
    params: (w) => ({ studentId: w.studentB.id }),
  },
  [`PATCH ${UP}/answers/{answerId}`]: {
    ok: ['studentA', ...MANAGERS],
    notFound: ['studentB', ...OUTSIDERS],
  },

  // Paper exams of the hybrid test: the organisers look, the managers print and upload; a
  // coordinator sees neither the codes nor the rooms of other teachers' students.
  [`GET ${UP}/paper/seats`]: paperRead,
  [`PUT ${UP}/paper/seats`]: paperManage,
  [`POST ${UP}/paper/booklets`]: paperManage,
  [`POST ${UP}/paper/scans`]: paperManage,
  [`PUT ${UP}/paper/scans/{jobId}`]: { ...paperManage, ...noPaperJob },
  [`GET ${UP}/paper/jobs`]: paperRead,
  [`GET ${UP}/paper/jobs/{jobId}`]: { ...paperRead, ...noPaperJob },
  [`GET ${UP}/paper/jobs/{jobId}/file`]: { ...paperRead, ...noPaperJob },
  [`GET ${UP}/paper/pages`]: paperRead,
  [`GET ${UP}/paper/pages/{pageId}/image`]: { ...paperManage, ...noScanPage },
  [`POST ${UP}/paper/pages/{pageId}/match`]: { ...paperManage, ...noScanPage },
  [`POST ${UP}/paper/pages/{pageId}/set-aside`]: { ...paperManage, ...noScanPage },
  [`GET ${UP}/paper/summary`]: paperRead,

  // The player: each student their own attempt (A finished, B still writing).
  [`GET ${PLAYER}/mytests`]: ownPlayer,
  [`POST ${PLAYER}/mytests/{testId}`]: ownPlayer,
  // SPEC.md §7's body, without seq; a cleared answer fits every item.
  [`PUT ${PLAYER}/mytests/{testId}`]: {
    ...ownPlayer,
    body: (w) => ({ itemId: w.onlineItemIds[0], submittedAnswer: null }),
  },
  [`PUT ${PLAYER}/mytests/{testId}/review`]: ownPlayer,
  [`GET ${PLAYER}/mytests/{testId}/state`]: ownPlayer,
  [`GET ${PLAYER}/mytests/{testId}/events`]: ownPlayer,
  [`GET ${PLAYER}/mytests/{testId}/items`]: ownPlayer,
  [`GET ${PLAYER}/mytests/{testId}/files/{fileId}`]: ownPlayer,
  // Incidents on A's attempt: the competition's organisers.
  // The exam-day panel: the competition's people (a coordinator counts their own students);
  // students and outsiders never learn the phase exists.
  [`GET ${PLAYER}/exams/{examId}/editions/{editionId}/phases/{phaseId}/live`]: {
    ok: IN_COMPETITION,
    notFound: [...STUDENTS, ...OUTSIDERS],
  },
  [`POST ${PLAYER}/tests/{testId}/students/{studentId}/extra-time`]: {
    ok: ORGANISERS,
    notFound: OUTSIDERS,
  },
  [`POST ${PLAYER}/tests/{testId}/students/{studentId}/reopen`]: {
    ok: ORGANISERS,
    notFound: OUTSIDERS,
  },

  // Rankings of the online phase (A and B take part; it does not publish its ranking, so they
  // are refused it, though they see their own ranks and whether results are final).
  [`GET ${RANKP}/rankings`]: competitionRead,
  [`GET ${RANKP}/rankings/count`]: competitionRead,
  [`GET ${RANKP}/rankings/download`]: competitionRead,
  [`GET ${RANKP}/rankings/summary`]: { ok: [...STUDENTS, ...IN_COMPETITION], notFound: OUTSIDERS },
  [`GET ${RANK}/my-rankings`]: { ok: STUDENTS },
  // The olympiad rule sets: the same for every teacher and admin, no competition's data.
  [`GET ${RANK}/rules/presets`]: { ok: TEACHERS_AND_ADMIN },
  [`GET ${RANK}/rules/presets/{presetId}`]: {
    ok: TEACHERS_AND_ADMIN,
    params: () => ({ presetId: 'county_to_national' }),
  },
  [`GET ${RANKP}/rules`]: competitionRead,
  [`PUT ${RANKP}/rules`]: {
    ok: ORGANISERS,
    notFound: OUTSIDERS,
    body: () => ({ tieBreak: 'none', publication: 'none', qualification: null, awards: null }),
  },
  [`GET ${RANKP}/rules/status`]: { ok: ORGANISERS, notFound: OUTSIDERS },
  [`POST ${RANKP}/rules/dry-run`]: { ok: ORGANISERS, notFound: OUTSIDERS },
  [`POST ${RANKP}/rules/apply`]: { ok: ORGANISERS, notFound: OUTSIDERS },

  // Marking of the online phase: its markers (none in the seeded world: its open item has no
  // marking teachers) and those who see the whole competition; students are not markers.
  // The review has not started there, so no entry exists to open.
  ...reviewRules(),

  // A student's own result and appeals: A finished the online test, B is still writing it.
  [`GET ${REVIEW}/tests/{testId}/items`]: { ok: ['studentA'], notFound: ['studentB'] },
  [`PUT ${REVIEW}/tests/{testId}/items/{itemId}/appeal`]: {
    ok: ['studentA'],
    notFound: ['studentB'],
  },

  // Diplomas of the online phase, still open (so allowed callers get RESULTS_NOT_FINAL): A's
  // own, her teacher's and the organisers'; anyone else is refused with 403 (SPEC.md §2).
  [`POST ${DIPL}/diplomas`]: {
    ok: ['studentA', 'ownTeacher', ...ORGANISERS],
    body: (w) => ({
      examId: w.exam.id,
      editionId: w.edition.id,
      phaseId: w.online.id,
      userId: w.studentA.id,
    }),
  },
  [`GET ${DIPL}/my-diplomas`]: { ok: SIGNED },
  // A phase's ZIP: the organisers.
  [`POST ${DIPL}/jobs`]: {
    ok: ORGANISERS,
    body: (w) => ({ examId: w.exam.id, editionId: w.edition.id, phaseId: w.online.id }),
  },
  [`GET ${DIPL}/jobs`]: { ok: SIGNED },
  // Diplomas to reissue after a reopened phase closed again, and the reissue: the organisers.
  [`GET ${DIPL}/stale`]: {
    ok: ORGANISERS,
    query: (w) => ({ examId: w.exam.id, editionId: w.edition.id, phaseId: w.online.id }),
  },
  [`POST ${DIPL}/reissue`]: {
    ok: ORGANISERS,
    body: (w) => ({
      examId: w.exam.id,
      editionId: w.edition.id,
      phaseId: w.online.id,
      userId: w.studentA.id,
    }),
  },
  [`GET ${DIPL}/jobs/{jobId}`]: noJob,
  [`GET ${DIPL}/jobs/{jobId}/file`]: noJob,
  [`GET ${DIPL}/verify/{code}`]: {
    ...PUBLIC,
    params: () => ({ code: '0000-0000-0000' }),
    unreachable: 'no diploma is issued in the seeded world (an unknown code is 404)',
  },
};

/** The rules of the markers' routes of test-review. */
function reviewRules(): Record<string, AccessRule> {
  const scoped: AccessRule = { ok: ORGANISERS, notFound: BANK_OUTSIDERS };
  const noEntry: AccessRule = {
    ...scoped,
    params: () => ({ reviewId: '00000000-0000-7000-8000-000000000000' }),
    unreachable: 'no review entry or appeal in the seeded world (its review has not started)',
  };
  const rules: Record<string, AccessRule> = {
    // Any teacher's own list (the reviewer and mediator find the hybrid phase in theirs).
    [`GET ${REVIEW}/my-phases`]: { ok: TEACHERS_AND_ADMIN },
    // Any teacher's own count of the appeals only their competitions' admins decide.
    [`GET ${REVIEW}/admin-decisions`]: { ok: TEACHERS_AND_ADMIN },
    [`GET ${REVIEWP}/scope`]: scoped,
    [`GET ${REVIEWP}/marking-scope`]: scoped,
    [`GET ${REVIEWP}/progress`]: scoped,
    [`POST ${REVIEWP}/reminders`]: scoped,
    [`POST ${REVIEWP}/reassignments`]: { ...scoped, body: (w) => ({ teacherId: w.reviewer.id }) },
    [`GET ${REVIEWP}/items/{itemId}/rubric`]: scoped,
    [`PUT ${REVIEWP}/items/{itemId}/rubric`]: {
      ...scoped,
      body: () => ({ criteria: [{ label: 'Ecuația scrisă', points: 2 }] }),
    },
    // The open item has no key to fix (a 400 of the route's own rules).
    [`POST ${REVIEWP}/items/{itemId}/key/preview`]: { ok: MANAGERS, notFound: BANK_OUTSIDERS },
    [`PUT ${REVIEWP}/items/{itemId}/key`]: { ok: MANAGERS, notFound: BANK_OUTSIDERS },
  };
  for (const kind of ['reviews', 'appeals']) {
    rules[`GET ${REVIEWP}/${kind}`] = scoped;
    rules[`GET ${REVIEWP}/${kind}/count`] = scoped;
    rules[`GET ${REVIEWP}/${kind}/{reviewId}`] = noEntry;
    rules[`PUT ${REVIEWP}/${kind}/{reviewId}`] = noEntry;
    rules[`PUT ${REVIEWP}/${kind}/{reviewId}/mediations`] = noEntry;
    rules[`GET ${REVIEWP}/${kind}/{reviewId}/history`] = noEntry;
    rules[`GET ${REVIEWP}/${kind}/{reviewId}/answer`] = noEntry;
    rules[`GET ${REVIEWP}/${kind}/{reviewId}/files/{fileId}`] = noEntry;
  }
  rules[`PUT ${REVIEWP}/appeals/{reviewId}/decision`] = noEntry;
  return rules;
}

/** The rule of a route: a HEAD route follows its GET. */
export function ruleOf(key: string): AccessRule | undefined {
  return ACCESS_RULES[key.replace(/^HEAD /, 'GET ')];
}
