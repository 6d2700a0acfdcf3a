import { and, eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ContestationEntry, StudentResult } from '../../../shared/schemas/reviews.js';
import { makePhase, makeTestWithItems } from '../../db/factories.js';
import {
  phaseStudents,
  phases,
  reviewAppeals,
  reviewEntries,
  reviewMarks,
  testResults,
} from '../../db/schema.js';
import { buildTestApp, type TestApp } from '../../test/app.js';
import { fixedClock, type Signed, smallCompetition } from '../../test/competition.js';
import { multipartForm, onePixelPng } from '../../test/forms.js';

// The appeal threshold is on the whole paper (shared/GLOSSARY.md, "Appeals with a threshold"):
// a student appeals two questions of one hybrid test, each re-marked half a point higher; under
// a 1-point threshold the first alone keeps its mark, and the second, bringing the paper to one
// point, changes both.

const clock = fixedClock();
let t: TestApp;
let c: Awaited<ReturnType<typeof smallCompetition>>;
let markers: Signed[];
let paper: Awaited<ReturnType<typeof makeTestWithItems>>;
let phasePath: string;

const call = (method: string, url: string, headers: Record<string, string>, payload?: unknown) =>
  t.app.inject({
    method: method as 'GET',
    url: `/api/v1${url}`,
    headers,
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
const ok = <T>(res: LightMyRequestResponse): T => {
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as T;
};
const signed = (id: string) => markers.find((m) => m.id === id) as Signed;
const base = () => `/test-review${phasePath}`;

beforeAll(async () => {
  t = await buildTestApp({ clock });
  c = await smallCompetition(t);
  const db = t.database.db;
  markers = [];
  for (let i = 0; i < 5; i += 1) {
    const u = await t.createUser({ type: 'teacher' });
    markers.push({ id: u.id, email: u.email, headers: await t.login(u.email, u.password) });
  }
  // A hybrid phase of its own, whose test has two questions.
  const phase = await makePhase(db, {
    editionId: c.edition.id,
    type: 'hybrid',
    startDate: new Date('2026-11-20T08:00:00Z'),
  });
  phasePath = c.phasePath(phase.id);
  await db.insert(phaseStudents).values({ phaseId: phase.id, studentId: c.student.id });
  paper = await makeTestWithItems(db, {
    phaseId: phase.id,
    startDate: new Date('2026-11-23T08:00:00.000Z'),
    endDate: new Date('2026-11-23T20:00:00.000Z'),
    grades: [5],
    items: [
      { itemType: 'open', itemAnswers: [], itemCorrectAnswers: null, score: 7 },
      { itemType: 'open', itemAnswers: [], itemCorrectAnswers: null, score: 7 },
    ],
  });
  const [mediator, ...graders] = markers;
  for (const itemId of paper.questions.map((q) => q.id)) {
    ok(
      await call(
        'POST',
        `/resource-mgmt${phasePath}/items/${itemId}/teachers`,
        c.examAdmin.headers,
        { mediatorTeacher: mediator?.id, gradingTeachers: graders.map((g) => g.id) },
      ),
    );
  }
  const url = `/upload-mgmt${phasePath}/tests/${paper.test.id}`;
  for (const q of paper.questions) {
    const form = multipartForm([
      { name: 'item_0', filename: 'lucrare.png', type: 'image/png', value: onePixelPng() },
    ]);
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/v1${url}/items/${q.id}/answers`,
      headers: { ...c.student.headers, ...form.headers },
      payload: form.payload,
    });
    expect(res.statusCode, res.body).toBe(200);
  }
  ok(await call('PUT', `/exam-mgmt${phasePath}/review`, c.examAdmin.headers));
  // First marking: 3 on the first question, 4 on the second, both markers agreeing.
  const entries = await db
    .select()
    .from(reviewEntries)
    .where(eq(reviewEntries.testId, paper.test.id));
  for (const entry of entries) {
    const score = entry.itemId === paper.questions[0]?.id ? 3 : 4;
    const marks = await db.select().from(reviewMarks).where(eq(reviewMarks.parentId, entry.id));
    for (const m of marks) {
      ok(
        await call('PUT', `${base()}/reviews/${entry.id}`, signed(m.reviewerId).headers, {
          reviewerScore: score,
        }),
      );
    }
  }
  await db
    .update(phases)
    .set({
      appealStartDate: new Date('2026-11-23T09:00:00Z'),
      appealEndDate: new Date('2026-11-23T12:00:00Z'),
      appealMinPoints: 1,
    })
    .where(eq(phases.id, phase.id));
}, 300_000);
afterAll(async () => {
  await t?.close();
});

/** The student appeals the question; both re-markers give `score`; the appeal as staff see it. */
async function remark(itemId: string, score: number) {
  ok(
    await call(
      'PUT',
      `/test-review/tests/${paper.test.id}/items/${itemId}/appeal`,
      c.student.headers,
      {
        reason: 'Punctul b este complet.',
      },
    ),
  );
  const [appeal] = await t.database.db
    .select()
    .from(reviewAppeals)
    .where(and(eq(reviewAppeals.testId, paper.test.id), eq(reviewAppeals.itemId, itemId)));
  if (!appeal) throw new Error('no appeal');
  const marks = await t.database.db
    .select()
    .from(reviewMarks)
    .where(eq(reviewMarks.parentId, appeal.id));
  expect(marks).toHaveLength(2);
  let last: ContestationEntry | undefined;
  for (const m of marks) {
    last = ok<ContestationEntry>(
      await call('PUT', `${base()}/appeals/${appeal.id}`, signed(m.reviewerId).headers, {
        reviewerScore: score,
      }),
    );
  }
  return last as ContestationEntry;
}

const points = async () =>
  (
    await t.database.db
      .select()
      .from(testResults)
      .where(and(eq(testResults.testId, paper.test.id), eq(testResults.studentId, c.student.id)))
  )[0]?.points;

describe('the appeal threshold on the whole paper', () => {
  it('keeps a half point alone, and takes two half points of one paper together', async () => {
    const [first, second] = paper.questions.map((q) => q.id) as [string, string];
    expect(await points()).toBe(7);
    const one = await remark(first, 3.5);
    expect(one.appealInfo).toMatchObject({
      status: 'resolved',
      minChangePoints: 1,
      originalScore: 3,
      resultScore: 3.5,
      finalScore: 3,
      outcome: 'kept',
    });
    expect(await points()).toBe(7);

    const two = await remark(second, 4.5);
    expect(two.appealInfo).toMatchObject({ originalScore: 4, finalScore: 4.5, outcome: 'changed' });
    // The paper moved by 1 point: the first appeal's half point counts now too.
    const firstAgain = ok<ContestationEntry[]>(
      await call('GET', `${base()}/appeals?filter=${encodeURIComponent('{}')}`, c.staff.headers),
    ).find((a) => a.itemId === first);
    expect(firstAgain?.appealInfo).toMatchObject({ finalScore: 3.5, outcome: 'changed' });
    expect(await points()).toBe(8);
    const page = ok<StudentResult>(
      await call('GET', `/test-review/tests/${paper.test.id}/items`, c.student.headers),
    );
    expect(page.items.map((i) => [i.finalScore, i.appealOutcome])).toEqual([
      [3.5, 'changed'],
      [4.5, 'changed'],
    ]);
  });
});
