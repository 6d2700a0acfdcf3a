import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, errorCode, type TestApp } from '../../test/app.js';
import { peopleFixtures } from './people.fixtures.js';

/**
 * user-mgmt has the scope of every other module: a coordinator of an edition reaches their own
 * students only — never the e-mail, birth date or school of another teacher's students
 * enrolled in the same edition — while the competition's staff see all of them. Out of scope
 * is "not found" (404); in scope but not allowed is 403.
 */

const API = '/api/v1/user-mgmt';
let t: TestApp;
let fx: ReturnType<typeof peopleFixtures>;

beforeAll(async () => {
  t = await buildTestApp();
  fx = peopleFixtures(t.database.db);
});
afterAll(() => t.close());

type Headers = Record<string, string>;
const get = (url: string, headers: Headers) => t.app.inject({ url: `${API}${url}`, headers });
const q = (v: unknown) => encodeURIComponent(JSON.stringify(v));
const ids = (res: { json(): unknown }) =>
  (res.json() as { _id: string }[]).map((u) => u._id).sort();

async function teacher() {
  const u = await t.createUser({ type: 'teacher' });
  return { id: u.id, headers: await t.login(u.email, u.password) };
}

/** The e-mail addresses in a students download. */
async function downloadedEmails(headers: Headers): Promise<string[]> {
  const res = await get(`/students/downloads?filter=${q({})}`, headers);
  expect(res.statusCode).toBe(200);
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
  const emails: string[] = [];
  workbook.worksheets[0]?.eachRow((row) => {
    row.eachCell((cell) => {
      const text = cell.text ?? '';
      if (/@example\.ro$/.test(text)) emails.push(text);
    });
  });
  return emails.sort();
}

describe('two coordinators of one edition', () => {
  it('each reaches only their own students: lists, counts, reads, downloads, changes', async () => {
    const [ana, bogdan, staff] = [await teacher(), await teacher(), await teacher()];
    const exam = await fx.exam('Olimpiada de Informatică');
    const edition = await fx.edition(exam);
    await fx.coordinator(edition, ana.id);
    await fx.coordinator(edition, bogdan.id);
    await fx.examRole(exam, staff.id, 'staff');
    const anasStudent = await t.createUser({ teacherRef: ana.id, school: 'Liceul A' });
    const bogdansStudent = await t.createUser({ teacherRef: bogdan.id, school: 'Liceul B' });
    for (const s of [anasStudent, bogdansStudent]) await fx.enrol(edition, s.id);

    expect(ids(await get('/students', ana.headers))).toEqual([anasStudent.id]);
    expect((await get('/students/count', ana.headers)).json()).toEqual({ count: 1 });
    expect(
      ids(await get(`/students?filter=${q({ where: { school: 'Liceul B' } })}`, ana.headers)),
    ).toEqual([]);
    const read = await get(`/users/${bogdansStudent.id}`, ana.headers);
    expect({ status: read.statusCode, code: errorCode(read) }).toEqual({
      status: 404,
      code: 'NOT_FOUND',
    });
    expect(read.body).not.toContain(bogdansStudent.email);
    expect(await downloadedEmails(ana.headers)).toEqual([anasStudent.email]);
    expect(ids(await get('/students', bogdan.headers))).toEqual([bogdansStudent.id]);

    // Changing another coordinator's student: not found, and nothing changes.
    const remove = await t.app.inject({
      method: 'DELETE',
      url: `${API}/students/${bogdansStudent.id}`,
      headers: ana.headers,
    });
    expect(remove.statusCode).toBe(404);
    const state = await t.app.inject({
      method: 'POST',
      url: `${API}/students/state`,
      headers: ana.headers,
      payload: { students: [{ email: bogdansStudent.email, state: 'inactive' }] },
    });
    expect(state.statusCode).toBe(200);
    expect(state.json()).toHaveLength(1);
    expect((await get(`/users/${bogdansStudent.id}`, bogdan.headers)).json()).toMatchObject({
      state: 'active',
    });

    // The competition's staff see both (in scope) but may not delete them (403).
    expect(ids(await get('/students', staff.headers))).toEqual(
      [anasStudent.id, bogdansStudent.id].sort(),
    );
    expect(await downloadedEmails(staff.headers)).toEqual(
      [anasStudent.email, bogdansStudent.email].sort(),
    );
    expect((await get(`/users/${bogdansStudent.id}`, staff.headers)).statusCode).toBe(200);
    const staffRemove = await t.app.inject({
      method: 'DELETE',
      url: `${API}/students/${bogdansStudent.id}`,
      headers: staff.headers,
    });
    expect({ status: staffRemove.statusCode, code: errorCode(staffRemove) }).toEqual({
      status: 403,
      code: 'OPERATION_NOT_PERMITTED',
    });
  });
});
