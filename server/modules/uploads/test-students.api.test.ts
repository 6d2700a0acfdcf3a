import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { StudentItems, TestStudent } from '../../../shared/schemas/uploads.js';
import { answers } from '../../db/schema.js';
import { uuidv7 } from '../../lib/ids.js';
import { buildTestApp, type TestApp } from '../../test/app.js';
import {
  codeOf,
  DURING,
  filesForm,
  movableClock,
  type Person,
  samplePng,
  uploadsKit,
} from './uploads.fixtures.js';

const clock = movableClock(DURING);
let t: TestApp;
let kit: ReturnType<typeof uploadsKit>;
let w: Awaited<ReturnType<ReturnType<typeof uploadsKit>['world']>>;

beforeAll(async () => {
  t = await buildTestApp({ clock });
  kit = uploadsKit(t);
  w = await kit.world();
  const { ana, bogdan } = w.students;
  const [q1, q2] = w.onlineTest.questionIds;
  if (!q1 || !q2) throw new Error('online items missing');
  // Ana finished the online test with her items in reverse order; Bogdan is still writing.
  await t.database.db.insert(answers).values([
    {
      id: uuidv7(),
      testId: w.onlineTest.test.id,
      studentId: ana.id,
      questionId: q1,
      submittedAnswer: [1],
      seq: 3,
    },
    {
      id: uuidv7(),
      testId: w.onlineTest.test.id,
      studentId: ana.id,
      questionId: q2,
      submittedAnswer: [0],
      seq: 4,
    },
  ]);
  await kit.makeAttempt(w.onlineTest.test.id, ana.id, 'finished', [q2, q1]);
  await kit.makeAttempt(w.onlineTest.test.id, bogdan.id, 'in_progress', [q1, q2]);
  // Ana uploaded one page of the hybrid test.
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/v1/upload-mgmt${w.hybridUrl}/items/${w.hybridTest.questionIds[0]}/answers`,
    headers: ana.headers,
    payload: filesForm([{ name: 'p.png', data: samplePng() }]),
  });
  if (res.statusCode !== 200) throw new Error(res.body);
});
afterAll(async () => {
  await t?.close();
});
beforeEach(() => clock.set(DURING));

const list = async (p: Person, url: string, filter?: object) => {
  const res = await kit.call(
    'GET',
    `${url}/students${filter ? `?filter=${kit.q(filter)}` : ''}`,
    p.headers,
  );
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as TestStudent[];
};
const count = async (p: Person, url: string, where?: object) => {
  const res = await kit.call(
    'GET',
    `${url}/students/count${where ? `?where=${kit.q(where)}` : ''}`,
    p.headers,
  );
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { count: number }).count;
};
const names = (rows: Partial<TestStudent>[]) => rows.map((r) => r.givenName);

describe('GET …/tests/{testId}/students', () => {
  it("lists the phase's students of the test's grades, by given name, with their status", async () => {
    const rows = await list(w.admin, w.hybridUrl);
    // Carmen (grade 5) is in the phase but not in the test's grades; Dan is not in the phase.
    expect(names(rows)).toEqual(['Ana', 'Bogdan', 'Elena']);
    expect(rows[0]).toEqual({
      studentId: w.students.ana.id,
      familyName: 'Țurcanu',
      givenName: 'Ana',
      studentCounty: 'Cluj',
      studentSector: null,
      studentGrade: 7,
      school: 'Colegiul Național „Emil Racoviță”',
      studentCentre: null,
      status: 'uploaded',
      score: null,
      awaitingItems: null,
      answeredItems: 1,
      fileCount: 1,
    });
    expect(rows.slice(1).map((r) => r.status)).toEqual(['not_started', 'not_started']);
    expect(await count(w.admin, w.hybridUrl)).toBe(3);

    const online = await list(w.staff, w.onlineUrl);
    expect(online.map((r) => [r.givenName, r.status, r.score])).toEqual([
      ['Ana', 'finished', 10],
      ['Bogdan', 'in_progress', null],
      ['Elena', 'not_started', null],
    ]);
  });

  it('searches names, filters by status, sorts, pages and projects', async () => {
    const search = {
      or: [
        { familyNameNormalized: { ilike: '%turc%' } },
        { givenNameNormalized: { ilike: '%turc%' } },
      ],
    };
    expect(names(await list(w.admin, w.hybridUrl, { where: search }))).toEqual(['Ana']);
    expect(await count(w.admin, w.hybridUrl, search)).toBe(1);
    expect(names(await list(w.admin, w.hybridUrl, { where: { status: 'not_started' } }))).toEqual([
      'Bogdan',
      'Elena',
    ]);
    expect(await count(w.admin, w.onlineUrl, { status: 'finished' })).toBe(1);
    expect(names(await list(w.admin, w.onlineUrl, { where: { score: { gte: 5 } } }))).toEqual([
      'Ana',
    ]);
    expect(names(await list(w.admin, w.hybridUrl, { order: 'givenName DESC' }))).toEqual([
      'Elena',
      'Bogdan',
      'Ana',
    ]);
    expect(
      names(await list(w.admin, w.hybridUrl, { order: 'givenName ASC', limit: 1, skip: 1 })),
    ).toEqual(['Bogdan']);
    expect(names(await list(w.admin, w.hybridUrl, { order: 'fileCount DESC', limit: 1 }))).toEqual([
      'Ana',
    ]);
    expect(await list(w.admin, w.hybridUrl, { fields: ['givenName'], limit: 1 })).toEqual([
      { studentId: w.students.ana.id, givenName: 'Ana' },
    ]);
  });

  it('refuses a bad filter with 400', async () => {
    for (const query of [
      `filter=${kit.q({ where: { passwordHash: 'x' } })}`,
      `filter=${kit.q({ order: 'email ASC' })}`,
      `filter=${kit.q({ where: { status: { gt: 1, nope: 2 } } })}`,
      `filter=${kit.q({ limit: -1 })}`,
      'filter=%7Bnot-json',
    ]) {
      const res = await kit.call('GET', `${w.hybridUrl}/students?${query}`, w.admin.headers);
      expect(res.statusCode, query).toBe(400);
      expect(codeOf(res)).toBe('VALIDATION_FAILED');
    }
    const badCount = await kit.call(
      'GET',
      `${w.hybridUrl}/students/count?where=${kit.q({ email: 'x' })}`,
      w.admin.headers,
    );
    expect(badCount.statusCode).toBe(400);
  });

  it('coordinators see only their students; others do not find the test', async () => {
    expect(names(await list(w.coordinator, w.hybridUrl))).toEqual(['Ana', 'Elena']);
    expect(await count(w.coordinator, w.hybridUrl)).toBe(2);
    expect(names(await list(w.examAdmin, w.hybridUrl))).toEqual(['Ana', 'Bogdan', 'Elena']);
    for (const p of [w.outsider, w.otherCoordinator]) {
      const res = await kit.call('GET', `${w.hybridUrl}/students`, p.headers);
      expect(res.statusCode).toBe(404);
      const c = await kit.call('GET', `${w.hybridUrl}/students/count`, p.headers);
      expect(c.statusCode).toBe(404);
    }
    const student = await kit.call('GET', `${w.hybridUrl}/students`, w.students.ana.headers);
    expect(student.statusCode).toBe(403);
    const missing = await kit.call(
      'GET',
      `${w.hybridUrl.replace(w.hybridTest.test.id, w.onlineTest.test.id)}/students`,
      w.admin.headers,
    );
    expect(missing.statusCode).toBe(404);
  });
});

describe('GET …/tests/{testId}', () => {
  it('tells teachers the test and whether they may enter paper answers now', async () => {
    const manager = await kit.call('GET', w.hybridUrl, w.examAdmin.headers);
    expect(manager.statusCode, manager.body).toBe(200);
    expect(manager.json()).toEqual({
      test: {
        _id: w.hybridTest.test.id,
        name: 'Subiect clasa 7, 8',
        subject: 'Matematică',
        grades: [7, 8],
        startDate: '2026-11-23T09:00:00.000Z',
        endDate: '2026-11-23T12:00:00.000Z',
        type: 'hybrid',
        published: true,
      },
      uploadState: 'open',
      canEnterAnswers: true,
    });
    const coordinator = await kit.call('GET', w.hybridUrl, w.coordinator.headers);
    expect(coordinator.json()).toMatchObject({ uploadState: 'view_only', canEnterAnswers: false });
    const online = await kit.call('GET', w.onlineUrl, w.staff.headers);
    expect(online.json()).toMatchObject({ uploadState: 'online', canEnterAnswers: false });
    expect((await kit.call('GET', w.hybridUrl, w.outsider.headers)).statusCode).toBe(404);
    expect((await kit.call('GET', w.hybridUrl, w.students.ana.headers)).statusCode).toBe(403);
  });
});

describe('GET …/students/{studentId}/items for teachers', () => {
  const itemsOf = (p: Person, url: string, studentId: string) =>
    kit.call('GET', `${url}/students/${studentId}/items`, p.headers);

  it("shows an online student's answers in their order, with the correct ones for staff", async () => {
    const res = await itemsOf(w.staff, w.onlineUrl, w.students.ana.id);
    expect(res.statusCode, res.body).toBe(200);
    const view = res.json() as StudentItems;
    expect(view.status).toBe('finished');
    expect(view.score).toBe(10);
    expect(view.uploadState).toBe('online');
    expect(
      view.items.map((i) => [i.index, i.itemQ, i.answer?.submittedAnswer, i.itemCorrectAnswers]),
    ).toEqual([
      [1, 'Cât face 2 + 2?', [0], [2]],
      [2, 'Cât face 1 + 2?', [1], [1]],
    ]);
  });

  it('coordinators see correct answers only after the end, and only their students', async () => {
    const during = (
      await itemsOf(w.coordinator, w.onlineUrl, w.students.ana.id)
    ).json() as StudentItems;
    expect(during.items.every((i) => i.itemCorrectAnswers === undefined)).toBe(true);
    expect(during.uploadState).toBe('online');
    clock.set('2026-11-23T12:30:00.000Z');
    const after = (
      await itemsOf(w.coordinator, w.onlineUrl, w.students.ana.id)
    ).json() as StudentItems;
    expect(after.items.map((i) => i.itemCorrectAnswers)).toEqual([[2], [1]]);

    const hybrid = (
      await itemsOf(w.coordinator, w.hybridUrl, w.students.ana.id)
    ).json() as StudentItems;
    expect(hybrid.uploadState).toBe('view_only');
    expect(hybrid.items[0]?.answer?.answerFiles).toHaveLength(1);
    expect((await itemsOf(w.coordinator, w.hybridUrl, w.students.bogdan.id)).statusCode).toBe(404);
    expect((await itemsOf(w.outsider, w.hybridUrl, w.students.ana.id)).statusCode).toBe(404);
    // Not one of the test's students.
    expect((await itemsOf(w.admin, w.hybridUrl, w.students.carmen.id)).statusCode).toBe(404);
    expect((await itemsOf(w.admin, w.hybridUrl, w.students.dan.id)).statusCode).toBe(404);
    // The exam's admins may enter answers: the screen offers the form.
    const manager = (
      await itemsOf(w.examAdmin, w.hybridUrl, w.students.bogdan.id)
    ).json() as StudentItems;
    expect(manager.uploadState).toBe('open');
  });

  it("lets a coordinator download their student's files, not others'", async () => {
    const view = (await itemsOf(w.admin, w.hybridUrl, w.students.ana.id)).json() as StudentItems;
    const answerId = view.items[0]?.answer?._id;
    const fileId = view.items[0]?.answer?.answerFiles[0]?._id;
    const mine = await kit.call(
      'GET',
      `${w.hybridUrl}/answers/${answerId}/files?fileId=${fileId}`,
      w.coordinator.headers,
    );
    expect(mine.statusCode).toBe(200);
    expect(mine.headers['content-type']).toBe('image/png');
    for (const p of [w.outsider, w.otherCoordinator, w.students.bogdan]) {
      const res = await kit.call('GET', `${w.hybridUrl}/answers/${answerId}/files`, p.headers);
      expect(res.statusCode).toBe(404);
    }
  });
});
