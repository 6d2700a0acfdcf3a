import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Test } from '../../../shared/schemas/tests.js';
import { makePhase } from '../../db/factories.js';
import { auditEvents, phases, questions, testGrades, testItems, tests } from '../../db/schema.js';
import { buildTestApp, type TestApp } from '../../test/app.js';
import { generateTest } from './generate-test.js';
import { codeOf, detailsOf, type Person, testBody, testsKit } from './tests.fixtures.js';

let t: TestApp;
let kit: ReturnType<typeof testsKit>;
let admin: Person;

beforeAll(async () => {
  t = await buildTestApp();
  kit = testsKit(t);
  admin = await kit.person({ type: 'admin' });
});
afterAll(async () => {
  await t.close();
});

const db = () => t.database.db;
const itemsOf = async (testId: string) =>
  db()
    .select({
      questionId: testItems.questionId,
      position: testItems.position,
      score: testItems.score,
      grade: questions.itemGrade,
      difficulty: questions.difficulty,
      category: questions.itemCategory,
      discipline: questions.itemDiscipline,
      phaseId: questions.phaseId,
      deletedAt: questions.deletedAt,
    })
    .from(testItems)
    .innerJoin(questions, eq(questions.id, testItems.questionId))
    .where(eq(testItems.testId, testId))
    .orderBy(testItems.position);
const allPublished = async (phaseId: string) =>
  (await db().select().from(phases).where(eq(phases.id, phaseId)))[0]?.allPublished;
const cents = (n: number) => Math.round(n * 100);

/** A world whose bank has, for grades 5 and 6 each, 4 easy, 3 medium and 2 hard questions. */
async function stockedWorld() {
  const w = await kit.world();
  for (const grade of [5, 6]) {
    await kit.addQuestions(w.phase.id, 2, { grade, difficulty: 'low', category: 'Algebră' });
    await kit.addQuestions(w.phase.id, 2, { grade, difficulty: 'low', category: 'Geometrie' });
    await kit.addQuestions(w.phase.id, 3, { grade, difficulty: 'medium', category: 'Algebră' });
    await kit.addQuestions(w.phase.id, 2, { grade, difficulty: 'hard', category: 'Geometrie' });
  }
  return w;
}

describe('POST …/tests', () => {
  it('draws the counts from the bank of those grades and subject, scored to the total', async () => {
    const w = await stockedWorld();
    // Questions that must never be drawn: another subject, grade, phase, or deleted.
    await kit.addQuestions(w.phase.id, 5, {
      grade: 5,
      difficulty: 'low',
      discipline: 'Informatică',
    });
    await kit.addQuestions(w.phase.id, 5, { grade: 7, difficulty: 'low' });
    await kit.addQuestions(w.phase.id, 5, { grade: 5, difficulty: 'low', deleted: true });
    const other = await makePhase(db(), {
      editionId: w.edition.id,
      startDate: new Date('2027-02-01T08:00:00Z'),
    });
    await kit.addQuestions(other.id, 5, { grade: 5, difficulty: 'low' });
    await db().update(phases).set({ allPublished: true }).where(eq(phases.id, w.phase.id));

    const res = await kit.call(
      'POST',
      w.testsUrl,
      w.examAdmin.headers,
      testBody({
        name: 'Subiect clasele a V-a și a VI-a',
        grades: [6, 5, 5],
        subject: ' matematică ',
        easyCount: 7,
        mediumCount: 5,
        hardCount: 3,
        totalScore: 90.5,
      }),
    );
    expect(res.statusCode).toBe(201);
    const test = res.json() as Test;
    expect(test).toMatchObject({
      examId: w.exam.id,
      editionId: w.edition.id,
      phaseId: w.phase.id,
      name: 'Subiect clasele a V-a și a VI-a',
      grades: [5, 6],
      subject: 'matematică',
      startDate: '2026-11-24T08:00:00.000Z',
      endDate: '2026-11-24T11:00:00.000Z',
      duration: 120,
      totalScore: 90.5,
      easyCount: 7,
      mediumCount: 5,
      hardCount: 3,
      published: false,
      itemCount: 15,
    });
    expect(test.seed).toMatch(/^[0-9a-f]{32}$/);

    const items = await itemsOf(test._id);
    expect(items).toHaveLength(15);
    expect(new Set(items.map((i) => i.questionId)).size).toBe(15);
    expect(items.map((i) => i.position)).toEqual(items.map((_, i) => i + 1));
    for (const item of items) {
      expect([5, 6]).toContain(item.grade);
      expect(item.discipline).toBe('Matematică');
      expect(item.phaseId).toBe(w.phase.id);
      expect(item.deletedAt).toBeNull();
    }
    const byDifficulty = (d: string) => items.filter((i) => i.difficulty === d).length;
    expect([byDifficulty('low'), byDifficulty('medium'), byDifficulty('hard')]).toEqual([7, 5, 3]);
    expect(items.reduce((s, i) => s + cents(i.score), 0)).toBe(9050);
    // 8 easy questions in two categories of 4 each: 7 drawn are split 4 + 3.
    const easyAlgebra = items.filter((i) => i.difficulty === 'low' && i.category === 'Algebră');
    expect([3, 4]).toContain(easyAlgebra.length);
    // The counts by category as drawn (SPEC.md §3: geometry and algebra counts), on the
    // created test and in the list.
    const algebra = items.filter((i) => i.category === 'Algebră').length;
    const byCategory = [
      { category: 'Algebră', count: algebra },
      { category: 'Geometrie', count: 15 - algebra },
    ].sort((a, b) => b.count - a.count || a.category.localeCompare(b.category));
    expect(test.categoryCounts).toEqual(byCategory);
    const listed = (await kit.call('GET', w.testsUrl, w.examAdmin.headers)).json();
    expect(listed.find((x: { _id: string }) => x._id === test._id)?.categoryCounts).toEqual(
      byCategory,
    );

    expect(await allPublished(w.phase.id)).toBe(false);
    const grades = await db().select().from(testGrades).where(eq(testGrades.testId, test._id));
    expect(grades.map((g) => g.grade).sort()).toEqual([5, 6]);
    const audit = await db()
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.entityId, test._id), eq(auditEvents.action, 'test.create')));
    expect(audit).toHaveLength(1);
    expect(audit[0]?.actorId).toBe(w.examAdmin.id);
    expect(audit[0]?.after).toMatchObject({ seed: test.seed, grades: [5, 6] });
  });

  it('reproduces exactly the stored items from the stored seed and the bank', async () => {
    const w = await stockedWorld();
    const res = await kit.call('POST', w.testsUrl, admin.headers, testBody({ grades: [5] }));
    expect(res.statusCode).toBe(201);
    const test = res.json() as Test;
    const bank = await db()
      .select({
        id: questions.id,
        difficulty: questions.difficulty,
        category: questions.itemCategory,
      })
      .from(questions)
      .where(and(eq(questions.phaseId, w.phase.id), eq(questions.itemGrade, 5)));
    const again = generateTest({
      bank,
      counts: { low: 2, medium: 1, hard: 1 },
      totalScore: 100,
      seed: test.seed,
    });
    if (!again.ok) throw new Error('shortage');
    const stored = await itemsOf(test._id);
    expect(stored.map((i) => [i.questionId, i.position, i.score])).toEqual(
      again.items.map((i) => [i.questionId, i.position, i.score]),
    );
  });

  it('keeps a grade in one test per phase: TEST_ALREADY_EXISTS on grades', async () => {
    const w = await stockedWorld();
    const first = await kit.call('POST', w.testsUrl, admin.headers, testBody({ grades: [5] }));
    expect(first.statusCode).toBe(201);
    const again = await kit.call('POST', w.testsUrl, admin.headers, testBody({ grades: [6, 5] }));
    expect(again.statusCode).toBe(409);
    expect(codeOf(again)).toBe('TEST_ALREADY_EXISTS');
    expect(detailsOf(again)).toEqual({ grades: ['test_grade_duplicate'] });
    // Grade 6 alone is still free; the refused call took nothing.
    const six = await kit.call('POST', w.testsUrl, admin.headers, testBody({ grades: [6] }));
    expect(six.statusCode).toBe(201);
    // The same grade in another phase is fine.
    const other = await makePhase(db(), {
      editionId: w.edition.id,
      startDate: new Date('2027-02-01T08:00:00Z'),
    });
    await kit.addQuestions(other.id, 4, { grade: 5, difficulty: 'low' });
    const otherUrl = w.testsUrl.replace(w.phase.id, other.id);
    const elsewhere = await kit.call(
      'POST',
      otherUrl,
      admin.headers,
      testBody({
        grades: [5],
        startDate: '2027-02-02T08:00:00Z',
        endDate: '2027-02-02T10:00:00Z',
        easyCount: 3,
        mediumCount: 0,
        hardCount: 0,
      }),
    );
    expect(elsewhere.statusCode).toBe(201);
  });

  it('lets only one of two concurrent calls take a grade', async () => {
    const w = await stockedWorld();
    const results = await Promise.all(
      [[5], [5, 6], [5]].map((grades) =>
        kit.call('POST', w.testsUrl, admin.headers, testBody({ grades })),
      ),
    );
    const statuses = results.map((r) => r.statusCode).sort();
    expect(statuses).toEqual([201, 409, 409]);
    for (const r of results.filter((r) => r.statusCode === 409)) {
      expect(codeOf(r)).toBe('TEST_ALREADY_EXISTS');
    }
    const rows = await db().select().from(tests).where(eq(tests.phaseId, w.phase.id));
    expect(rows).toHaveLength(1);
  });

  it('refuses grades the exam does not have', async () => {
    const w = await stockedWorld();
    const res = await kit.call('POST', w.testsUrl, admin.headers, testBody({ grades: [5, 9] }));
    expect(res.statusCode).toBe(400);
    expect(codeOf(res)).toBe('CLIENT_ERROR');
    expect(detailsOf(res)).toEqual({ grades: ['invalid'] });
  });

  it('refuses dates outside the phase or in the wrong order: INVALID_TEST_DATE on startDate', async () => {
    const w = await stockedWorld();
    for (const [startDate, endDate] of [
      ['2026-11-23T08:59:59Z', '2026-11-23T11:00:00Z'], // starts before the phase
      ['2026-11-30T08:00:00Z', '2026-11-30T09:00:01Z'], // ends after it
      ['2026-11-24T11:00:00Z', '2026-11-24T11:00:00Z'], // ends as it starts
      ['2026-11-24T12:00:00Z', '2026-11-24T11:00:00Z'], // ends before it starts
    ]) {
      const res = await kit.call(
        'POST',
        w.testsUrl,
        admin.headers,
        testBody({ startDate, endDate }),
      );
      expect(res.statusCode, `${startDate} → ${endDate}`).toBe(400);
      expect(codeOf(res)).toBe('INVALID_TEST_DATE');
      expect(detailsOf(res)).toEqual({ startDate: ['invalid_date'] });
    }
    // Exactly the phase's window is fine.
    const whole = await kit.call(
      'POST',
      w.testsUrl,
      admin.headers,
      testBody({ startDate: '2026-11-23T11:00:00+02:00', endDate: '2026-11-30T09:00:00Z' }),
    );
    expect(whole.statusCode).toBe(201);
  });

  it('reports a short bank with INSUFFICIENT_TEST_ITEMS_FOR_CRITERIA and creates nothing', async () => {
    const w = await stockedWorld();
    const res = await kit.call(
      'POST',
      w.testsUrl,
      admin.headers,
      testBody({ grades: [5], easyCount: 5, mediumCount: 3, hardCount: 3 }),
    );
    expect(res.statusCode).toBe(409);
    expect(codeOf(res)).toBe('INSUFFICIENT_TEST_ITEMS_FOR_CRITERIA');
    expect(detailsOf(res)).toEqual([
      { difficulty: 'low', requested: 5, available: 4 },
      { difficulty: 'hard', requested: 3, available: 2 },
    ]);
    // A subject without questions is short of everything it asks.
    const none = await kit.call(
      'POST',
      w.testsUrl,
      admin.headers,
      testBody({ subject: 'Informatică', easyCount: 1, mediumCount: 0, hardCount: 0 }),
    );
    expect(codeOf(none)).toBe('INSUFFICIENT_TEST_ITEMS_FOR_CRITERIA');
    expect(await db().select().from(tests).where(eq(tests.phaseId, w.phase.id))).toHaveLength(0);
    expect(await db().select().from(testGrades).where(eq(testGrades.phaseId, w.phase.id))).toEqual(
      [],
    );
  });

  it('refuses a closed phase with PHASE_CLOSED', async () => {
    const w = await stockedWorld();
    await db().update(phases).set({ state: 'closed' }).where(eq(phases.id, w.phase.id));
    const res = await kit.call('POST', w.testsUrl, admin.headers, testBody());
    expect(res.statusCode).toBe(409);
    expect(codeOf(res)).toBe('PHASE_CLOSED');
  });

  it('validates the body field by field', async () => {
    const w = await stockedWorld();
    const issues = async (body: unknown) => {
      const res = await kit.call('POST', w.testsUrl, admin.headers, body);
      expect(res.statusCode).toBe(400);
      expect(codeOf(res)).toBe('VALIDATION_FAILED');
      // The first code of each field, as a form shows it.
      const first: Record<string, string> = {};
      for (const issue of detailsOf(res) as { code: string; path: string[] }[]) {
        first[issue.path.join('.')] ??= issue.code;
      }
      return first;
    };
    expect(await issues({})).toMatchObject({
      name: 'required',
      grades: 'required',
      subject: 'required',
      startDate: 'required',
      endDate: 'required',
      duration: 'required',
      totalScore: 'required',
      easyCount: 'required',
    });
    expect(
      await issues(
        testBody({
          name: 'ab',
          grades: [],
          startDate: '24.11.2026',
          duration: 0,
          totalScore: -5,
          easyCount: -1,
          mediumCount: 1.5,
        }),
      ),
    ).toEqual({
      name: 'too_short',
      grades: 'required',
      startDate: 'invalid_date',
      duration: 'not_positive',
      totalScore: 'not_positive',
      easyCount: 'invalid',
      mediumCount: 'invalid',
    });
    expect(await issues(testBody({ easyCount: 0, mediumCount: 0, hardCount: 0 }))).toEqual({
      easyCount: 'not_positive',
      mediumCount: 'not_positive',
      hardCount: 'not_positive',
    });
    // 2 decimals at most, and at least 0.01 per question (4 here), or per unit of weight when
    // weighted by difficulty (2 + 2 + 3 = 7).
    expect(await issues(testBody({ totalScore: 10.005 }))).toEqual({ totalScore: 'invalid' });
    expect(await issues(testBody({ totalScore: 0.03 }))).toEqual({ totalScore: 'invalid' });
    expect(await issues(testBody({ totalScore: 0.06, weightByDifficulty: true }))).toEqual({
      totalScore: 'invalid',
    });
    expect(await issues(testBody({ weightByDifficulty: 'yes' }))).toEqual({
      weightByDifficulty: 'invalid',
    });
    expect(await issues(testBody({ grades: [13] }))).toEqual({ 'grades.0': 'invalid' });
    expect(await issues(testBody({ name: 'x'.repeat(201) }))).toEqual({ name: 'too_long' });
    expect(await issues({ ...testBody(), seed: 'chosen' })).toEqual({ '': 'invalid' });
    const res = await kit.call('POST', w.testsUrl, admin.headers, testBody({ totalScore: 0.04 }));
    expect(res.statusCode).toBe(201);
  });
});
