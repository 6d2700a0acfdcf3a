import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { editionStudents, users } from '../../db/schema.js';
import { buildTestApp, errorCode, type TestApp } from '../../test/app.js';
import { peopleFixtures } from './people.fixtures.js';

const API = '/api/v1/user-mgmt';
let t: TestApp;
let fx: ReturnType<typeof peopleFixtures>;
let admin: { authorization: string; userid: string };
let adminId: string;

beforeAll(async () => {
  t = await buildTestApp();
  fx = peopleFixtures(t.database.db);
  const a = await t.createUser({ type: 'admin' });
  adminId = a.id;
  admin = await t.login(a.email, a.password);
});
afterAll(async () => {
  await t.close();
});

type Headers = Record<string, string>;
const row = async (id: string) =>
  (await t.database.db.select().from(users).where(eq(users.id, id)))[0];
const putCode = (email: string, teacherCode: unknown, headers: Headers) =>
  t.app.inject({
    method: 'PUT',
    url: `${API}/users/${encodeURIComponent(email)}/teacher-codes`,
    payload: { teacherCode },
    headers,
  });
const patch = (email: string, payload: object, headers: Headers) =>
  t.app.inject({
    method: 'PATCH',
    url: `${API}/users/${encodeURIComponent(email)}`,
    payload,
    headers,
  });
const auditOf = (id: string) =>
  t.database.db.query.auditEvents.findMany({ where: (e, { eq }) => eq(e.entityId, id) });

async function teacherWithLogin(seed: Parameters<TestApp['createUser']>[0] = {}) {
  const u = await t.createUser({ type: 'teacher', ...seed });
  return { ...u, headers: await t.login(u.email, u.password) };
}

describe('PUT /users/{email}/teacher-codes', () => {
  it('changes the own code; students stay linked and new sign-ups use the new code', async () => {
    const teacher = await teacherWithLogin({ teacherCode: 'VECHI-1' });
    const student = await t.createUser({ teacherRef: teacher.id });
    const res = await putCode(teacher.email, 'nou-1', teacher.headers);
    expect(res.statusCode).toBe(200);
    expect(res.json().teacherCode).toBe('NOU-1');
    expect((await row(student.id))?.teacherRef).toBe(teacher.id);
    const audit = await auditOf(teacher.id);
    expect(audit.find((e) => e.action === 'user.teacher_code.change')).toMatchObject({
      before: { teacherCode: 'VECHI-1' },
      after: { teacherCode: 'NOU-1' },
    });
    // The old code is free; a student joining with the new one lands with this teacher.
    const s = await t.createUser();
    const hs = await t.login(s.email, s.password);
    expect((await patch(s.email, { teacherCode: 'NOU-1' }, hs)).json().teacherRef).toBe(teacher.id);
  });

  it('refuses a code that exists, also when two teachers race for it', async () => {
    const a = await teacherWithLogin({ teacherCode: 'ECHIPA-A' });
    const b = await teacherWithLogin({ teacherCode: 'ECHIPA-B' });
    const taken = await putCode(b.email, 'echipa-a', b.headers);
    expect(taken.statusCode).toBe(400);
    expect(taken.json().error).toMatchObject({
      code: 'CLIENT_ERROR',
      details: { teacherCode: ['code_exists'] },
    });
    const [ra, rb] = await Promise.all([
      putCode(a.email, 'CURSA-1', a.headers),
      putCode(b.email, 'CURSA-1', b.headers),
    ]);
    expect([ra.statusCode, rb.statusCode].sort()).toEqual([200, 400]);
    const loser = ra.statusCode === 400 ? ra : rb;
    expect(loser.json().error.details).toEqual({ teacherCode: ['code_exists'] });
    const codes = [(await row(a.id))?.teacherCode, (await row(b.id))?.teacherCode].sort();
    expect(codes).toContain('CURSA-1');
    expect(codes.filter((c) => c === 'CURSA-1')).toHaveLength(1);
  });

  it("keeps other people's codes to admins and refuses students and bad codes", async () => {
    const a = await teacherWithLogin({ teacherCode: 'PROPRIU-A' });
    const b = await t.createUser({ type: 'teacher', teacherCode: 'PROPRIU-B' });
    const other = await putCode(b.email, 'FURAT-1', a.headers);
    expect(other.statusCode).toBe(403);
    expect((await row(b.id))?.teacherCode).toBe('PROPRIU-B');
    expect((await putCode(b.email, 'ADMIN-1', admin)).json().teacherCode).toBe('ADMIN-1');
    const s = await t.createUser();
    const hs = await t.login(s.email, s.password);
    expect((await putCode(s.email, 'ELEV-1', hs)).json().error.details).toEqual({
      teacherCode: ['invalid'],
    });
    expect((await putCode(b.email, 'X', admin)).statusCode).toBe(400);
    expect(errorCode(await putCode(b.email, 'a b c', admin))).toBe('VALIDATION_FAILED');
    expect(errorCode(await putCode(b.email, 'A'.repeat(10_000), admin))).toBe('VALIDATION_FAILED');
    expect((await putCode('nobody@example.ro', 'NICI-1', admin)).statusCode).toBe(404);
  });
});

describe('PATCH /users/{email} with teacherCode', () => {
  it('re-links a student to the teacher with that code, or says the code is unknown', async () => {
    const first = await t.createUser({ type: 'teacher', teacherCode: 'PRIMUL' });
    const second = await t.createUser({ type: 'teacher', teacherCode: 'ALDOILEA' });
    const s = await t.createUser({ teacherRef: first.id });
    const hs = await t.login(s.email, s.password);
    const res = await patch(s.email, { teacherCode: 'aldoilea' }, hs);
    expect(res.statusCode).toBe(200);
    expect(res.json().teacherRef).toBe(second.id);
    const audit = await auditOf(s.id);
    expect(audit.find((e) => e.action === 'user.profile.update')).toMatchObject({
      before: { teacherRef: first.id },
      after: { teacherRef: second.id },
    });
    const unknown = await patch(s.email, { teacherCode: 'NIMENI', city: 'Arad' }, hs);
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error).toMatchObject({
      code: 'TEACHER_CODE_NOT_FOUND',
      details: { teacherCode: ['teacher_not_found'] },
    });
    expect(await row(s.id)).toMatchObject({ teacherRef: second.id, city: 'Cluj-Napoca' });
  });

  it("changes a teacher's own code through the profile too", async () => {
    const teacher = await teacherWithLogin({ teacherCode: 'PROFIL-1' });
    const res = await patch(
      teacher.email,
      { teacherCode: 'PROFIL-2', city: 'Sibiu' },
      teacher.headers,
    );
    expect(res.json()).toMatchObject({ teacherCode: 'PROFIL-2', city: 'Sibiu' });
  });
});

describe("a student's team code (SPEC.md §3: the coordinating teacher's code)", () => {
  it("is their teacher's code wherever the student is read, and follows the teacher's changes", async () => {
    const teacher = await teacherWithLogin({ teacherCode: 'ECHIPA-1' });
    const other = await t.createUser({ type: 'teacher', teacherCode: 'ECHIPA-2' });
    const s = await t.createUser({ teacherRef: teacher.id, familyName: 'Echipescu' });
    const hs = await t.login(s.email, s.password);
    const whoami = async () =>
      (await t.app.inject({ url: '/api/v1/auth-service/auth/whoami', headers: hs })).json()
        .teacherCode;
    const asTeacher = async () =>
      (await t.app.inject({ url: `${API}/users/${s.id}`, headers: teacher.headers })).json()
        .teacherCode;
    const inList = async () => {
      const filter = JSON.stringify({ where: { familyName: { like: 'Echipescu' } } });
      const res = await t.app.inject({
        url: `${API}/students?filter=${encodeURIComponent(filter)}`,
        headers: admin,
      });
      return res
        .json()
        .map((p: { _id: string; teacherCode: string | null }) => [p._id, p.teacherCode]);
    };

    expect(await whoami()).toBe('ECHIPA-1');
    expect(await asTeacher()).toBe('ECHIPA-1');
    expect(await inList()).toEqual([[s.id, 'ECHIPA-1']]);
    // The student's own row keeps no copy: the teacher's new code shows at once.
    expect((await row(s.id))?.teacherCode).toBeNull();
    expect((await putCode(teacher.email, 'ECHIPA-3', teacher.headers)).statusCode).toBe(200);
    expect(await whoami()).toBe('ECHIPA-3');
    expect(await inList()).toEqual([[s.id, 'ECHIPA-3']]);
    // Moving to another teacher answers with the new team's code.
    const moved = await patch(s.email, { teacherCode: 'echipa-2' }, hs);
    expect(moved.json()).toMatchObject({ teacherRef: other.id, teacherCode: 'ECHIPA-2' });
    expect(await whoami()).toBe('ECHIPA-2');
  });

  it('is null for a student whose teacher is gone, and a teacher keeps their own code', async () => {
    const teacher = await teacherWithLogin({ teacherCode: 'PLECAT-1' });
    const s = await t.createUser({ teacherRef: teacher.id });
    await t.database.db
      .update(users)
      .set({ deletedAt: new Date() })
      .where(eq(users.id, teacher.id));
    const get = (id: string) => t.app.inject({ url: `${API}/users/${id}`, headers: admin });
    expect((await get(s.id)).json().teacherCode).toBeNull();
    const kept = await t.createUser({ type: 'teacher', teacherCode: 'PROPRIU-9' });
    expect((await get(kept.id)).json().teacherCode).toBe('PROPRIU-9');
  });
});

describe('GET /users/{id} scope', () => {
  it('shows a teacher their students, the teachers, but not admins or deleted people', async () => {
    const teacher = await teacherWithLogin();
    const own = await t.createUser({ teacherRef: teacher.id });
    const colleague = await t.createUser({ type: 'teacher' });
    const gone = await t.createUser({ teacherRef: teacher.id, deletedAt: new Date() });
    const get = (id: string) =>
      t.app.inject({ url: `${API}/users/${id}`, headers: teacher.headers });
    expect((await get(own.id)).statusCode).toBe(200);
    expect((await get(colleague.id)).statusCode).toBe(200);
    expect((await get(adminId)).statusCode).toBe(404);
    expect((await get(gone.id)).statusCode).toBe(404);
    // Seeing a student is not editing them.
    const edit = await patch(own.email, { city: 'Arad' }, teacher.headers);
    expect(edit.statusCode).toBe(403);
  });
});

describe('POST /users/{id}/anonymise', () => {
  it('replaces personal data, ends sessions and keeps results', async () => {
    const exam = await fx.exam();
    const edition = await fx.edition(exam);
    const s = await t.createUser({ givenName: 'Ștefan', familyName: 'Ionescu', city: 'Iași' });
    await fx.enrol(edition, s.id);
    const hs = await t.login(s.email, s.password);
    const del = await t.app.inject({
      method: 'DELETE',
      url: `${API}/students/${s.id}`,
      headers: admin,
    });
    expect(errorCode(del)).toBe('USER_HAS_RESULTS');

    const res = await t.app.inject({
      method: 'POST',
      url: `${API}/users/${s.id}/anonymise`,
      headers: admin,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      _id: s.id,
      givenName: 'Anonim',
      familyName: 'Anonim',
      city: null,
      school: null,
      dateOfBirth: null,
      state: 'inactive',
    });
    expect(res.json().email).not.toBe(s.email);
    const saved = await row(s.id);
    expect(saved?.passwordHash).toBeNull();
    expect(saved?.deletedAt).toBeNull();
    const enrolments = await t.database.db
      .select()
      .from(editionStudents)
      .where(eq(editionStudents.studentId, s.id));
    expect(enrolments).toHaveLength(1);
    const whoami = await t.app.inject({ url: '/api/v1/auth-service/auth/whoami', headers: hs });
    expect(whoami.statusCode).toBe(401);
    const audit = await auditOf(s.id);
    const event = audit.find((e) => e.action === 'user.anonymise');
    expect(event).toBeDefined();
    expect(JSON.stringify(event)).not.toContain('Ionescu');
    // The address is free again.
    await t.createUser({ email: s.email });
  });

  it('is for admins only, and never of an admin', async () => {
    const teacher = await teacherWithLogin();
    const own = await t.createUser({ teacherRef: teacher.id });
    const byTeacher = await t.app.inject({
      method: 'POST',
      url: `${API}/users/${own.id}/anonymise`,
      headers: teacher.headers,
    });
    expect(byTeacher.statusCode).toBe(403);
    expect((await row(own.id))?.familyName).toBe(own.familyName);
    const otherAdmin = await t.createUser({ type: 'admin' });
    const res = await t.app.inject({
      method: 'POST',
      url: `${API}/users/${otherAdmin.id}/anonymise`,
      headers: admin,
    });
    expect(res.statusCode).toBe(403);
    const missing = await t.app.inject({
      method: 'POST',
      url: `${API}/users/0190a000-0000-7000-8000-0000000000ff/anonymise`,
      headers: admin,
    });
    expect(missing.statusCode).toBe(404);
  });
});
