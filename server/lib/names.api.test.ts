import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { files, questions, users } from '../db/schema.js';
import { buildTestApp, type TestApp } from '../test/app.js';
import { fixedClock, smallCompetition } from '../test/competition.js';
import { type FormPart, multipartForm, onePixelPng } from '../test/forms.js';
import { uuidv7 } from './ids.js';

/**
 * Names and other single-line fields refuse control and bidirectional characters (400
 * `invalid_characters` naming the field), so a name shows as it was typed; uploaded file names
 * keep them nowhere — `invoice\u202Efdp.exe` would read "invoiceexe.pdf" — neither where a name
 * is stored nor where one is written back (the API, downloads, zip entries, imported questions),
 * also for names stored before the rule.
 */

const RLO = '\u202E';

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
const upload = (url: string, headers: Headers, parts: FormPart[]) => {
  const form = multipartForm(parts);
  return inject('POST', url, { ...headers, ...form.headers }, form.payload);
};
const refusedAt = (res: Awaited<ReturnType<typeof inject>>) => {
  const body = res.json() as {
    error?: { code?: string; details?: { code: string; path: unknown[] }[] };
  };
  return { status: res.statusCode, code: body.error?.code, details: body.error?.details };
};
const refusal = (path: (string | number)[]) => ({
  status: 400,
  code: 'VALIDATION_FAILED',
  details: [{ code: 'invalid_characters', path }],
});

describe('names and single-line fields', () => {
  it('refuse control and direction characters, naming the field, and change nothing', async () => {
    const { student, admin, examAdmin, exam } = w;
    const profile = `/api/v1/user-mgmt/users/${encodeURIComponent(student.email)}`;
    const cases: [string, Awaited<ReturnType<typeof inject>>, (string | number)[]][] = [
      [
        'school',
        await inject('PATCH', profile, student.headers, { school: `Liceul ${RLO}X` }),
        ['school'],
      ],
      ['city', await inject('PATCH', profile, student.headers, { city: 'Iași\nCluj' }), ['city']],
      [
        'familyName',
        await inject('PATCH', profile, student.headers, { familyName: 'Pop\u0007' }),
        ['familyName'],
      ],
      [
        'givenName',
        await inject('PATCH', profile, student.headers, { givenName: `Ana\u2066x` }),
        ['givenName'],
      ],
      [
        'exam name',
        await inject('POST', '/api/v1/exam-mgmt/exams/', admin.headers, {
          name: `Olimpiada ${RLO}`,
          subject: 'Matematică',
          grades: [5],
        }),
        ['name'],
      ],
      [
        'edition name',
        await inject('POST', `/api/v1/exam-mgmt/exams/${exam.id}/editions`, examAdmin.headers, {
          name: 'Ediția\u200F 2027',
        }),
        ['name'],
      ],
      [
        'sign-up e-mail',
        await inject(
          'POST',
          '/api/v1/auth-service/auth/signup',
          {},
          {
            email: `elev${RLO}@example.ro`,
            password: 'parola-buna-123',
            type: 'student',
          },
        ),
        ['email'],
      ],
    ];
    expect(cases.map(([name, res]) => [name, refusedAt(res)])).toEqual(
      cases.map(([name, , path]) => [name, refusal(path)]),
    );
    const [row] = await t.database.db.select().from(users).where(eq(users.id, student.id));
    expect(row?.school).not.toContain(RLO);

    const u = await t.createUser({ type: 'student', registered: false, state: 'inactive' });
    const register = await inject(
      'POST',
      '/api/v1/auth-service/auth/register',
      await t.login(u.email, u.password),
      {
        givenName: `Ana${RLO}`,
        familyName: 'Pop',
        dateOfBirth: '2013-05-04',
        county: 'Cluj',
        city: 'Cluj-Napoca',
        school: 'Școala 1',
        grade: 7,
        locale: 'ro',
        teacherCode: '',
      },
    );
    expect(refusedAt(register).details).toContainEqual({
      code: 'invalid_characters',
      path: ['givenName'],
    });
  });

  it('keep line breaks where a text may run over lines, and Romanian letters everywhere', async () => {
    const { student, examAdmin, exam } = w;
    const profile = `/api/v1/user-mgmt/users/${encodeURIComponent(student.email)}`;
    const ok = await inject('PATCH', profile, student.headers, {
      school: 'Școala „Ștefan cel Mare” Țăndărei',
    });
    expect(ok.statusCode).toBe(200);
    const described = await inject(
      'PATCH',
      `/api/v1/exam-mgmt/exams/${exam.id}`,
      examAdmin.headers,
      {
        description: 'Prima linie\nA doua linie\tcu tab',
      },
    );
    expect(described.statusCode).toBe(200);
  });
});

describe('uploaded file names', () => {
  const pagesUrl = () => `/api/v1/upload-mgmt${w.phasePath(w.hybrid.id)}/tests/${w.hybridTest.id}`;

  it('are stored and shown without control or direction characters, in the API, downloads and zips', async () => {
    const { student } = w;
    const res = await upload(`${pagesUrl()}/items/${w.hybridItemId}/answers`, student.headers, [
      {
        name: 'item_0',
        value: onePixelPng(),
        filename: `invoice${RLO}gnp.exe`,
        type: 'image/png',
      },
      { name: 'item_1', value: onePixelPng(), filename: 'pagina\u0007 2.png', type: 'image/png' },
    ]);
    expect(res.statusCode).toBe(200);
    const answer = res.json() as { _id: string; answerFiles: { _id: string; name: string }[] };
    expect(answer.answerFiles.map((f) => f.name)).toEqual(['invoicegnp.exe', 'pagina 2.png']);
    const stored = await t.database.db.select().from(files);
    expect(stored.map((f) => f.originalName).sort()).toEqual(['invoicegnp.exe', 'pagina 2.png']);

    // A name stored before the rule is cleaned where it is written back.
    const [first] = answer.answerFiles;
    await t.database.db
      .update(files)
      .set({ originalName: `old${RLO}fdp.exe` })
      .where(eq(files.id, first?._id ?? ''));
    const filesUrl = `${pagesUrl()}/answers/${answer._id}/files`;
    const one = await inject('GET', `${filesUrl}?fileId=${first?._id}`, student.headers);
    expect(one.statusCode).toBe(200);
    const disposition = String(one.headers['content-disposition']);
    expect(disposition).not.toContain('%E2%80%AE');
    expect(disposition).toContain(`filename*=UTF-8''oldfdp.exe`);
    const zip = await inject('GET', filesUrl, student.headers);
    expect(zip.statusCode).toBe(200);
    expect(zipNames(zip.rawPayload)).toEqual(['01-oldfdp.exe', '02-pagina 2.png']);
    const items = await inject(
      'GET',
      `${pagesUrl()}/students/${student.id}/items`,
      student.headers,
    );
    expect(items.body).not.toContain('\\u202e');
    expect(items.body).toContain('oldfdp.exe');
  });

  it('of imported question images are cleaned in the statement and in the report', async () => {
    const { examAdmin, online } = w;
    const items = `/api/v1/resource-mgmt${w.phasePath(online.id)}/items`;
    const res = await upload(`${items}/files`, examAdmin.headers, [
      { name: 'Discipline', value: 'Matematică' },
      { name: 'Grade', value: '5' },
      { name: 'image', value: onePixelPng(), filename: `problema${RLO}gnp.png`, type: 'image/png' },
      {
        name: 'image',
        value: Buffer.from('GIF89a\x01\x00', 'latin1'),
        filename: `poza\u202Bx.gif`,
      },
    ]);
    expect(res.statusCode).toBe(200);
    const report = res.json() as {
      created: { file: string; _id: string }[];
      refused: { file: string; code: string }[];
    };
    expect(report.created.map((c) => c.file)).toEqual(['problemagnp.png']);
    expect(report.refused).toEqual([{ file: 'pozax.gif', code: 'FILE_TYPE_NOT_ALLOWED' }]);
    const [question] = await t.database.db
      .select()
      .from(questions)
      .where(eq(questions.id, report.created[0]?._id ?? uuidv7()));
    expect(question?.itemQ).toMatch(/^!\[problemagnp\]\(/);
  });
});

/** The entry names of a zip, from its central directory. */
function zipNames(zip: Buffer): string[] {
  const end = zip.length - 22;
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  const names: string[] = [];
  for (let i = 0; i < count; i++) {
    const length = zip.readUInt16LE(at + 28);
    const extra = zip.readUInt16LE(at + 30);
    const comment = zip.readUInt16LE(at + 32);
    names.push(zip.subarray(at + 46, at + 46 + length).toString('utf8'));
    at += 46 + length + extra + comment;
  }
  return names;
}
