import { eq } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../db/schema.js';
import { buildTestApp, errorCode, type TestApp } from '../../test/app.js';
import { peopleFixtures } from './people.fixtures.js';

const API = '/api/v1/user-mgmt';
let t: TestApp;
let fx: ReturnType<typeof peopleFixtures>;
let admin: { authorization: string; userid: string };

beforeAll(async () => {
  t = await buildTestApp();
  fx = peopleFixtures(t.database.db);
  const a = await t.createUser({ type: 'admin' });
  admin = await t.login(a.email, a.password);
});
afterAll(async () => {
  await t.close();
});

type Headers = Record<string, string>;
const json = (v: unknown) => encodeURIComponent(JSON.stringify(v));
const list = (filter: unknown, headers: Headers, extra = '') =>
  t.app.inject({ url: `${API}/students?filter=${json(filter)}${extra}`, headers });
const setState = (students: unknown, headers: Headers) =>
  t.app.inject({ method: 'POST', url: `${API}/students/state`, payload: { students }, headers });
const ids = (res: { json(): unknown }) => (res.json() as { _id: string }[]).map((u) => u._id);
const stateOf = async (id: string) =>
  (await t.database.db.select().from(users).where(eq(users.id, id)))[0]?.state;

async function teacherWithLogin(seed: Parameters<TestApp['createUser']>[0] = {}) {
  const u = await t.createUser({ type: 'teacher', ...seed });
  return { ...u, headers: await t.login(u.email, u.password) };
}

let schoolSeq = 0;
/** A school name no other test uses, so admin lists can be narrowed to one test's people. */
const freshSchool = () => `Școala Test ${++schoolSeq} ${Date.now()}`;

describe('POST /students/state', () => {
  it('lets an admin change states, mails each changed student and audits', async () => {
    const a = await t.createUser({ state: 'inactive' });
    const b = await t.createUser({ state: 'active', uiLocale: 'en' });
    const same = await t.createUser({ state: 'active' });
    const res = await setState(
      [
        { email: a.email.toUpperCase(), state: 'active' },
        { email: b.email, state: 'inactive' },
        { email: same.email, state: 'active' },
      ],
      admin,
    );
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([]);
    expect(await stateOf(a.id)).toBe('active');
    expect(await stateOf(b.id)).toBe('inactive');
    const mailA = await t.lastMail(a.email);
    expect(mailA?.subject).toBe('Contul dumneavoastră Podium a fost activat');
    expect(mailA?.link).toBe('http://podium.test/');
    expect((await t.lastMail(b.email))?.subject).toBe('Your Podium account has been deactivated');
    // Already in that state: no failure, no mail.
    expect(await t.lastMail(same.email)).toBeUndefined();
    const audit = await t.database.db.query.auditEvents.findMany({
      where: (e, { eq }) => eq(e.entityId, a.id),
    });
    expect(audit.find((e) => e.action === 'user.state.change')).toMatchObject({
      before: { state: 'inactive' },
      after: { state: 'active' },
    });
  });

  it('reports what a teacher may not change and changes none of it', async () => {
    const mine = await teacherWithLogin();
    const other = await teacherWithLogin();
    const own = await t.createUser({ teacherRef: mine.id, state: 'inactive' });
    const foreign = await t.createUser({ teacherRef: other.id, state: 'inactive' });
    const exam = await fx.exam();
    const edition = await fx.edition(exam);
    await fx.examRole(exam, mine.id, 'staff');
    const seenOnly = await t.createUser({ teacherRef: other.id, state: 'inactive' });
    await fx.enrol(edition, seenOnly.id);
    const res = await setState(
      [
        { email: foreign.email, state: 'active' },
        { email: own.email, state: 'active' },
        { email: seenOnly.email, state: 'active' },
        { email: 'nobody@example.ro', state: 'active' },
        { email: other.email, state: 'inactive' },
      ],
      mine.headers,
    );
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([
      { email: foreign.email, code: 'NOT_FOUND' },
      { email: seenOnly.email, code: 'OPERATION_NOT_PERMITTED' },
      { email: 'nobody@example.ro', code: 'NOT_FOUND' },
      { email: other.email, code: 'CLIENT_ERROR' },
    ]);
    expect(await stateOf(own.id)).toBe('active');
    expect(await stateOf(foreign.id)).toBe('inactive');
    expect(await stateOf(seenOnly.id)).toBe('inactive');
    expect(await stateOf(other.id)).toBe('active');
    expect(await t.lastMail(foreign.email)).toBeUndefined();
  });

  it('refuses bad bodies and students, changing nothing', async () => {
    const s = await t.createUser({ state: 'inactive' });
    const hs = await t.login(s.email, s.password);
    const forbidden = await setState([{ email: s.email, state: 'active' }], hs);
    expect(forbidden.statusCode).toBe(403);
    for (const body of [
      [],
      [{ email: s.email, state: 'deleted' }],
      [{ email: s.email }],
      [{ email: 'x'.repeat(10_000), state: 'active' }],
      Array.from({ length: 501 }, () => ({ email: s.email, state: 'active' })),
    ]) {
      const res = await setState(body, admin);
      expect(res.statusCode).toBe(400);
      expect(errorCode(res)).toBe('VALIDATION_FAILED');
    }
    const malformed = await t.app.inject({
      method: 'POST',
      url: `${API}/students/state`,
      payload: '{"students": [',
      headers: { ...admin, 'content-type': 'application/json' },
    });
    expect(malformed.statusCode).toBe(400);
    const twice = await setState(
      [
        { email: s.email, state: 'active' },
        { email: s.email, state: 'inactive' },
      ],
      admin,
    );
    expect(twice.json()).toEqual([{ email: s.email, code: 'CLIENT_ERROR' }]);
    expect(await stateOf(s.id)).toBe('inactive');
  });
});

describe('DELETE /students/{id}', () => {
  it("deletes the teacher's own student: gone from lists, sessions ended, e-mail free again", async () => {
    const mine = await teacherWithLogin();
    const s = await t.createUser({ teacherRef: mine.id });
    const hs = await t.login(s.email, s.password);
    const res = await t.app.inject({
      method: 'DELETE',
      url: `${API}/students/${s.id}`,
      headers: mine.headers,
    });
    expect(res.statusCode).toBe(204);
    expect(ids(await list({}, mine.headers))).toEqual([]);
    expect(ids(await list({ where: { _id: s.id } }, admin))).toEqual([]);
    const whoami = await t.app.inject({ url: '/api/v1/auth-service/auth/whoami', headers: hs });
    expect(whoami.statusCode).toBe(401);
    const again = await t.createUser({ email: s.email });
    expect(again.id).not.toBe(s.id);
    const audit = await t.database.db.query.auditEvents.findMany({
      where: (e, { eq }) => eq(e.entityId, s.id),
    });
    expect(audit.map((e) => e.action)).toContain('user.delete');
    const twice = await t.app.inject({
      method: 'DELETE',
      url: `${API}/students/${s.id}`,
      headers: admin,
    });
    expect(twice.statusCode).toBe(404);
  });

  it('refuses students with results, out-of-scope and not-owned students', async () => {
    const mine = await teacherWithLogin();
    const other = await teacherWithLogin();
    const exam = await fx.exam();
    const edition = await fx.edition(exam);
    const enrolled = await t.createUser({ teacherRef: mine.id });
    await fx.enrol(edition, enrolled.id);
    const withPhase = await t.createUser();
    await fx.phaseResult(edition, withPhase.id);
    const foreign = await t.createUser({ teacherRef: other.id });
    await fx.examRole(exam, mine.id, 'staff');
    const seenOnly = await t.createUser({ teacherRef: other.id });
    await fx.enrol(edition, seenOnly.id);
    const del = (id: string, headers: Headers) =>
      t.app.inject({ method: 'DELETE', url: `${API}/students/${id}`, headers });

    const hasResults = await del(enrolled.id, mine.headers);
    expect(hasResults.statusCode).toBe(409);
    expect(errorCode(hasResults)).toBe('USER_HAS_RESULTS');
    expect(errorCode(await del(withPhase.id, admin))).toBe('USER_HAS_RESULTS');
    expect((await del(foreign.id, mine.headers)).statusCode).toBe(404);
    expect((await del(seenOnly.id, mine.headers)).statusCode).toBe(403);
    expect((await del(mine.id, admin)).statusCode).toBe(404);
    expect(errorCode(await del('not-a-uuid', admin))).toBe('VALIDATION_FAILED');
    const still = await t.database.db.select().from(users).where(eq(users.id, enrolled.id));
    expect(still[0]?.deletedAt).toBeNull();
    expect(still[0]?.email).toBe(enrolled.email);
  });
});

describe('GET /students/downloads', () => {
  async function readSheet(body: Buffer) {
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(body as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0];
    const rows: (string | number | null)[][] = [];
    sheet?.eachRow((row) => {
      rows.push((row.values as (string | number | null)[]).slice(1));
    });
    return rows;
  }

  it('sends the active students of the scope as xlsx, ordered by county', async () => {
    const mine = await teacherWithLogin({ teacherCode: 'PROF-DL1', familyName: 'Dascălu' });
    const school = freshSchool();
    await t.createUser({ teacherRef: mine.id, school, county: 'Vaslui', familyName: 'Ursu' });
    await t.createUser({
      teacherRef: mine.id,
      school,
      county: 'Argeș',
      familyName: 'Știrbu',
      grade: 99,
    });
    await t.createUser({ teacherRef: mine.id, school, county: 'Argeș', familyName: 'Ene' });
    await t.createUser({ teacherRef: mine.id, school, county: 'Alba', state: 'inactive' });
    await t.createUser({ school, county: 'Alba' });
    const res = await t.app.inject({
      url: `${API}/students/downloads?filter=${json({ where: { school } })}`,
      headers: mine.headers,
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe(
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    );
    expect(res.headers['content-disposition']).toBe('attachment; filename="elevi.xlsx"');
    const rows = await readSheet(res.rawPayload);
    expect(rows[0]?.slice(0, 8)).toEqual([
      'Nume',
      'Prenume',
      'E-mail',
      'Țara',
      'Județ',
      'Localitate',
      'Școala',
      'Clasa',
    ]);
    expect(rows[0]).toContain('Cod profesor');
    expect(rows[0]).toContain('Stare');
    const body = rows.slice(1);
    expect(body.map((r) => [r[0], r[4]])).toEqual([
      ['Ene', 'Argeș'],
      ['Știrbu', 'Argeș'],
      ['Ursu', 'Vaslui'],
    ]);
    expect(body[1]?.[7]).toBe('Absolvent');
    expect(body[0]).toContain('PROF-DL1');
    expect(body.every((r) => r.includes('Activ'))).toBe(true);

    const bad = await t.app.inject({
      url: `${API}/students/downloads?filter=${json({ where: { nope: 1 } })}`,
      headers: mine.headers,
    });
    expect(errorCode(bad)).toBe('VALIDATION_FAILED');
    const s = await t.createUser();
    const hs = await t.login(s.email, s.password);
    expect((await t.app.inject({ url: `${API}/students/downloads`, headers: hs })).statusCode).toBe(
      403,
    );
  });
});

describe('a student seen alone', () => {
  it('carries the editions they are enrolled in, in whoami and GET /users/{id} (SPEC.md §3)', async () => {
    const student = await t.createUser({});
    const own = await t.login(student.email, student.password);
    const exam = await fx.exam();
    const first = await fx.edition(exam, '2025');
    const second = await fx.edition(exam, '2026');
    await fx.enrol(first, student.id);
    await fx.enrol(second, student.id);
    const expected = [{ editionId: first }, { editionId: second }];

    const whoami = await t.app.inject({ url: '/api/v1/auth-service/auth/whoami', headers: own });
    expect(whoami.statusCode).toBe(200);
    expect(whoami.json().studentEditions).toEqual(expected);
    const byAdmin = await t.app.inject({ url: `${API}/users/${student.id}`, headers: admin });
    expect(byAdmin.statusCode).toBe(200);
    expect(byAdmin.json().studentEditions).toEqual(expected);

    const teacher = await t.createUser({ type: 'teacher' });
    const seen = await t.app.inject({ url: `${API}/users/${teacher.id}`, headers: admin });
    expect(seen.json().studentEditions).toEqual([]);
  });
});
