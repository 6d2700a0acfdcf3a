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
const list = (filter: unknown, headers: Headers) =>
  t.app.inject({ url: `${API}/teachers?filter=${json(filter)}`, headers });
const count = (where: unknown, headers: Headers) =>
  t.app.inject({ url: `${API}/teachers/count?where=${json(where)}`, headers });
const ids = (res: { json(): unknown }) => (res.json() as { _id: string }[]).map((u) => u._id);
const row = async (id: string) =>
  (await t.database.db.select().from(users).where(eq(users.id, id)))[0];

async function teacherWithLogin(seed: Parameters<TestApp['createUser']>[0] = {}) {
  const u = await t.createUser({ type: 'teacher', ...seed });
  return { ...u, headers: await t.login(u.email, u.password) };
}

let seq = 0;
const freshSchool = () => `Liceul Test ${++seq} ${Date.now()}`;

describe('GET /teachers and /teachers/count', () => {
  it('lists teachers to teachers and admins, with search, filters, ids and projection', async () => {
    const school = freshSchool();
    const viewer = await teacherWithLogin();
    const a = await t.createUser({ type: 'teacher', school, familyName: 'Țîrlea', county: 'Olt' });
    const b = await t.createUser({
      type: 'teacher',
      school,
      givenName: 'Ștefania',
      discipline: 'Informatică',
      state: 'inactive',
    });
    await t.createUser({ school });
    await t.createUser({ type: 'teacher', school, deletedAt: new Date() });
    for (const headers of [viewer.headers, admin]) {
      // "Popescu…" before "Țîrlea" (sorted as "tirlea").
      expect(ids(await list({ where: { school } }, headers))).toEqual([b.id, a.id]);
    }
    const search = (text: string) => ({
      and: [
        { school },
        { or: [{ familyName: { ilike: `%${text}%` } }, { givenName: { ilike: `%${text}%` } }] },
      ],
    });
    expect(ids(await list({ where: search('TIRL') }, viewer.headers))).toEqual([a.id]);
    expect(ids(await list({ where: search('ștef') }, viewer.headers))).toEqual([b.id]);
    expect(ids(await list({ where: { school, state: 'inactive' } }, admin))).toEqual([b.id]);
    expect(ids(await list({ where: { school, discipline: 'Informatică' } }, admin))).toEqual([
      b.id,
    ]);
    expect(
      ids(await list({ where: { school, county: 'Olt', country: 'România' } }, admin)),
    ).toEqual([a.id]);
    expect(ids(await list({ where: { _id: { inq: [a.id, b.id] } } }, admin)).sort()).toEqual(
      [a.id, b.id].sort(),
    );
    const projected = await list(
      { where: { _id: a.id }, fields: { _id: true, email: true } },
      admin,
    );
    expect(projected.json()).toEqual([{ _id: a.id, email: a.email }]);
    expect((await count({ school }, viewer.headers)).json()).toEqual({ count: 2 });
    expect((await count({ school, state: 'active' }, admin)).json()).toEqual({ count: 1 });
  });

  it('computes the staff-only and admin-only views from competition roles', async () => {
    const school = freshSchool();
    const staff = await t.createUser({ type: 'teacher', school });
    const examAdmin = await t.createUser({ type: 'teacher', school });
    const plain = await t.createUser({ type: 'teacher', school });
    const exam = await fx.exam();
    await fx.examRole(exam, staff.id, 'staff');
    await fx.examRole(exam, examAdmin.id, 'admin');
    expect(ids(await list({ where: { school, isStaff: true } }, admin))).toEqual([staff.id]);
    expect(ids(await list({ where: { school, isExamAdmin: true } }, admin))).toEqual([
      examAdmin.id,
    ]);
    expect((await count({ school, isStaff: false, isExamAdmin: false }, admin)).json().count).toBe(
      1,
    );
    const flags = await list({ where: { _id: { inq: [staff.id, plain.id] } } }, admin);
    const byId = new Map(
      (flags.json() as { _id: string; isStaff: boolean }[]).map((u) => [u._id, u]),
    );
    expect(byId.get(staff.id)).toMatchObject({ isStaff: true, isExamAdmin: false });
    expect(byId.get(plain.id)).toMatchObject({ isStaff: false, isExamAdmin: false });
  });

  it('refuses students and bad filters', async () => {
    const s = await t.createUser();
    const hs = await t.login(s.email, s.password);
    expect((await list({}, hs)).statusCode).toBe(403);
    expect((await count({}, hs)).statusCode).toBe(403);
    for (const filter of [
      { where: { passwordHash: 'x' } },
      { where: { grade: 5 } },
      { skip: -1 },
      { where: { familyName: { like: 'a'.repeat(10_000) } } },
      { where: { isStaff: 'maybe' } },
      { include: 'studentEditions' },
    ]) {
      const res = await list(filter, admin);
      expect(res.statusCode, JSON.stringify(filter).slice(0, 60)).toBe(400);
      expect(errorCode(res)).toBe('VALIDATION_FAILED');
    }
    const malformed = await t.app.inject({ url: `${API}/teachers?filter=%7B%7B`, headers: admin });
    expect(errorCode(malformed)).toBe('VALIDATION_FAILED');
  });
});

describe('POST /teachers/state', () => {
  it('lets admins change teachers and mails them; reports students and unknown e-mails', async () => {
    const a = await t.createUser({ type: 'teacher', state: 'inactive' });
    const student = await t.createUser({ state: 'inactive' });
    const res = await t.app.inject({
      method: 'POST',
      url: `${API}/teachers/state`,
      payload: {
        teachers: [
          { email: a.email, state: 'active' },
          { email: student.email, state: 'active' },
          { email: 'nobody@example.ro', state: 'inactive' },
        ],
      },
      headers: admin,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([
      { email: student.email, code: 'CLIENT_ERROR' },
      { email: 'nobody@example.ro', code: 'NOT_FOUND' },
    ]);
    expect((await row(a.id))?.state).toBe('active');
    expect((await row(student.id))?.state).toBe('inactive');
    expect((await t.lastMail(a.email))?.subject).toBe('Contul dumneavoastră Podium a fost activat');
  });

  it('does not let a teacher change any teacher', async () => {
    const viewer = await teacherWithLogin();
    const other = await t.createUser({ type: 'teacher' });
    const res = await t.app.inject({
      method: 'POST',
      url: `${API}/teachers/state`,
      payload: { teachers: [{ email: other.email, state: 'inactive' }] },
      headers: viewer.headers,
    });
    expect(res.json()).toEqual([{ email: other.email, code: 'OPERATION_NOT_PERMITTED' }]);
    expect((await row(other.id))?.state).toBe('active');
    expect(await t.lastMail(other.email)).toBeUndefined();
  });
});

describe('DELETE /teachers/{id}', () => {
  const del = (id: string, headers: Headers) =>
    t.app.inject({ method: 'DELETE', url: `${API}/teachers/${id}`, headers });

  it('deletes a teacher with no students or roles, and frees the team code', async () => {
    const lone = await t.createUser({ type: 'teacher', teacherCode: 'SINGUR-1' });
    expect((await del(lone.id, admin)).statusCode).toBe(204);
    expect(ids(await list({ where: { _id: lone.id } }, admin))).toEqual([]);
    expect((await row(lone.id))?.teacherCode).toBeNull();
    await t.createUser({ type: 'teacher', teacherCode: 'SINGUR-1' });
  });

  it('refuses teachers with students, competition roles or coordinated editions', async () => {
    const withStudent = await t.createUser({ type: 'teacher' });
    await t.createUser({ teacherRef: withStudent.id });
    const withRole = await t.createUser({ type: 'teacher' });
    const coordinator = await t.createUser({ type: 'teacher' });
    const exam = await fx.exam();
    await fx.examRole(exam, withRole.id, 'staff');
    await fx.coordinator(await fx.edition(exam), coordinator.id);
    for (const id of [withStudent.id, withRole.id, coordinator.id]) {
      const res = await del(id, admin);
      expect(res.statusCode).toBe(409);
      expect(errorCode(res)).toBe('USER_HAS_RESULTS');
      expect((await row(id))?.deletedAt).toBeNull();
    }
  });

  it('is for admins only, and only for teachers', async () => {
    const viewer = await teacherWithLogin();
    const other = await t.createUser({ type: 'teacher' });
    const res = await del(other.id, viewer.headers);
    expect(res.statusCode).toBe(403);
    expect(errorCode(res)).toBe('OPERATION_NOT_PERMITTED');
    const student = await t.createUser();
    expect((await del(student.id, admin)).statusCode).toBe(404);
    expect((await row(other.id))?.deletedAt).toBeNull();
    expect((await row(student.id))?.deletedAt).toBeNull();
  });
});

describe('GET /teachers/downloads', () => {
  it('sends the filtered teachers as xlsx, by county', async () => {
    const school = freshSchool();
    await t.createUser({ type: 'teacher', school, county: 'Suceava', familyName: 'Bucur' });
    await t.createUser({
      type: 'teacher',
      school,
      county: 'Brăila',
      familyName: 'Șerban',
      teacherCode: 'SERB-1',
    });
    const res = await t.app.inject({
      url: `${API}/teachers/downloads?filter=${json({ where: { school } })}`,
      headers: admin,
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toBe('attachment; filename="profesori.xlsx"');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const rows: unknown[][] = [];
    workbook.worksheets[0]?.eachRow((r) => {
      rows.push((r.values as unknown[]).slice(1));
    });
    expect(rows[0]).toEqual(
      expect.arrayContaining(['Nume', 'Prenume', 'Județ', 'Cod profesor', 'Stare']),
    );
    expect(rows.slice(1).map((r) => [r[0], r[4]])).toEqual([
      ['Șerban', 'Brăila'],
      ['Bucur', 'Suceava'],
    ]);
    expect(rows[1]).toContain('SERB-1');
  });
});
