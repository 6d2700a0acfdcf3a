import { Writable } from 'node:stream';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeUser } from '../db/factories.js';
import { answers, users } from '../db/schema.js';
import { buildTestApp, type TestApp } from '../test/app.js';
import { fixedClock, smallCompetition } from '../test/competition.js';
import { type FormPart, multipartForm, onePixelPng } from '../test/forms.js';

/**
 * Every text input is checked once, at the edge: NUL and unpaired surrogates, which PostgreSQL
 * cannot store, are a 400 VALIDATION_FAILED `invalid_characters` naming the field on every
 * route (JSON bodies, query strings and the JSON inside them, path parameters, multipart text
 * fields and file names) — never a 500, and nothing is changed.
 */

const NUL = 'a\u0000b';
const HIGH = 'x\uD800';
const LOW = '\uDC00y';

let t: TestApp;
let w: Awaited<ReturnType<typeof smallCompetition>>;

beforeAll(async () => {
  t = await buildTestApp({ clock: fixedClock() });
  w = await smallCompetition(t);
});
afterAll(() => t.close());

type Headers = Record<string, string>;
const inject = (method: string, url: string, headers: Headers = {}, payload?: unknown) =>
  t.app.inject({
    method: method as 'GET',
    url,
    headers,
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
const q = (value: unknown) => encodeURIComponent(JSON.stringify(value));
const PLAYER = '/api/v1/test-player';
const AUTH = '/api/v1/auth-service/auth';

function expectRefused(res: Awaited<ReturnType<typeof inject>>, path: (string | number)[]) {
  expect({ status: res.statusCode, body: res.json() }).toMatchObject({
    status: 400,
    body: { error: { code: 'VALIDATION_FAILED', details: [{ code: 'invalid_characters', path }] } },
  });
}

describe('the exam-day answer write', () => {
  it('refuses an answer with NUL or a broken surrogate on the field, stores nothing, and takes the next one', async () => {
    const { student, onlineTest, openItemId } = w;
    const mytest = `${PLAYER}/mytests/${onlineTest.id}`;
    expect(
      (await inject('POST', mytest, student.headers, { termsAccepted: true })).statusCode,
    ).toBe(200);
    for (const [i, text] of [NUL, HIGH, LOW, `${'ok'.repeat(10)}\u0000`].entries()) {
      const res = await inject('PUT', mytest, student.headers, {
        itemId: openItemId,
        submittedAnswer: text,
        seq: i + 1,
      });
      expectRefused(res, ['submittedAnswer']);
    }
    const stored = await t.database.db
      .select()
      .from(answers)
      .where(eq(answers.questionId, openItemId));
    expect(stored).toEqual([]);
    // A valid answer after the refusals is saved: the refused ones did not use up anything.
    const ok = await inject('PUT', mytest, student.headers, {
      itemId: openItemId,
      submittedAnswer: 'Răspuns cu diacritice ș ț și emoji 😀',
      seq: 5,
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ itemId: openItemId, seq: 5 });
  });
});

describe('sign-in, sign-up and password links', () => {
  it('names the field on every one of them', async () => {
    const email = (local: string) => `${local}@example.ro`;
    expectRefused(await inject('POST', `${AUTH}/login`, {}, { email: email(NUL), password: 'p' }), [
      'email',
    ]);
    expectRefused(
      await inject('POST', `${AUTH}/login`, {}, { email: w.student.email, password: HIGH }),
      ['password'],
    );
    expectRefused(
      await inject(
        'POST',
        `${AUTH}/signup`,
        {},
        { email: email(LOW), password: 'parola-buna-123', type: 'student' },
      ),
      ['email'],
    );
    expectRefused(await inject('POST', `${AUTH}/password/forgot`, {}, { email: email(NUL) }), [
      'email',
    ]);
    expectRefused(
      await inject(
        'POST',
        `${AUTH}/password/reset`,
        {},
        { uid: w.student.id, code: NUL, password: 'parola-buna-123' },
      ),
      ['code'],
    );
    // A path parameter: the one-time link.
    expectRefused(await inject('GET', `${AUTH}/token/${w.student.id}/a%00b`), ['code']);
  });

  it('names the field of the registration form', async () => {
    const u = await t.createUser({ type: 'student', registered: false, state: 'inactive' });
    const headers = await t.login(u.email, u.password);
    const res = await inject('POST', `${AUTH}/register`, headers, {
      givenName: HIGH,
      familyName: 'Pop',
    });
    expectRefused(res, ['givenName']);
  });
});

describe('people', () => {
  const PEOPLE = '/api/v1/user-mgmt';
  it('names the field of a profile, a path parameter and the JSON of a filter', async () => {
    const { student, admin } = w;
    const url = `${PEOPLE}/users/${encodeURIComponent(student.email)}`;
    expectRefused(await inject('PATCH', url, student.headers, { school: NUL }), ['school']);
    expectRefused(await inject('PATCH', url, student.headers, { data: { shortcuts: [LOW] } }), [
      'data',
      'shortcuts',
      0,
    ]);
    expectRefused(await inject('PATCH', `${PEOPLE}/users/a%00b`, admin.headers, { city: 'Iași' }), [
      'user',
    ]);
    expectRefused(
      await inject('PUT', `${url}/teacher-codes`, student.headers, { teacherCode: NUL }),
      ['teacherCode'],
    );
    const filter = q({ where: { familyName: { ilike: `%${NUL}%` } } });
    expectRefused(await inject('GET', `${PEOPLE}/students?filter=${filter}`, admin.headers), [
      'where',
      'familyName',
      'ilike',
    ]);
    expectRefused(await inject('GET', `${PEOPLE}/teachers?filter=%00`, admin.headers), ['filter']);
    const where = q({ or: [{ givenName: HIGH }] });
    expectRefused(await inject('GET', `${PEOPLE}/students/count?where=${where}`, admin.headers), [
      'where',
      'or',
      0,
      'givenName',
    ]);
    const [row] = await t.database.db.select().from(users).where(eq(users.id, student.id));
    expect(row?.school).not.toContain('\u0000');
  });
});

describe('competitions, questions, tests and incidents', () => {
  it('names the field of names, descriptions, statements, answers and reasons', async () => {
    const { admin, examAdmin, staff, student, exam, online } = w;
    const EXAMS = '/api/v1/exam-mgmt/exams';
    expectRefused(
      await inject('POST', `${EXAMS}/`, admin.headers, {
        name: NUL,
        subject: 'Matematică',
        grades: [5],
      }),
      ['name'],
    );
    expectRefused(
      await inject('PATCH', `${EXAMS}/${exam.id}`, examAdmin.headers, { description: LOW }),
      ['description'],
    );
    expectRefused(
      await inject('POST', `${EXAMS}/${exam.id}/editions`, examAdmin.headers, { name: HIGH }),
      ['name'],
    );
    expectRefused(
      await inject('PATCH', `/api/v1/exam-mgmt${w.phasePath(online.id)}`, examAdmin.headers, {
        name: NUL,
      }),
      ['name'],
    );
    const items = `/api/v1/resource-mgmt${w.phasePath(online.id)}/items`;
    const question = {
      itemQ: 'Cât face $1+1$?',
      itemDiscipline: 'Matematică',
      itemGrade: 5,
      difficulty: 'low',
      itemType: 'single',
      itemAnswers: ['1', '2'],
      itemCorrectAnswers: [1],
    };
    expectRefused(await inject('POST', items, examAdmin.headers, { ...question, itemQ: NUL }), [
      'itemQ',
    ]);
    expectRefused(
      await inject('POST', items, examAdmin.headers, { ...question, itemAnswers: ['1', LOW] }),
      ['itemAnswers', 1],
    );
    expectRefused(
      await inject('POST', `/api/v1/test-mgmt${w.phasePath(online.id)}/tests`, examAdmin.headers, {
        name: HIGH,
      }),
      ['name'],
    );
    const incident = `${PLAYER}/tests/${w.onlineTest.id}/students/${student.id}`;
    expectRefused(
      await inject('POST', `${incident}/extra-time`, staff.headers, { minutes: 5, reason: NUL }),
      ['reason'],
    );
    expectRefused(
      await inject('POST', `${incident}/reopen`, staff.headers, {
        remainingSeconds: 60,
        reason: LOW,
      }),
      ['reason'],
    );
  });

  it('names the multipart text field or the file whose name cannot be stored', async () => {
    const { examAdmin, online } = w;
    const upload = (url: string, parts: FormPart[]) => {
      const form = multipartForm(parts);
      return inject('POST', url, { ...examAdmin.headers, ...form.headers }, form.payload);
    };
    const items = `/api/v1/resource-mgmt${w.phasePath(online.id)}/items`;
    const image = { name: 'image', value: onePixelPng(), filename: 'p.png', type: 'image/png' };
    expectRefused(
      await upload(`${items}/files`, [
        { name: 'Discipline', value: `Mate${NUL}` },
        { name: 'Grade', value: '5' },
        image,
      ]),
      ['Discipline'],
    );
    expectRefused(
      await upload('/api/v1/resource-mgmt/files', [
        { ...image, name: 'file', filename: 'a\u0000.png' },
      ]),
      ['file'],
    );
  });
});

describe('the error log', () => {
  it('keeps no SQL parameter, e-mail or search of a failed request, and no personal path or query at info', async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const secretEmail = 'ana.secreta@example.ro';
    const logged = await buildTestApp({
      logger: { level: 'info', stream },
      prepare(app, database) {
        // A query that fails in PostgreSQL with a personal value among its parameters.
        app.get('/test-only/failing-query', async () => {
          await database.db.execute(sql`select ${secretEmail}::uuid`);
          return {};
        });
      },
    });
    try {
      const res = await logged.app.inject({ url: '/test-only/failing-query' });
      expect(res.statusCode).toBe(500);
      const u = await makeUser(logged.database.db, {
        email: secretEmail,
        familyName: 'Secretescu',
        password: 'parola-buna-123',
        type: 'admin',
      });
      const headers = await logged.login(u.email, 'parola-buna-123');
      const patched = await logged.app.inject({
        method: 'PATCH',
        url: `/api/v1/user-mgmt/users/${encodeURIComponent(secretEmail)}`,
        headers,
        payload: { city: 'Iași' },
      });
      expect(patched.statusCode).toBe(200);
      const search = q({ where: { familyName: { ilike: '%Secretescu%' } } });
      const found = await logged.app.inject({
        url: `/api/v1/user-mgmt/students?filter=${search}`,
        headers,
      });
      expect(found.statusCode).toBe(200);
    } finally {
      await logged.close();
    }
    const text = lines.join('');
    expect(text).not.toContain('ana.secreta');
    expect(text).not.toContain('Secretescu');
    expect(text).not.toContain('$argon2');
    const errors = lines.map((l) => JSON.parse(l)).filter((l) => l.level >= 50);
    expect(errors.length).toBeGreaterThan(0);
    // What is left still tells what failed: the SQL without its values and PostgreSQL's code.
    expect(errors[0].err).toMatchObject({ type: 'DatabaseError', code: '22P02' });
    const info = lines.map((l) => JSON.parse(l)).filter((l) => l.level === 30 && l.url);
    expect(info.map((l) => l.url)).toContain('/api/v1/user-mgmt/users/:user');
  });
});
