import { asc, eq } from 'drizzle-orm';
import { STATEMENT_FILE_PREFIX } from '../../shared/statement.js';
import { makeEnrolment, makeQuestion } from '../db/factories.js';
import { authThrottles, mailOutbox, phaseStudents, questions, testItems } from '../db/schema.js';
import type { TestApp } from './app.js';
import { type Signed, smallCompetition } from './competition.js';
import { multipartForm, onePixelPng } from './forms.js';

/**
 * A populated competition for the tests that walk every route (the access matrix, the fuzzer):
 * everyone who may meet a resource, and one of each resource, made through the API where the
 * API makes it. Student A is the owner of the resources the paths name; student B takes the
 * same tests beside A but is another teacher's. The coordinator of the edition is A's teacher;
 * the other teacher is B's and has no role in the competition. A reviewer and a mediator are
 * assigned to the hybrid test's question. Each student's answers carry a marker text
 * (`canary`) that a body must show only to those allowed to read the answer.
 */
export type Caller =
  | 'anonymous'
  | 'studentA'
  | 'studentB'
  | 'ownTeacher'
  | 'otherTeacher'
  | 'reviewer'
  | 'mediator'
  | 'examAdmin'
  | 'staff'
  | 'admin';

export const CALLERS: readonly Caller[] = [
  'anonymous',
  'studentA',
  'studentB',
  'ownTeacher',
  'otherTeacher',
  'reviewer',
  'mediator',
  'examAdmin',
  'staff',
  'admin',
];

/** An address with no account: sign-in attempts with it slow down nobody real. */
export const NO_ACCOUNT = 'nimeni@example.ro';

export type World = Awaited<ReturnType<typeof populatedWorld>>;

export async function populatedWorld(t: TestApp) {
  const c = await smallCompetition(t);
  const db = t.database.db;
  const person = async (seed: Parameters<TestApp['createUser']>[0]): Promise<Signed> => {
    const u = await t.createUser(seed);
    return { id: u.id, email: u.email, headers: await t.login(u.email, u.password) };
  };
  const otherTeacher = await person({ type: 'teacher' });
  const reviewer = await person({ type: 'teacher' });
  const mediator = await person({ type: 'teacher' });
  // Someone whose removal the matrix may try without losing a caller.
  const spareTeacher = await person({ type: 'teacher' });
  const studentB = await person({ type: 'student', grade: 5, teacherRef: otherTeacher.id });
  await makeEnrolment(db, {
    editionId: c.edition.id,
    studentId: studentB.id,
    grade: 5,
    phaseIds: [c.online.id, c.hybrid.id],
  });
  // Both phases start together; the hybrid one's students were put there by its staff, so a
  // phase created in front of it (the matrix creates one) leaves them in it.
  await db
    .update(phaseStudents)
    .set({ source: 'staff' })
    .where(eq(phaseStudents.phaseId, c.hybrid.id));
  const call = async (
    method: string,
    url: string,
    headers: Record<string, string>,
    payload?: unknown,
  ) => {
    const res = await t.app.inject({
      method: method as 'GET',
      url: `/api/v1${url}`,
      headers,
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
    if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
    return res.json() as Record<string, unknown>;
  };
  const form = (parts: Parameters<typeof multipartForm>[0]) => multipartForm(parts);

  // A statement image, and a bank question of the online phase that no test drew.
  const image = form([
    { name: 'file', filename: 'figura.png', type: 'image/png', value: onePixelPng() },
  ]);
  const imageRes = await t.app.inject({
    method: 'POST',
    url: '/api/v1/resource-mgmt/files',
    headers: { ...c.examAdmin.headers, ...image.headers },
    payload: image.payload,
  });
  if (imageRes.statusCode !== 200) throw new Error(`image: ${imageRes.body}`);
  const fileId = (imageRes.json() as { _id: string })._id;
  const bankQuestion = await makeQuestion(db, { phaseId: c.online.id });
  // The online test's first statement shows the image.
  const onlineItemIds = (
    await db
      .select({ id: testItems.questionId })
      .from(testItems)
      .where(eq(testItems.testId, c.onlineTest.id))
      .orderBy(asc(testItems.position))
  ).map((r) => r.id);
  await db
    .update(questions)
    .set({ itemQ: `Figura: ![figura](${STATEMENT_FILE_PREFIX}${fileId})` })
    .where(eq(questions.id, onlineItemIds[0] ?? ''));

  // The hybrid question's marking teachers.
  await call(
    'POST',
    `/resource-mgmt${c.phasePath(c.hybrid.id)}/items/${c.hybridItemId}/teachers`,
    c.examAdmin.headers,
    { mediatorTeacher: mediator.id, gradingTeachers: [reviewer.id] },
  );

  // Attempts with answers: A finishes the online test, B is still writing.
  const canary = { studentA: 'raspuns-canar-A-7f3e', studentB: 'raspuns-canar-B-91c4' };
  for (const [who, s] of [
    ['studentA', c.student],
    ['studentB', studentB],
  ] as const) {
    await call('POST', `/test-player/mytests/${c.onlineTest.id}`, s.headers, {
      termsAccepted: true,
    });
    await call('PUT', `/test-player/mytests/${c.onlineTest.id}`, s.headers, {
      itemId: c.openItemId,
      submittedAnswer: canary[who],
      seq: 1,
    });
  }
  await call('PUT', `/test-player/mytests/${c.onlineTest.id}/review`, c.student.headers, {});

  // A's page of the hybrid test.
  const page = form([
    { name: 'item_0', filename: 'pagina-1.png', type: 'image/png', value: onePixelPng() },
  ]);
  const hybridUrl = `/upload-mgmt${c.phasePath(c.hybrid.id)}/tests/${c.hybridTest.id}`;
  const pageRes = await t.app.inject({
    method: 'POST',
    url: `/api/v1${hybridUrl}/items/${c.hybridItemId}/answers`,
    headers: { ...c.student.headers, ...page.headers },
    payload: page.payload,
  });
  if (pageRes.statusCode !== 200) throw new Error(`page: ${pageRes.body}`);
  const uploaded = pageRes.json() as { _id: string; answerFiles: { _id: string }[] };
  const answerId = uploaded._id;
  const answerFileId = uploaded.answerFiles[0]?._id ?? '';

  // A mail in the outbox (A's reset request).
  await call('POST', '/auth-service/auth/password/forgot', {}, { email: c.student.email });
  const [mail] = await db
    .select({ id: mailOutbox.id })
    .from(mailOutbox)
    .where(eq(mailOutbox.toAddress, c.student.email));
  if (!mail) throw new Error('no mail queued');

  // A sign-in failure counter (someone mistyping an address that has no account).
  await t.app.inject({
    method: 'POST',
    url: '/api/v1/auth-service/auth/login',
    payload: { email: NO_ACCOUNT, password: 'parola-gresita' },
  });
  const [throttle] = await db
    .select({ id: authThrottles.id })
    .from(authThrottles)
    .where(eq(authThrottles.email, NO_ACCOUNT));
  if (!throttle) throw new Error('no sign-in failure counted');

  const callers: Record<Caller, Signed | null> = {
    anonymous: null,
    studentA: c.student,
    studentB,
    ownTeacher: c.coordinator,
    otherTeacher,
    reviewer,
    mediator,
    examAdmin: c.examAdmin,
    staff: c.staff,
    admin: c.admin,
  };
  return {
    ...c,
    callers,
    studentA: c.student,
    studentB,
    otherTeacher,
    reviewer,
    mediator,
    fileId,
    bankQuestion,
    onlineItemIds,
    answerId,
    answerFileId,
    spareTeacher,
    mailId: mail.id,
    throttleId: throttle.id,
    canary,
    hybridUrl,
  };
}
