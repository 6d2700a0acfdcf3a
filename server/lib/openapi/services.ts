/**
 * The services of SPEC.md §7, in its order, as the OpenAPI description's tags: each route is
 * tagged by the service its URL lives under, and `/api/docs` shows them in this order with
 * the service's own words. Health and mail are Podium's own, after SPEC.md's.
 */
export type Service = {
  /** The tag: the service's name as SPEC.md §7 writes it. */
  name: string;
  /** The URL prefix of its routes, after `/api/v1`. */
  prefix: string;
  description: string;
};

export const SERVICES: readonly Service[] = [
  {
    name: 'Auth service',
    prefix: '/auth-service',
    description:
      'Signing up, in and out: an e-mailed sign-in link or an OAuth code exchanged for a bearer ' +
      'token (`GET auth/token/{uid}/{code}`), `whoami` with the userId and bearer headers, ' +
      'completing the registration (`POST auth/register`), logging out, forgotten passwords, ' +
      'changing one’s password and ending one’s sessions, ' +
      "sign-in with a school's OpenID Connect provider, and the sign-in failure counters admins clear.",
  },
  {
    name: 'Test management',
    prefix: '/test-mgmt',
    description:
      'The tests of a phase (`test-mgmt/exams/{examId}/editions/{editionId}/phases/{phaseId}/tests`): ' +
      'create one per grade from the question bank, list, delete, details, its items, the paper ' +
      'as a PDF (`…/{testId}/download`, a blob) and publishing the phase’s tests.',
  },
  {
    name: 'Test player',
    prefix: '/test-player',
    description:
      'A student’s own tests on exam day (`test-player/mytests`): the list, starting a test ' +
      '(`POST mytests/{testId}`), saving an answer (`PUT` with itemId and submittedAnswer), ' +
      'finishing (`PUT …/review`), the attempt’s state, its items and images; staff give a ' +
      'student extra time or reopen an attempt after an incident.',
  },
  {
    name: 'Upload service',
    prefix: '/upload-mgmt',
    description:
      'Answers written on paper (hybrid tests, `upload-mgmt/…/tests/{testId}/students`): the ' +
      'students of a test with their progress (`?filter=`, `count?where=`), a student’s items, ' +
      'uploading pages as multipart `item_N` files, keeping or reordering an answer’s files, and ' +
      'downloading them.',
  },
  {
    name: 'Exam service',
    prefix: '/exam-mgmt',
    description:
      'Competitions (`exam-mgmt/exams`), their editions and phases: create, change, list with ' +
      'LoopBack `filter` and `count?where`, the exam’s admin and staff teachers and an edition’s ' +
      'coordinators, enrolling students (`…/editions/{editionId}/students`, answering ' +
      '`failedStudents`), credentials, the students of a phase and their results, starting the ' +
      'review (`…/review`) and closing a phase (`…/finish`); open exams students sign up for.',
  },
  {
    name: 'User service',
    prefix: '/user-mgmt',
    description:
      'People (`user-mgmt`): a user by id or e-mail (`users/{user}`) and their profile, teacher ' +
      'codes, the students and teachers lists (`?filter=`, `count?where=`, `downloads`), ' +
      'activating and removing accounts, and a person’s data (access, export, anonymising).',
  },
  {
    name: 'Question and resource service',
    prefix: '/resource-mgmt',
    description:
      'The question bank of a phase (`resource-mgmt/exams/{examId}/editions/{editionId}/phases/{phaseId}/items`): ' +
      'list with `filter` and `count?where`, add, change, delete (body `ids`, answering the ' +
      'failed ones), mediator and grading teachers, importing questions from images or a ' +
      'spreadsheet (multipart), and the statements’ images (`POST /files` multipart, `GET /files/{id}`).',
  },
  {
    name: 'Data import',
    prefix: '/data-import',
    description:
      'Where SPEC.md names the question bank’s image import ' +
      '(`data-import/exams/{examId}/editions/{editionId}/phases/{phaseId}/items/files`, multipart ' +
      '`image` parts with `Discipline` and `Grade`): the same call as under `resource-mgmt`.',
  },
  {
    name: 'Review service',
    prefix: '/test-review',
    description:
      'Marking (`test-review`): the review and appeal lists (`filter` `{limit, skip, type}` and ' +
      'count), an entry with its answer, marks (`reviewerScore`), mediations, an entry’s ' +
      'history, downloading an answer as `response_{answerId}.zip`, rubrics, progress and ' +
      'reminders, reassigning work, correcting an answer key, and a student’s appeal ' +
      '(`PUT test-review/tests/{testId}/items/{itemId}/appeal`).',
  },
  {
    name: 'Ranking',
    prefix: '/ranking-service',
    description:
      'A phase’s ranking (`ranking-service/…/phases/{phaseId}/rankings`): `filter` (limit, skip, ' +
      'order, familyName, givenName, studentCounty, studentGrade), `count?where`, the ' +
      '`elevi.csv` download, a student’s own ranks, and the admission and prize rules.',
  },
  {
    name: 'Diploma',
    prefix: '/diploma-generator',
    description:
      'Diplomas (`diploma-generator/diplomas`): one as a PDF (body examId, editionId, phaseId, ' +
      'userId, callbackUrl), a whole phase’s as a ZIP made in the background, and checking a ' +
      'diploma’s code.',
  },
  {
    name: 'Mail service',
    prefix: '/mail-service',
    description:
      'The e-mail outbox admins watch (`mail-service`): what was sent or is waiting, and sending ' +
      'a failed mail again.',
  },
  {
    name: 'Notification service',
    prefix: '/notification-service',
    description:
      'The bell (`notification-service/notifications`): the caller’s own notifications (enrolled, ' +
      'a test opening soon, results published, a score changed, marking assigned, the same events ' +
      'as the mails), how many are unread, marking one or all read.',
  },
  {
    name: 'Home service',
    prefix: '/home-service',
    description:
      'What the signed-in person does next (`home-service/home`: a student’s next test and ' +
      'results, a teacher’s students and marking, an organiser’s phases and what blocks them) and ' +
      'the top bar’s search (`home-service/search?q=`) over what they may see.',
  },
  {
    name: 'Health',
    prefix: '/health',
    description:
      'Whether the server and what it depends on (database, file storage, mail) answer, for load ' +
      'balancers and monitoring.',
  },
];

/** The service a route's URL (after `/api/v1`) belongs to, if any. */
export function serviceOf(path: string): Service | undefined {
  return SERVICES.find((s) => path === s.prefix || path.startsWith(`${s.prefix}/`));
}
