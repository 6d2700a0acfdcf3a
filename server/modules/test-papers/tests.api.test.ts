import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeEdition, makeExam, makePhase } from '../../db/factories.js';
import { answers, attempts, auditEvents, phases, testGrades, tests } from '../../db/schema.js';
import { uuidv7 } from '../../lib/ids.js';
import {
  type ApiAnswer,
  type ApiClient,
  answered,
  apiClient,
  errorCodeOf,
} from '../../test/api-client.js';
import { buildTestApp, type TestApp } from '../../test/app.js';
import { type Person, testBody, testsKit } from './tests.fixtures.js';

// Every call goes through the client generated from the API's description (shared/api/), so a
// change of these routes' schemas that the tests do not follow fails to compile.
const TESTS = '/api/v1/test-mgmt/exams/{examId}/editions/{editionId}/phases/{phaseId}/tests';
const TEST = `${TESTS}/{testId}` as const;

let t: TestApp;
let kit: ReturnType<typeof testsKit>;
let admin: Person;
let student: Person;
/** The client, signed in as a person (or as nobody). */
const as = (who?: Person): ApiClient => apiClient(t.app, who?.headers);

beforeAll(async () => {
  t = await buildTestApp({ checkResponses: true });
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
  const phase = { examId: w.exam.id, editionId: w.edition.id, phaseId: w.phase.id };
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
  const api = as(w.examAdmin);
  const five = await answered(
    api.POST(TESTS, {
      params: { path: phase },
      body: testBody({
        name: 'Subiect V',
        grades: [5],
        easyCount: 1,
        mediumCount: 1,
        hardCount: 1,
      }),
    }),
    201,
  );
  const sixSeven = await answered(
    api.POST(TESTS, {
      params: { path: phase },
      body: testBody({
        name: 'Subiect VI–VII',
        grades: [7, 6],
        easyCount: 3,
        mediumCount: 0,
        hardCount: 0,
        totalScore: 30,
      }),
    }),
    201,
  );
  return {
    ...w,
    phase: { ...w.phase, path: phase },
    /** The path parameters of one of the phase's tests. */
    test: (testId: string) => ({ ...phase, testId }),
    five,
    sixSeven,
    ids: { single: single[0] ?? '', numeric: numeric[0] ?? '', open: open[0] ?? '' },
  };
}

/** A call of the client, named for the failure message. */
type Call = [name: string, call: (api: ApiClient) => Promise<ApiAnswer>];

describe('who may do what', () => {
  it('lets managers do everything, staff only view, hides tests from everyone else and refuses them the paper', async () => {
    const w = await worldWithTests();
    const path = w.phase.path;
    const test = w.test(w.five._id);
    const viewCalls: Call[] = [
      ['list', (api) => api.GET(TESTS, { params: { path } })],
      ['preview', (api) => api.GET(TEST, { params: { path: test } })],
      ['paper', (api) => api.GET(`${TEST}/paper`, { params: { path: test } })],
    ];
    const manageCalls: Call[] = [
      ['create', (api) => api.POST(TESTS, { params: { path }, body: testBody({ grades: [8] }) })],
      ['details', (api) => api.GET(`${TEST}/details`, { params: { path: test } })],
      ['publish', (api) => api.PUT(`${TESTS}/publish`, { params: { path } })],
      ['delete', (api) => api.DELETE(TEST, { params: { path: test } })],
    ];
    for (const [name, call] of viewCalls) {
      for (const who of [admin, w.examAdmin, w.staff]) {
        expect((await call(as(who))).response.status, name).toBe(200);
      }
    }
    for (const [name, call] of manageCalls) {
      const { response, error } = await call(as(w.staff));
      expect(response.status, `staff ${name}`).toBe(403);
      expect(errorCodeOf(error)).toBe('OPERATION_NOT_PERMITTED');
    }
    for (const [name, call] of [...viewCalls, ...manageCalls]) {
      // The paper is a download: SPEC.md §2 refuses it with 403; the rest stays hidden (404).
      const [status, code] =
        name === 'paper' ? [403, 'OPERATION_NOT_PERMITTED'] : [404, 'NOT_FOUND'];
      for (const who of [w.coordinator, w.outsider]) {
        const { response, error } = await call(as(who));
        expect(response.status, name).toBe(status);
        expect(errorCodeOf(error)).toBe(code);
      }
      expect((await call(as(student))).response.status, name).toBe(403);
      expect((await call(as())).response.status, name).toBe(401);
    }
    // Nothing the refused calls asked for happened.
    expect(await db().select().from(tests).where(eq(tests.phaseId, w.phase.id))).toHaveLength(2);
    expect((await phaseRow(w.phase.id))?.allPublished).toBe(false);
  });

  it('admin teachers of another exam see nothing of this one', async () => {
    const w = await worldWithTests();
    const otherAdmin = await kit.person({ type: 'teacher' });
    await makeExam(db(), { adminTeacherIds: [otherAdmin.id], staffTeacherIds: [w.staff.id] });
    const api = as(otherAdmin);
    const test = w.test(w.five._id);
    const calls = [
      api.GET(TESTS, { params: { path: w.phase.path } }),
      api.GET(`${TEST}/details`, { params: { path: test } }),
      api.DELETE(TEST, { params: { path: test } }),
    ];
    for (const call of calls) expect((await call).response.status).toBe(404);
  });

  it('finds a test only under its own exam, edition and phase', async () => {
    const w = await worldWithTests();
    const otherPhase = await makePhase(db(), {
      editionId: w.edition.id,
      startDate: new Date('2027-03-01T08:00:00Z'),
    });
    const otherEdition = await makeEdition(db(), { examId: w.exam.id });
    const otherExam = await makeExam(db(), { adminTeacherIds: [w.examAdmin.id] });
    const right = w.test(w.five._id);
    const wrongPaths = [
      { ...right, phaseId: otherPhase.id },
      { ...right, editionId: otherEdition.id },
      { ...right, examId: otherExam.id },
      { ...right, testId: uuidv7() },
    ];
    const api = as(admin);
    for (const path of wrongPaths) {
      const calls = [
        api.GET(TEST, { params: { path } }),
        api.GET(`${TEST}/details`, { params: { path } }),
        api.GET(`${TEST}/paper`, { params: { path } }),
        api.DELETE(TEST, { params: { path } }),
      ];
      for (const call of calls)
        expect((await call).response.status, JSON.stringify(path)).toBe(404);
    }
    expect(await db().select().from(tests).where(eq(tests.id, w.five._id))).toHaveLength(1);
    const bad = await api.GET(TEST, { params: { path: { ...right, testId: 'not-a-uuid' } } });
    expect(bad.response.status).toBe(400);
    expect(errorCodeOf(bad.error)).toBe('VALIDATION_FAILED');
  });
});

describe('reading tests', () => {
  it('lists the phase tests by first grade', async () => {
    const w = await worldWithTests();
    const list = await answered(as(w.staff).GET(TESTS, { params: { path: w.phase.path } }), 200);
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
    const preview = await answered(
      as(w.staff).GET(TEST, { params: { path: w.test(w.five._id) } }),
      200,
    );
    expect(JSON.stringify(preview)).not.toContain('itemCorrectAnswers');
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
      const details = await answered(
        as(who).GET(`${TEST}/details`, { params: { path: w.test(w.five._id) } }),
        200,
      );
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
    const paper = await answered(
      as(w.staff).GET(`${TEST}/paper`, { params: { path: w.test(w.sixSeven._id) } }),
      200,
    );
    expect(JSON.stringify(paper)).not.toContain('itemCorrectAnswers');
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
    const five = { params: { path: w.test(w.five._id) } };
    await answered(as(w.examAdmin).DELETE(TEST, five), 204);
    expect(await db().select().from(tests).where(eq(tests.id, w.five._id))).toEqual([]);
    expect(await db().select().from(testGrades).where(eq(testGrades.testId, w.five._id))).toEqual(
      [],
    );
    const audit = await auditOf(w.five._id, 'test.delete');
    expect(audit).toHaveLength(1);
    expect(audit[0]?.before).toMatchObject({ name: 'Subiect V', grades: [5] });
    // Grade 5 is free again.
    const again = await as(admin).POST(TESTS, {
      params: { path: w.phase.path },
      body: testBody({ easyCount: 1, mediumCount: 1, hardCount: 1 }),
    });
    expect(again.response.status).toBe(201);
    // Deleting twice: the test is gone.
    expect((await as(admin).DELETE(TEST, five)).response.status).toBe(404);
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
    const sixSeven = await answered(
      as(admin).GET(TEST, { params: { path: w.test(w.sixSeven._id) } }),
      200,
    );
    await db()
      .insert(answers)
      .values({
        id: uuidv7(),
        testId: w.sixSeven._id,
        studentId: student.id,
        questionId: sixSeven.items[0]?.itemId ?? '',
      });
    for (const test of [w.five, w.sixSeven]) {
      const { response, error } = await as(admin).DELETE(TEST, {
        params: { path: w.test(test._id) },
      });
      expect(response.status).toBe(409);
      expect(errorCodeOf(error)).toBe('TEST_HAS_ATTEMPTS');
      expect(await db().select().from(tests).where(eq(tests.id, test._id))).toHaveLength(1);
      expect(await auditOf(test._id, 'test.delete')).toEqual([]);
    }
  });

  it('refuses in a closed phase with PHASE_CLOSED', async () => {
    const w = await worldWithTests();
    await db().update(phases).set({ state: 'closed' }).where(eq(phases.id, w.phase.id));
    const { response, error } = await as(admin).DELETE(TEST, {
      params: { path: w.test(w.five._id) },
    });
    expect(response.status).toBe(409);
    expect(errorCodeOf(error)).toBe('PHASE_CLOSED');
  });
});

describe('PUT …/tests/publish', () => {
  it('publishes every test and sets allPublished; a new test resets it', async () => {
    const w = await worldWithTests();
    const path = { params: { path: w.phase.path } };
    const published = await answered(as(w.examAdmin).PUT(`${TESTS}/publish`, path), 200);
    expect(published).toEqual({ publishedCount: 2, allPublished: true });
    const rows = await db().select().from(tests).where(eq(tests.phaseId, w.phase.id));
    expect(rows.map((r) => r.published)).toEqual([true, true]);
    expect((await phaseRow(w.phase.id))?.allPublished).toBe(true);
    expect(await auditOf(w.phase.id, 'tests.publish')).toHaveLength(1);

    // Publishing again changes nothing and is not audited again.
    const again = await answered(as(admin).PUT(`${TESTS}/publish`, path), 200);
    expect(again).toEqual({ publishedCount: 0, allPublished: true });
    expect(await auditOf(w.phase.id, 'tests.publish')).toHaveLength(1);

    await kit.addQuestions(w.phase.id, 1, { grade: 8, difficulty: 'low' });
    const created = await answered(
      as(admin).POST(TESTS, {
        ...path,
        body: testBody({ grades: [8], easyCount: 1, mediumCount: 0, hardCount: 0 }),
      }),
      201,
    );
    expect((await phaseRow(w.phase.id))?.allPublished).toBe(false);
    const list = await answered(as(admin).GET(TESTS, path), 200);
    expect(list.map((x) => x.published)).toEqual([true, true, false]);

    // Deleting the only unpublished test makes every remaining test published again.
    await answered(as(admin).DELETE(TEST, { params: { path: w.test(created._id) } }), 204);
    expect((await phaseRow(w.phase.id))?.allPublished).toBe(true);

    // The phase's own answer carries the flag.
    const phase = await answered(
      as(admin).GET('/api/v1/exam-mgmt/exams/{examId}/editions/{editionId}/phases/{phaseId}', path),
      200,
    );
    expect(phase).toMatchObject({ allPublished: true });
  });

  it('leaves a phase without tests not all-published', async () => {
    const w = await kit.world();
    const path = { examId: w.exam.id, editionId: w.edition.id, phaseId: w.phase.id };
    const res = await answered(as(admin).PUT(`${TESTS}/publish`, { params: { path } }), 200);
    expect(res).toEqual({ publishedCount: 0, allPublished: false });
  });
});
