import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Test, TestDetails, TestPaper, TestPreview } from '../../../shared/schemas/tests.js';
import { makeEdition, makeExam, makePhase } from '../../db/factories.js';
import { answers, attempts, auditEvents, phases, testGrades, tests } from '../../db/schema.js';
import { uuidv7 } from '../../lib/ids.js';
import { buildTestApp, type TestApp } from '../../test/app.js';
import { codeOf, type Person, testBody, testsKit } from './tests.fixtures.js';

let t: TestApp;
let kit: ReturnType<typeof testsKit>;
let admin: Person;
let student: Person;

beforeAll(async () => {
  t = await buildTestApp();
  kit = testsKit(t);
  [admin, student] = await Promise.all([
    kit.person({ type: 'admin' }),
    kit.person({ type: 'student', grade: 5 }),
  ]);
});
afterAll(async () => {
  await t.close();
});

const db = () => t.database.db;
const phaseRow = async (id: string) =>
  (await db().select().from(phases).where(eq(phases.id, id)))[0];
const auditOf = async (entityId: string, action: string) =>
  db()
    .select()
    .from(auditEvents)
    .where(and(eq(auditEvents.entityId, entityId), eq(auditEvents.action, action)));

/** A world with tests for grade 5 (single, numeric, open questions) and for grades 6–7. */
async function worldWithTests() {
  const w = await kit.world();
  const single = await kit.addQuestions(w.phase.id, 1, {
    grade: 5,
    difficulty: 'low',
    itemQ: 'Cât face $\\frac{1}{2}+\\frac{1}{2}$?',
    itemAnswers: ['1', '2', '0'],
    itemCorrectAnswers: [0],
  });
  const numeric = await kit.addQuestions(w.phase.id, 1, {
    grade: 5,
    difficulty: 'medium',
    itemType: 'numeric',
    itemAnswers: [],
    itemCorrectAnswers: '42',
  });
  const open = await kit.addQuestions(w.phase.id, 1, {
    grade: 5,
    difficulty: 'hard',
    itemType: 'open',
    itemAnswers: [],
    itemCorrectAnswers: null,
  });
  await kit.addQuestions(w.phase.id, 2, { grade: 6, difficulty: 'low' });
  await kit.addQuestions(w.phase.id, 1, { grade: 7, difficulty: 'low' });
  const five = await kit.call(
    'POST',
    w.testsUrl,
    w.examAdmin.headers,
    testBody({ name: 'Subiect V', grades: [5], easyCount: 1, mediumCount: 1, hardCount: 1 }),
  );
  const sixSeven = await kit.call(
    'POST',
    w.testsUrl,
    w.examAdmin.headers,
    testBody({
      name: 'Subiect VI–VII',
      grades: [7, 6],
      easyCount: 3,
      mediumCount: 0,
      hardCount: 0,
      totalScore: 30,
    }),
  );
  expect([five.statusCode, sixSeven.statusCode]).toEqual([201, 201]);
  return {
    ...w,
    five: five.json() as Test,
    sixSeven: sixSeven.json() as Test,
    ids: { single: single[0] ?? '', numeric: numeric[0] ?? '', open: open[0] ?? '' },
  };
}

describe('who may do what', () => {
  it('lets managers do everything, staff only view, and hides tests from everyone else', async () => {
    const w = await worldWithTests();
    const testUrl = `${w.testsUrl}/${w.five._id}`;
    const viewCalls: [string, string][] = [
      ['GET', w.testsUrl],
      ['GET', testUrl],
      ['GET', `${testUrl}/paper`],
    ];
    const manageCalls: [string, string, unknown?][] = [
      ['POST', w.testsUrl, testBody({ grades: [8] })],
      ['GET', `${testUrl}/details`],
      ['PUT', `${w.testsUrl}/publish`],
      ['DELETE', testUrl],
    ];
    for (const [method, url] of viewCalls) {
      for (const who of [admin, w.examAdmin, w.staff]) {
        expect((await kit.call(method, url, who.headers)).statusCode, `${method} ${url}`).toBe(200);
      }
    }
    for (const [method, url, body] of manageCalls) {
      const res = await kit.call(method, url, w.staff.headers, body);
      expect(res.statusCode, `staff ${method} ${url}`).toBe(403);
      expect(codeOf(res)).toBe('OPERATION_NOT_PERMITTED');
    }
    for (const [method, url, body] of [...viewCalls, ...manageCalls]) {
      for (const who of [w.coordinator, w.outsider]) {
        const res = await kit.call(method, url, who.headers, body);
        expect(res.statusCode, `${method} ${url}`).toBe(404);
        expect(codeOf(res)).toBe('NOT_FOUND');
      }
      const asStudent = await kit.call(method, url, student.headers, body);
      expect(asStudent.statusCode).toBe(403);
      expect((await kit.call(method, url, {}, body)).statusCode).toBe(401);
    }
    // Nothing the refused calls asked for happened.
    expect(await db().select().from(tests).where(eq(tests.phaseId, w.phase.id))).toHaveLength(2);
    expect((await phaseRow(w.phase.id))?.allPublished).toBe(false);
  });

  it('admin teachers of another exam see nothing of this one', async () => {
    const w = await worldWithTests();
    const otherAdmin = await kit.person({ type: 'teacher' });
    await makeExam(db(), { adminTeacherIds: [otherAdmin.id], staffTeacherIds: [w.staff.id] });
    for (const [method, url] of [
      ['GET', w.testsUrl],
      ['GET', `${w.testsUrl}/${w.five._id}/details`],
      ['DELETE', `${w.testsUrl}/${w.five._id}`],
    ] as const) {
      expect((await kit.call(method, url, otherAdmin.headers)).statusCode).toBe(404);
    }
  });

  it('finds a test only under its own exam, edition and phase', async () => {
    const w = await worldWithTests();
    const otherPhase = await makePhase(db(), {
      editionId: w.edition.id,
      startDate: new Date('2027-03-01T08:00:00Z'),
    });
    const otherEdition = await makeEdition(db(), { examId: w.exam.id });
    const otherExam = await makeExam(db(), { adminTeacherIds: [w.examAdmin.id] });
    const wrongUrls = [
      `/exams/${w.exam.id}/editions/${w.edition.id}/phases/${otherPhase.id}/tests/${w.five._id}`,
      `/exams/${w.exam.id}/editions/${otherEdition.id}/phases/${w.phase.id}/tests/${w.five._id}`,
      `/exams/${otherExam.id}/editions/${w.edition.id}/phases/${w.phase.id}/tests/${w.five._id}`,
      `${w.testsUrl}/${uuidv7()}`,
    ];
    for (const url of wrongUrls) {
      for (const suffix of ['', '/details', '/paper']) {
        const res = await kit.call('GET', `${url}${suffix}`, admin.headers);
        expect(res.statusCode, `${url}${suffix}`).toBe(404);
      }
      expect((await kit.call('DELETE', url, admin.headers)).statusCode).toBe(404);
    }
    expect(await db().select().from(tests).where(eq(tests.id, w.five._id))).toHaveLength(1);
    const bad = await kit.call('GET', `${w.testsUrl}/not-a-uuid`, admin.headers);
    expect(bad.statusCode).toBe(400);
    expect(codeOf(bad)).toBe('VALIDATION_FAILED');
  });
});

describe('reading tests', () => {
  it('lists the phase tests by first grade', async () => {
    const w = await worldWithTests();
    const res = await kit.call('GET', w.testsUrl, w.staff.headers);
    expect(res.statusCode).toBe(200);
    const list = res.json() as Test[];
    expect(list.map((x) => [x.name, x.grades, x.itemCount, x.published])).toEqual([
      ['Subiect V', [5], 3, false],
      ['Subiect VI–VII', [6, 7], 3, false],
    ]);
    expect(list[1]).toMatchObject({
      examId: w.exam.id,
      editionId: w.edition.id,
      phaseId: w.phase.id,
      subject: 'Matematică',
      duration: 120,
      totalScore: 30,
      easyCount: 3,
    });
  });

  it('previews items without correct answers, with the names for the header', async () => {
    const w = await worldWithTests();
    const res = await kit.call('GET', `${w.testsUrl}/${w.five._id}`, w.staff.headers);
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toContain('itemCorrectAnswers');
    const preview = res.json() as TestPreview;
    expect(preview).toMatchObject({
      _id: w.five._id,
      grades: [5],
      examName: 'Olimpiada de Matematică „Gheorghe Țițeica”',
      editionName: 'Ediția 2026–2027',
      phaseName: 'Etapa județeană',
    });
    expect(preview.items.map((i) => [i.itemId, i.position, i.itemType])).toEqual([
      [w.ids.single, 1, 'single'],
      [w.ids.numeric, 2, 'numeric'],
      [w.ids.open, 3, 'open'],
    ]);
    expect(preview.items[0]).toMatchObject({
      _id: w.ids.single,
      itemQ: 'Cât face $\\frac{1}{2}+\\frac{1}{2}$?',
      itemAnswers: ['1', '2', '0'],
      difficulty: 'low',
      itemGrade: 5,
    });
    expect(preview.items.reduce((s, i) => s + Math.round(i.score * 100), 0)).toBe(10000);
  });

  it('gives managers the details: assignedItems with scores and the correct answers', async () => {
    const w = await worldWithTests();
    for (const who of [admin, w.examAdmin]) {
      const res = await kit.call('GET', `${w.testsUrl}/${w.five._id}/details`, who.headers);
      expect(res.statusCode).toBe(200);
      const details = res.json() as TestDetails;
      // 100 points over three items, in whole points: 33, 33 and 34 (the hardest takes the
      // point left over).
      expect(details.assignedItems).toEqual([
        { itemId: w.ids.single, score: 33 },
        { itemId: w.ids.numeric, score: 33 },
        { itemId: w.ids.open, score: 34 },
      ]);
      expect(details.items.map((i) => [i._id, i.itemCorrectAnswers, i.score])).toEqual([
        [w.ids.single, [0], 33],
        [w.ids.numeric, '42', 33],
        [w.ids.open, null, 34],
      ]);
      expect(details).toMatchObject({
        grades: [5],
        subject: 'Matematică',
        examName: 'Olimpiada de Matematică „Gheorghe Țițeica”',
        editionName: 'Ediția 2026–2027',
        phaseName: 'Etapa județeană',
      });
    }
  });

  it('serves the paper data of the print view', async () => {
    const w = await worldWithTests();
    const res = await kit.call('GET', `${w.testsUrl}/${w.sixSeven._id}/paper`, w.staff.headers);
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toContain('itemCorrectAnswers');
    const paper = res.json() as TestPaper;
    expect(paper).toMatchObject({
      testId: w.sixSeven._id,
      examId: w.exam.id,
      editionId: w.edition.id,
      phaseId: w.phase.id,
      examName: 'Olimpiada de Matematică „Gheorghe Țițeica”',
      editionName: 'Ediția 2026–2027',
      phaseName: 'Etapa județeană',
      testName: 'Subiect VI–VII',
      grades: [6, 7],
      subject: 'Matematică',
      duration: 120,
      totalScore: 30,
    });
    expect(paper.items).toHaveLength(3);
    expect(paper.items.map((i) => i.score)).toEqual([10, 10, 10]);
  });
});

describe('DELETE …/tests/{testId}', () => {
  it('deletes a test nobody started, frees its grades and is audited', async () => {
    const w = await worldWithTests();
    const res = await kit.call('DELETE', `${w.testsUrl}/${w.five._id}`, w.examAdmin.headers);
    expect(res.statusCode).toBe(204);
    expect(await db().select().from(tests).where(eq(tests.id, w.five._id))).toEqual([]);
    expect(await db().select().from(testGrades).where(eq(testGrades.testId, w.five._id))).toEqual(
      [],
    );
    const audit = await auditOf(w.five._id, 'test.delete');
    expect(audit).toHaveLength(1);
    expect(audit[0]?.before).toMatchObject({ name: 'Subiect V', grades: [5] });
    // Grade 5 is free again.
    const again = await kit.call(
      'POST',
      w.testsUrl,
      admin.headers,
      testBody({ easyCount: 1, mediumCount: 1, hardCount: 1 }),
    );
    expect(again.statusCode).toBe(201);
    // Deleting twice: the test is gone.
    expect(
      (await kit.call('DELETE', `${w.testsUrl}/${w.five._id}`, admin.headers)).statusCode,
    ).toBe(404);
  });

  it('refuses once a student has an attempt, or only an answer: TEST_HAS_ATTEMPTS', async () => {
    const w = await worldWithTests();
    await db()
      .insert(attempts)
      .values({
        id: uuidv7(),
        testId: w.five._id,
        studentId: student.id,
        startedAt: new Date('2026-11-24T08:05:00Z'),
        deadlineAt: new Date('2026-11-24T10:05:00Z'),
        itemOrder: [w.ids.open, w.ids.single, w.ids.numeric],
      });
    await db()
      .insert(answers)
      .values({
        id: uuidv7(),
        testId: w.sixSeven._id,
        studentId: student.id,
        questionId: (await kit.call('GET', `${w.testsUrl}/${w.sixSeven._id}`, admin.headers)).json()
          .items[0].itemId,
      });
    for (const test of [w.five, w.sixSeven]) {
      const res = await kit.call('DELETE', `${w.testsUrl}/${test._id}`, admin.headers);
      expect(res.statusCode).toBe(409);
      expect(codeOf(res)).toBe('TEST_HAS_ATTEMPTS');
      expect(await db().select().from(tests).where(eq(tests.id, test._id))).toHaveLength(1);
      expect(await auditOf(test._id, 'test.delete')).toEqual([]);
    }
  });

  it('refuses in a closed phase with PHASE_CLOSED', async () => {
    const w = await worldWithTests();
    await db().update(phases).set({ state: 'closed' }).where(eq(phases.id, w.phase.id));
    const res = await kit.call('DELETE', `${w.testsUrl}/${w.five._id}`, admin.headers);
    expect(res.statusCode).toBe(409);
    expect(codeOf(res)).toBe('PHASE_CLOSED');
  });
});

describe('PUT …/tests/publish', () => {
  it('publishes every test and sets allPublished; a new test resets it', async () => {
    const w = await worldWithTests();
    const res = await kit.call('PUT', `${w.testsUrl}/publish`, w.examAdmin.headers);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ publishedCount: 2, allPublished: true });
    const rows = await db().select().from(tests).where(eq(tests.phaseId, w.phase.id));
    expect(rows.map((r) => r.published)).toEqual([true, true]);
    expect((await phaseRow(w.phase.id))?.allPublished).toBe(true);
    expect(await auditOf(w.phase.id, 'tests.publish')).toHaveLength(1);

    // Publishing again changes nothing and is not audited again.
    const again = await kit.call('PUT', `${w.testsUrl}/publish`, admin.headers);
    expect(again.json()).toEqual({ publishedCount: 0, allPublished: true });
    expect(await auditOf(w.phase.id, 'tests.publish')).toHaveLength(1);

    await kit.addQuestions(w.phase.id, 1, { grade: 8, difficulty: 'low' });
    const created = await kit.call(
      'POST',
      w.testsUrl,
      admin.headers,
      testBody({ grades: [8], easyCount: 1, mediumCount: 0, hardCount: 0 }),
    );
    expect(created.statusCode).toBe(201);
    expect((await phaseRow(w.phase.id))?.allPublished).toBe(false);
    const list = (await kit.call('GET', w.testsUrl, admin.headers)).json() as Test[];
    expect(list.map((x) => x.published)).toEqual([true, true, false]);

    // Deleting the only unpublished test makes every remaining test published again.
    await kit.call('DELETE', `${w.testsUrl}/${(created.json() as Test)._id}`, admin.headers);
    expect((await phaseRow(w.phase.id))?.allPublished).toBe(true);

    // The phase's own answer carries the flag.
    const phase = await t.app.inject({
      method: 'GET',
      url: `/api/v1/exam-mgmt/exams/${w.exam.id}/editions/${w.edition.id}/phases/${w.phase.id}`,
      headers: admin.headers,
    });
    expect(phase.json()).toMatchObject({ allPublished: true });
  });

  it('leaves a phase without tests not all-published', async () => {
    const w = await kit.world();
    const res = await kit.call('PUT', `${w.testsUrl}/publish`, admin.headers);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ publishedCount: 0, allPublished: false });
  });
});
