import { eq } from 'drizzle-orm';
import { makeEnrolment } from '../../db/factories.js';
import { phases, testItems } from '../../db/schema.js';
import type { TestApp } from '../../test/app.js';
import { type Signed, smallCompetition } from '../../test/competition.js';
import { multipartForm, onePixelPng } from '../../test/forms.js';

/**
 * A competition whose hybrid test (one open item worth 10) has pages from three students, and
 * whose online test (a single-choice item, then an open one) three students finished, for the
 * marking and appeal tests. Students carry names, school and county that no marker may see.
 * The coordinator also grades the hybrid question (a conflict for their own student, Ana).
 */
export async function reviewWorld(t: TestApp) {
  const c = await smallCompetition(t);
  const db = t.database.db;
  const person = async (seed: Parameters<TestApp['createUser']>[0]): Promise<Signed> => {
    const u = await t.createUser(seed);
    return { id: u.id, email: u.email, headers: await t.login(u.email, u.password) };
  };
  const teacher = () => person({ type: 'teacher' });
  const r1 = await teacher();
  const r2 = await teacher();
  const r3 = await teacher();
  const r4 = await teacher();
  const mediator = await teacher();
  const otherTeacher = await teacher();
  const secret = {
    school: 'Liceul-Secret-Blind-41',
    county: 'Judetul-Secret-Blind',
  };
  const student = async (name: string, teacherRef: string) => {
    const s = await person({
      type: 'student',
      grade: 5,
      teacherRef,
      givenName: `Elev${name}`,
      familyName: `Ascuns${name}`,
      school: secret.school,
      county: secret.county,
    });
    await makeEnrolment(db, {
      editionId: c.edition.id,
      studentId: s.id,
      grade: 5,
      phaseIds: [c.online.id, c.hybrid.id],
    });
    return s;
  };
  // The competition's own student is the coordinator's: named here for what markers must not see.
  const ana = c.student;
  const bogdan = await student('Bogdan', otherTeacher.id);
  const carmen = await student('Carmen', otherTeacher.id);

  const call = (method: string, url: string, headers: Record<string, string>, payload?: unknown) =>
    t.app.inject({
      method: method as 'GET',
      url: `/api/v1${url}`,
      headers,
      ...(payload === undefined ? {} : { payload: payload as object }),
    });

  const hybridUrl = `/upload-mgmt${c.phasePath(c.hybrid.id)}/tests/${c.hybridTest.id}`;
  const answerIds: Record<string, string> = {};
  for (const s of [ana, bogdan, carmen]) {
    const form = multipartForm([
      { name: 'item_0', filename: `lucrare-${s.id}.png`, type: 'image/png', value: onePixelPng() },
    ]);
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/v1${hybridUrl}/items/${c.hybridItemId}/answers`,
      headers: { ...s.headers, ...form.headers },
      payload: form.payload,
    });
    if (res.statusCode !== 200) throw new Error(`upload: ${res.body}`);
    answerIds[s.id] = (res.json() as { _id: string })._id;
  }

  const singleItemId = await onlineSingleItem();
  // Online: each finishes the online test with the wrong option (1 is the key) and some text.
  for (const [i, s] of [ana, bogdan, carmen].entries()) {
    const start = await call('POST', `/test-player/mytests/${c.onlineTest.id}`, s.headers, {
      termsAccepted: true,
    });
    if (start.statusCode >= 300) throw new Error(`start: ${start.body}`);
    await call('PUT', `/test-player/mytests/${c.onlineTest.id}`, s.headers, {
      itemId: c.openItemId,
      submittedAnswer: `raspuns deschis ${i}`,
      seq: 1,
    });
    await call('PUT', `/test-player/mytests/${c.onlineTest.id}`, s.headers, {
      itemId: singleItemId,
      submittedAnswer: [0],
      seq: 2,
    });
    const fin = await call('PUT', `/test-player/mytests/${c.onlineTest.id}/review`, s.headers, {});
    if (fin.statusCode >= 300) throw new Error(`finish: ${fin.body}`);
  }

  async function onlineSingleItem(): Promise<string> {
    const rows = await db
      .select({ id: testItems.questionId, position: testItems.position })
      .from(testItems)
      .where(eq(testItems.testId, c.onlineTest.id));
    return rows.find((r) => r.position === 1)?.id ?? '';
  }

  const setPhase = (phaseId: string, patch: Partial<typeof phases.$inferInsert>) =>
    db.update(phases).set(patch).where(eq(phases.id, phaseId));

  return {
    ...c,
    r1,
    r2,
    r3,
    r4,
    mediator,
    otherTeacher,
    ana,
    bogdan,
    carmen,
    secret,
    answerIds,
    hybridUrl,
    singleItemId,
    call,
    setPhase,
    reviewBase: (phaseId: string) => `/test-review${c.phasePath(phaseId)}`,
  };
}
