import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
const count = (where: unknown, headers: Headers, extra = '') =>
  t.app.inject({ url: `${API}/students/count?where=${json(where)}${extra}`, headers });
const ids = (res: { json(): unknown }) => (res.json() as { _id: string }[]).map((u) => u._id);

async function teacherWithLogin(seed: Parameters<TestApp['createUser']>[0] = {}) {
  const u = await t.createUser({ type: 'teacher', ...seed });
  return { ...u, headers: await t.login(u.email, u.password) };
}

let schoolSeq = 0;
/** A school name no other test uses, so admin lists can be narrowed to one test's people. */
const freshSchool = () => `Școala Test ${++schoolSeq} ${Date.now()}`;

describe('GET /students and /students/count', () => {
  it('pages students in family-name order, without teachers, admins or deleted people', async () => {
    const school = freshSchool();
    const names = ['Zamfir', 'Ăsandei', 'Bălan', 'Albu', 'Ionescu', 'Țepeș'];
    for (const familyName of names) await t.createUser({ familyName, school });
    await t.createUser({ type: 'teacher', school });
    await t.createUser({ familyName: 'Aaron', school, deletedAt: new Date() });
    const page0 = await list({ where: { school }, limit: 4, skip: 0 }, admin);
    expect(page0.statusCode).toBe(200);
    // Ordered by the normalized family name: "Ăsandei" sorts as "asandei", after "Albu".
    expect(page0.json().map((u: { familyName: string }) => u.familyName)).toEqual([
      'Albu',
      'Ăsandei',
      'Bălan',
      'Ionescu',
    ]);
    const page1 = await list({ where: { school }, limit: 4, skip: 4 }, admin);
    expect(page1.json().map((u: { familyName: string }) => u.familyName)).toEqual([
      'Țepeș',
      'Zamfir',
    ]);
    const desc = await list({ where: { school }, order: 'familyName DESC', limit: 1 }, admin);
    expect(desc.json()[0].familyName).toBe('Zamfir');
    expect((await count({ school }, admin)).json()).toEqual({ count: 6 });
  });

  it('finds names regardless of case and diacritics, on family or given name', async () => {
    const school = freshSchool();
    const stefan = await t.createUser({ givenName: 'Ștefan', familyName: 'Mureșan', school });
    const ioana = await t.createUser({ givenName: 'Ioana', familyName: 'Ștefănescu', school });
    await t.createUser({ givenName: 'Maria', familyName: 'Pop', school });
    for (const text of ['ștefan', 'STEFAN', 'stefan', 'ȘTEF']) {
      const search = {
        or: [{ familyName: { ilike: `%${text}%` } }, { givenName: { ilike: `%${text}%` } }],
      };
      const res = await list({ where: { and: [{ school }, search] } }, admin);
      expect(res.statusCode).toBe(200);
      expect(ids(res).sort()).toEqual([stefan.id, ioana.id].sort());
      expect((await count({ and: [{ school }, search] }, admin)).json().count).toBe(2);
    }
    const exact = await list({ where: { school, familyName: 'MURESAN' } }, admin);
    expect(ids(exact)).toEqual([stefan.id]);
    const regexp = await list({ where: { school, givenName: { regexp: '^Ște' } } }, admin);
    expect(ids(regexp)).toEqual([stefan.id]);
  });

  it('filters on county, grade, teacherRef and enrolment, projects fields and includes enrolments', async () => {
    const school = freshSchool();
    const teacher = await t.createUser({ type: 'teacher' });
    const a = await t.createUser({ school, county: 'Iași', grade: 9, teacherRef: teacher.id });
    const b = await t.createUser({ school, county: 'Iași', grade: 10 });
    const c = await t.createUser({ school, county: 'Timiș', grade: 9 });
    const exam = await fx.exam();
    const e1 = await fx.edition(exam, '2024');
    const e2 = await fx.edition(exam, '2025');
    await fx.enrol(e1, a.id);
    await fx.enrol(e2, a.id);
    await fx.enrol(e2, c.id);
    expect(ids(await list({ where: { school, county: 'Iași' } }, admin)).sort()).toEqual(
      [a.id, b.id].sort(),
    );
    expect(ids(await list({ where: { school, grade: { gte: 10 } } }, admin))).toEqual([b.id]);
    expect(ids(await list({ where: { school, teacherRef: teacher.id } }, admin))).toEqual([a.id]);
    expect(ids(await list({ where: { school, editionId: e2 } }, admin)).sort()).toEqual(
      [a.id, c.id].sort(),
    );
    expect(ids(await list({ where: { school, editionId: { neq: e2 } } }, admin))).toEqual([b.id]);
    expect((await count({ school, editionId: { inq: [e1, e2] } }, admin)).json().count).toBe(2);

    const projected = await list({ where: { _id: a.id }, fields: ['_id', 'familyName'] }, admin);
    expect(projected.json()).toEqual([{ _id: a.id, familyName: a.familyName }]);
    const withEditions = await list(
      { where: { school }, include: 'studentEditions', order: 'county ASC, grade DESC' },
      admin,
    );
    const byId = new Map(
      (withEditions.json() as { _id: string; studentEditions: unknown }[]).map((u) => [
        u._id,
        u.studentEditions,
      ]),
    );
    expect(byId.get(a.id)).toEqual([{ editionId: e1 }, { editionId: e2 }]);
    expect(byId.get(b.id)).toEqual([]);
    const asList = await list(
      { where: { _id: c.id }, include: [{ relation: 'studentEditions' }] },
      admin,
    );
    expect(asList.json()[0].studentEditions).toEqual([{ editionId: e2 }]);
    // Without `include` the relation is not loaded.
    expect((await list({ where: { _id: a.id } }, admin)).json()[0].studentEditions).toEqual([]);
  });

  it('refuses bad filters with VALIDATION_FAILED', async () => {
    const bad = [
      { where: { password_hash: 'x' } },
      { where: { passwordHash: 'x' } },
      { skip: -10 },
      { limit: 'ten' },
      { where: { familyName: { ilike: `%${'a'.repeat(10_000)}%` } } },
      { order: 'email; drop table users' },
      { include: 'passwordHash' },
      { where: { or: { familyName: 'a' } } },
      { where: { grade: { gt: 'nine' } } },
    ];
    for (const filter of bad) {
      const res = await list(filter, admin);
      expect(res.statusCode, JSON.stringify(filter).slice(0, 80)).toBe(400);
      expect(errorCode(res)).toBe('VALIDATION_FAILED');
    }
    const malformed = await t.app.inject({
      url: `${API}/students?filter={"where":`,
      headers: admin,
    });
    expect(malformed.statusCode).toBe(400);
    expect(errorCode(malformed)).toBe('VALIDATION_FAILED');
    const badCount = await t.app.inject({
      url: `${API}/students/count?where=not-json`,
      headers: admin,
    });
    expect(errorCode(badCount)).toBe('VALIDATION_FAILED');
    const unknownParam = await t.app.inject({ url: `${API}/students?sort=name`, headers: admin });
    expect(errorCode(unknownParam)).toBe('VALIDATION_FAILED');
    const badExam = await list({}, admin, '&examAdmin=not-a-uuid');
    expect(errorCode(badExam)).toBe('VALIDATION_FAILED');
    expect((await t.app.inject({ url: `${API}/students` })).statusCode).toBe(401);
  });
});

describe('student scope', () => {
  it('shows a teacher their own students and the students of competitions they work on', async () => {
    const mine = await teacherWithLogin();
    const other = await teacherWithLogin();
    const own = await t.createUser({ teacherRef: mine.id });
    const foreign = await t.createUser({ teacherRef: other.id });
    const exam = await fx.exam();
    const edition = await fx.edition(exam);
    const enrolled = await t.createUser({ teacherRef: other.id });
    await fx.enrol(edition, enrolled.id);

    expect(ids(await list({}, mine.headers))).toEqual([own.id]);
    expect((await count({}, mine.headers)).json()).toEqual({ count: 1 });
    await fx.examRole(exam, mine.id, 'staff');
    expect(ids(await list({}, mine.headers)).sort()).toEqual([own.id, enrolled.id].sort());
    expect((await count({}, mine.headers)).json()).toEqual({ count: 2 });
    // Another teacher's student, by id and by filter: not there.
    const byId = await t.app.inject({ url: `${API}/users/${foreign.id}`, headers: mine.headers });
    expect(byId.statusCode).toBe(404);
    expect(errorCode(byId)).toBe('NOT_FOUND');
    expect(ids(await list({ where: { _id: foreign.id } }, mine.headers))).toEqual([]);
    expect(ids(await list({ where: { teacherRef: other.id } }, mine.headers))).toEqual([
      enrolled.id,
    ]);
    const seen = await t.app.inject({ url: `${API}/users/${enrolled.id}`, headers: mine.headers });
    expect(seen.statusCode).toBe(200);
  });

  it('refuses students and unfinished teachers', async () => {
    const s = await t.createUser();
    const hs = await t.login(s.email, s.password);
    for (const res of [await list({}, hs), await count({}, hs)]) {
      expect(res.statusCode).toBe(403);
      expect(errorCode(res)).toBe('OPERATION_NOT_PERMITTED');
    }
    const inactive = await t.createUser({ type: 'teacher', state: 'inactive' });
    const hi = await t.login(inactive.email, inactive.password);
    expect((await list({}, hi)).statusCode).toBe(403);
  });

  it('limits ?examAdmin= to that competition, for people with a role on it', async () => {
    const examAdmin = await teacherWithLogin();
    const stranger = await teacherWithLogin();
    const exam = await fx.exam('Olimpiada de Informatică');
    const otherExam = await fx.exam('Concursul Euclid');
    const edition = await fx.edition(exam);
    const otherEdition = await fx.edition(otherExam);
    await fx.examRole(exam, examAdmin.id, 'admin');
    await fx.examRole(otherExam, examAdmin.id, 'staff');
    const inExam = await t.createUser();
    const inOther = await t.createUser();
    await fx.enrol(edition, inExam.id);
    await fx.enrol(otherEdition, inOther.id);

    const scoped = await list({}, examAdmin.headers, `&examAdmin=${exam}`);
    expect(ids(scoped)).toEqual([inExam.id]);
    expect((await count({}, examAdmin.headers, `&examAdmin=${exam}`)).json()).toEqual({ count: 1 });
    expect(ids(await list({}, admin, `&examAdmin=${exam}`))).toEqual([inExam.id]);
    for (const res of [
      await list({}, stranger.headers, `&examAdmin=${exam}`),
      await count({}, stranger.headers, `&examAdmin=${exam}`),
      await list({}, admin, '&examAdmin=0190a000-0000-7000-8000-0000000000ff'),
    ]) {
      expect(res.statusCode).toBe(404);
      expect(errorCode(res)).toBe('NOT_FOUND');
    }
  });
});
