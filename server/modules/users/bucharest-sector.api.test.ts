import { eq } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUCHAREST } from '../../../shared/constants.js';
import { makeEnrolment } from '../../db/factories.js';
import { users } from '../../db/schema.js';
import { buildTestApp, errorCode, type TestApp } from '../../test/app.js';
import { smallCompetition } from '../../test/competition.js';

// A Bucharest student's sector: asked at sign-up, kept on the profile, shown, filtered and
// exported to their teachers and admins, "not set" for the students from before.

const API = '/api/v1';
let t: TestApp;

beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t.close();
});

const call = (method: 'GET' | 'POST' | 'PATCH', url: string, headers: object, payload?: object) =>
  t.app.inject({
    method,
    url: `${API}${url}`,
    headers: headers as Record<string, string>,
    payload,
  });
const json = (v: unknown) => encodeURIComponent(JSON.stringify(v));

const student = {
  givenName: 'Ioana',
  familyName: 'Mureșan',
  dateOfBirth: '2012-03-14',
  county: 'București',
  city: 'București',
  school: 'Colegiul Național Sfântul Sava',
  grade: 8,
  locale: 'ro',
};

describe("a Bucharest student's sector", () => {
  it('is asked at sign-up in București, and dropped for another county', async () => {
    await t.createUser({ type: 'teacher', teacherCode: 'B-SECT1' });
    const u = await t.createUser({ type: 'student', registered: false, state: 'inactive' });
    const h = await t.login(u.email, u.password);
    const body = { ...student, teacherCode: 'B-SECT1' };
    const missing = await call('POST', '/auth-service/auth/register', h, body);
    expect(missing.statusCode).toBe(400);
    expect(errorCode(missing)).toBe('VALIDATION_FAILED');
    expect(JSON.stringify(missing.json())).toContain('bucharestSector');
    const bad = await call('POST', '/auth-service/auth/register', h, {
      ...body,
      bucharestSector: 7,
    });
    expect(bad.statusCode).toBe(400);
    const ok = await call('POST', '/auth-service/auth/register', h, {
      ...body,
      bucharestSector: 3,
    });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toMatchObject({ county: 'București', bucharestSector: 3 });

    const other = await t.createUser({ type: 'student', registered: false, state: 'inactive' });
    const ho = await t.login(other.email, other.password);
    const cluj = await call('POST', '/auth-service/auth/register', ho, {
      ...body,
      county: 'Cluj',
      bucharestSector: 2,
    });
    expect(cluj.statusCode, cluj.body).toBe(200);
    expect(cluj.json()).toMatchObject({ county: 'Cluj', bucharestSector: null });
  });

  it('is set on the profile (by the student or an admin) and cleared by another county', async () => {
    const u = await t.createUser({ county: 'București' });
    const h = await t.login(u.email, u.password);
    const admin = await t.createUser({ type: 'admin' });
    const ha = await t.login(admin.email, admin.password);
    const url = `/user-mgmt/users/${u.id}`;
    expect((await call('GET', url, h)).json().bucharestSector).toBeNull();
    const set = await call('PATCH', url, h, { bucharestSector: 4 });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json().bucharestSector).toBe(4);
    const byAdmin = await call('PATCH', url, ha, { bucharestSector: 6 });
    expect(byAdmin.json().bucharestSector).toBe(6);
    expect((await call('PATCH', url, h, { bucharestSector: 0 })).statusCode).toBe(400);
    const moved = await call('PATCH', url, h, { county: 'Ilfov' });
    expect(moved.json()).toMatchObject({ county: 'Ilfov', bucharestSector: null });
    // A sector with another county is not kept.
    const stray = await call('PATCH', url, h, { bucharestSector: 2 });
    expect(stray.json().bucharestSector).toBeNull();
    // A teacher has no sector.
    const teacher = await t.createUser({ type: 'teacher', county: 'București' });
    const ht = await t.login(teacher.email, teacher.password);
    const refused = await call('PATCH', `/user-mgmt/users/${teacher.id}`, ht, {
      bucharestSector: 1,
    });
    expect(refused.statusCode).toBe(400);
  });

  it('lets teachers find the students whose sector is not set, and exports it', async () => {
    const coach = await t.createUser({ type: 'teacher', teacherCode: 'B-SECT2' });
    const hc = await t.login(coach.email, coach.password);
    const school = `Liceul Sectoarelor ${Date.now()}`;
    const set = await t.createUser({ teacherRef: coach.id, school, county: 'București' });
    await t.database.db.update(users).set({ bucharestSector: 2 }).where(eq(users.id, set.id));
    const unset = await t.createUser({ teacherRef: coach.id, school, county: 'București' });
    await t.createUser({ teacherRef: coach.id, school, county: 'Cluj' });
    const where = { school, county: 'București', bucharestSector: null };
    const list = await call('GET', `/user-mgmt/students?filter=${json({ where })}`, hc);
    expect(list.statusCode, list.body).toBe(200);
    expect((list.json() as { _id: string }[]).map((s) => s._id)).toEqual([unset.id]);
    const two = { school, bucharestSector: 2 };
    const sector = await call('GET', `/user-mgmt/students?filter=${json({ where: two })}`, hc);
    expect((sector.json() as { _id: string }[]).map((s) => s._id)).toEqual([set.id]);

    const sheet = await call(
      'GET',
      `/user-mgmt/students/downloads?filter=${json({ where: { school } })}`,
      hc,
    );
    expect(sheet.statusCode).toBe(200);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(sheet.rawPayload as unknown as ArrayBuffer);
    const rows: unknown[][] = [];
    workbook.worksheets[0]?.eachRow((row) => {
      rows.push((row.values as unknown[]).slice(1));
    });
    const column = rows[0]?.indexOf('Sector') ?? -1;
    expect(column).toBeGreaterThan(0);
    expect(rows.slice(1).map((r) => [r[4], r[column] ?? null])).toEqual([
      ['București', 2],
      ['București', 'necompletat'],
      ['Cluj', null],
    ]);
  });
});

describe("a Bucharest student's sector in a competition's lists", () => {
  it('shows and filters in the edition, phase and test lists, and goes in the CMS file', async () => {
    const c = await smallCompetition(t);
    const db = t.database.db;
    const enrol = async (givenName: string, county: string, sector: number | null) => {
      const u = await t.createUser({ givenName, county, grade: 5 });
      await db.update(users).set({ bucharestSector: sector }).where(eq(users.id, u.id));
      await makeEnrolment(db, {
        editionId: c.edition.id,
        studentId: u.id,
        grade: 5,
        phaseIds: [c.online.id, c.hybrid.id],
      });
      return u.id;
    };
    const three = await enrol('Sectorul3', 'București', 3);
    const unset = await enrol('Farasector', 'București', null);
    const headers = c.admin.headers;
    const edition = `/exam-mgmt/exams/${c.exam.id}/editions/${c.edition.id}`;
    const lists = [
      `${edition}/students`,
      `/exam-mgmt${c.phasePath(c.hybrid.id)}/students`,
      `/upload-mgmt${c.phasePath(c.hybrid.id)}/tests/${c.hybridTest.id}/students`,
    ];
    for (const url of lists) {
      const rows = async (where: object) => {
        const res = await call('GET', `${url}?filter=${json({ where })}`, headers);
        expect(res.statusCode, `${url} ${res.body}`).toBe(200);
        return (res.json() as { studentId: string; studentSector: number | null }[])
          .map((r) => [r.studentId, r.studentSector])
          .sort();
      };
      expect(await rows({ studentSector: 3 }), url).toEqual([[three, 3]]);
      expect(await rows({ studentCounty: 'București', studentSector: null }), url).toEqual([
        [unset, null],
      ]);
      expect(await rows({ studentCounty: BUCHAREST }), url).toHaveLength(2);
      const bad = await call(
        'GET',
        `${url}?filter=${json({ where: { studentSector: 'x' } })}`,
        headers,
      );
      expect(bad.statusCode, url).toBe(400);
    }

    const sheet = await call('GET', `${edition}/students/credentials`, headers);
    expect(sheet.statusCode).toBe(200);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(sheet.rawPayload as unknown as ArrayBuffer);
    const rows: unknown[][] = [];
    workbook.worksheets[0]?.eachRow((row) => {
      rows.push((row.values as unknown[]).slice(1));
    });
    // A column added at the end: the judge's columns before it keep their places.
    expect(rows[0]).toEqual([
      'Nume',
      'Prenume',
      'E-mail',
      'Județ',
      'Școala',
      'Clasa',
      'Centru de examen',
      'Utilizator',
      'Parolă',
      'Sector',
    ]);
    const byName = new Map(rows.slice(1).map((r) => [r[1], r[9] ?? null]));
    expect(byName.get('Sectorul3')).toBe(3);
    expect(byName.get('Farasector')).toBe('necompletat');
  });
});
