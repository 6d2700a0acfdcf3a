import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PhaseStudentListItem } from '../../../shared/schemas/exams.js';
import type { MyTest, PlayerState } from '../../../shared/schemas/player.js';
import type { StudentItems } from '../../../shared/schemas/uploads.js';
import { answers, auditEvents, phaseResults, testResults } from '../../db/schema.js';
import { errorCode } from '../../test/app.js';
import {
  body,
  DEFAULT_ITEMS,
  type Headers,
  type Person,
  type PlayerKit,
  playerApp,
} from '../player/player.fixtures.js';

/**
 * The results module as users meet it (issue: scores get one owner): what a finish shows when
 * open items wait for marking, provisional results inside an appeal window, phase totals that
 * follow a change of an item's worth, admission by rule on complete totals only, and the
 * staff's view of a student's answers with every item type.
 */

let ctx: Awaited<ReturnType<typeof playerApp>>;
let kit: PlayerKit;
let w: Awaited<ReturnType<PlayerKit['world']>>;

beforeAll(async () => {
  ctx = await playerApp();
  kit = ctx.kit;
  w = await kit.world();
});
afterAll(async () => {
  await ctx?.t.close();
});

const db = () => ctx.t.database.db;
const inject = (method: string, url: string, headers: Headers, payload?: unknown) =>
  ctx.t.app.inject({
    method: method as 'GET',
    url,
    headers,
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
const phaseUrl = () =>
  `/api/v1/exam-mgmt/exams/${w.exam.id}/editions/${w.edition.id}/phases/${w.phase.id}`;
const testUrl = () =>
  `/api/v1/test-mgmt/exams/${w.exam.id}/editions/${w.edition.id}/phases/${w.phase.id}/tests/${w.test.id}`;

/** A student who answers every item: choices and numeric right, open item written. */
async function sitWholeTest(s: Person, open: string | null = 'x = 2, deci 5') {
  expect((await kit.start(s, w.test.id)).statusCode).toBe(200);
  await kit.answer(s, w.test.id, { itemId: w.q.single, submittedAnswer: [1], seq: 1 });
  await kit.answer(s, w.test.id, { itemId: w.q.multiple, submittedAnswer: [0, 2], seq: 2 });
  await kit.answer(s, w.test.id, { itemId: w.q.numeric, submittedAnswer: '3,5', seq: 3 });
  if (open !== null) {
    await kit.answer(s, w.test.id, { itemId: w.q.open, submittedAnswer: open, seq: 4 });
  }
}

const myTest = async (s: Person) =>
  body<MyTest[]>(await kit.myTests(s)).find((t) => t.testId === w.test.id);

const phaseRow = async (studentId: string) => {
  const res = await inject(
    'GET',
    `${phaseUrl()}/students?filter=${encodeURIComponent(JSON.stringify({ where: { studentId } }))}`,
    w.admin.headers,
  );
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as PhaseStudentListItem[])[0];
};

describe('a finished attempt whose open item waits for marking', () => {
  it('shows the points already known as such, with how many items wait', async () => {
    const s = await kit.student(w);
    await sitWholeTest(s);
    const finished = body<PlayerState>(await kit.finish(s, w.test.id));
    // 10 + 20 + 30 known; the open item (worth 40) waits for people.
    expect(finished).toMatchObject({
      state: 'finished',
      score: 60,
      scoreState: 'awaiting_marking',
      awaitingItems: 1,
    });
    expect(body<PlayerState>(await kit.state(s, w.test.id))).toMatchObject({
      score: 60,
      scoreState: 'awaiting_marking',
      awaitingItems: 1,
    });
    expect(await myTest(s)).toMatchObject({
      state: 'result_available',
      score: 60,
      scoreState: 'awaiting_marking',
      awaitingItems: 1,
      totalScore: 100,
    });
    // Every item has its row: three decided from the key, the open one awaiting.
    const rows = await db()
      .select()
      .from(answers)
      .where(and(eq(answers.testId, w.test.id), eq(answers.studentId, s.id)));
    expect(rows.map((r) => [r.questionId, r.scoreState, r.scoreOrigin, r.score]).sort()).toEqual(
      [
        [w.q.single, 'decided', 'auto', 10],
        [w.q.multiple, 'decided', 'auto', 20],
        [w.q.numeric, 'decided', 'auto', 30],
        [w.q.open, 'awaiting_marking', null, null],
      ].sort(),
    );
    expect((await phaseRow(s.id))?.awaitingItems).toBe(1);
  });

  it('is final when nothing waits: a blank open item earns 0, items never answered too', async () => {
    const s = await kit.student(w);
    await kit.start(s, w.test.id);
    await kit.answer(s, w.test.id, { itemId: w.q.single, submittedAnswer: [1], seq: 1 });
    await kit.answer(s, w.test.id, { itemId: w.q.open, submittedAnswer: '   ', seq: 2 });
    expect(body<PlayerState>(await kit.finish(s, w.test.id))).toMatchObject({
      score: 10,
      scoreState: 'final',
      awaitingItems: 0,
    });
    const rows = await db()
      .select()
      .from(answers)
      .where(and(eq(answers.testId, w.test.id), eq(answers.studentId, s.id)));
    expect(rows).toHaveLength(DEFAULT_ITEMS.length);
    expect(rows.every((r) => r.scoreState === 'decided')).toBe(true);
  });
});

describe('provisional results inside the appeal window', () => {
  it('are provisional while the window is ahead or open, final once it has ended', async () => {
    const setWindow = (start: string | null, end: string | null) =>
      inject('PATCH', phaseUrl(), w.admin.headers, {
        appealStartDate: start,
        appealEndDate: end,
      });
    const s = await kit.student(w);
    await sitWholeTest(s, null);
    expect((await setWindow('2026-11-25T08:00:00Z', '2026-11-26T08:00:00Z')).statusCode).toBe(200);
    expect(body<PlayerState>(await kit.finish(s, w.test.id))).toMatchObject({
      score: 60,
      scoreState: 'provisional',
    });
    expect(await myTest(s)).toMatchObject({ scoreState: 'provisional', awaitingItems: 0 });
    ctx.clock.set('2026-11-25T12:00:00.000Z');
    expect(await myTest(s)).toMatchObject({ scoreState: 'provisional' });
    ctx.clock.set('2026-11-26T08:00:01.000Z');
    expect(await myTest(s)).toMatchObject({ score: 60, scoreState: 'final' });
    // A window needs both ends, start before end; bad input changes nothing.
    for (const [start, end] of [
      ['2026-11-27T08:00:00Z', null],
      ['2026-11-28T08:00:00Z', '2026-11-27T08:00:00Z'],
    ] as const) {
      const res = await setWindow(start, end);
      expect(res.statusCode).toBe(400);
      expect(errorCode(res)).toBe('INVALID_PHASE_DATES');
    }
    expect((await setWindow(null, null)).statusCode).toBe(200);
    ctx.clock.set('2026-11-23T09:30:00.000Z');
  });
});

describe("an item's worth", () => {
  const setPoints = (who: Person, assignedItems: { itemId: string; score: number }[]) =>
    inject('PUT', `${testUrl()}/items`, who.headers, { assignedItems });
  const points = (single: number, multiple: number, numeric: number, open: number) => [
    { itemId: w.q.single, score: single },
    { itemId: w.q.multiple, score: multiple },
    { itemId: w.q.numeric, score: numeric },
    { itemId: w.q.open, score: open },
  ];

  it('must add up to the total, every item once; bad input changes nothing', async () => {
    const cases: [unknown[], string, string][] = [
      [points(10, 20, 30, 41), 'VALIDATION_FAILED', 'score_sum'],
      [points(10, 20, 30, 40).slice(1), 'VALIDATION_FAILED', 'invalid'],
      [
        [...points(10, 20, 30, 40).slice(1), { itemId: w.dan.id, score: 10 }],
        'VALIDATION_FAILED',
        'invalid',
      ],
      [points(0, 30, 30, 40), 'VALIDATION_FAILED', 'not_positive'],
      [points(10.005, 19.995, 30, 40), 'VALIDATION_FAILED', 'invalid'],
    ];
    for (const [assigned, code, field] of cases) {
      const res = await inject('PUT', `${testUrl()}/items`, w.admin.headers, {
        assignedItems: assigned,
      });
      expect(res.statusCode, JSON.stringify(assigned)).toBe(400);
      expect(errorCode(res)).toBe(code);
      expect(JSON.stringify(res.json())).toContain(field);
    }
    const staffTry = await setPoints(w.staff, points(40, 20, 30, 10));
    expect(staffTry.statusCode).toBe(403);
    const details = await inject('GET', `${testUrl()}/details`, w.admin.headers);
    expect((details.json() as { assignedItems: unknown }).assignedItems).toEqual(
      points(10, 20, 30, 40),
    );
  });

  it('rescores the attempts already scored, and the phase total follows, audited', async () => {
    const s = await kit.student(w);
    await sitWholeTest(s, null);
    expect(body<PlayerState>(await kit.finish(s, w.test.id)).score).toBe(60);
    expect((await phaseRow(s.id))?.total).toBe(60);

    const res = await setPoints(w.examAdmin, points(25, 20, 15, 40));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ rescoredItems: expect.any(Number) });
    expect((res.json() as { rescoredStudents: number }).rescoredStudents).toBeGreaterThan(0);
    expect(await myTest(s)).toMatchObject({ score: 60 - 10 - 30 + 25 + 15 });
    expect((await phaseRow(s.id))?.total).toBe(60);
    const [tr] = await db()
      .select()
      .from(testResults)
      .where(and(eq(testResults.testId, w.test.id), eq(testResults.studentId, s.id)));
    const [pr] = await db()
      .select()
      .from(phaseResults)
      .where(and(eq(phaseResults.phaseId, w.phase.id), eq(phaseResults.studentId, s.id)));
    expect([Number(tr?.points), Number(pr?.points)]).toEqual([60, 60]);

    // Now single wrong for the next student: the totals move with the item's worth.
    const other = await kit.student(w);
    await kit.start(other, w.test.id);
    await kit.answer(other, w.test.id, { itemId: w.q.single, submittedAnswer: [1], seq: 1 });
    await kit.finish(other, w.test.id);
    expect((await phaseRow(other.id))?.total).toBe(25);
    expect((await setPoints(w.admin, points(5, 20, 35, 40))).statusCode).toBe(200);
    expect((await phaseRow(other.id))?.total).toBe(5);
    expect((await phaseRow(s.id))?.total).toBe(60);

    const events = await db()
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, 'test.points'), eq(auditEvents.entityId, w.test.id)));
    expect(events).toHaveLength(2);
    expect(events[0]?.actorId).toBe(w.examAdmin.id);
  });

  it('is fixed once people have marked one of its answers (ITEM_ALREADY_MARKED)', async () => {
    const s = await kit.student(w);
    await sitWholeTest(s);
    await kit.finish(s, w.test.id);
    // The marking module will write this; here the row is set as a reviewer's mark would.
    await db()
      .update(answers)
      .set({ score: 31, scoreOrigin: 'marked', scoreState: 'decided' })
      .where(
        and(
          eq(answers.testId, w.test.id),
          eq(answers.studentId, s.id),
          eq(answers.questionId, w.q.open),
        ),
      );
    const res = await setPoints(w.admin, points(5, 20, 30, 45));
    expect(res.statusCode).toBe(409);
    expect(errorCode(res)).toBe('ITEM_ALREADY_MARKED');
    // Other items may still change.
    expect((await setPoints(w.admin, points(10, 15, 35, 40))).statusCode).toBe(200);
    expect((await setPoints(w.admin, points(10, 20, 30, 40))).statusCode).toBe(200);
  });
});

describe('admission by rule', () => {
  it('refuses while items wait for marking or attempts run, then admits by N and by X with ties', async () => {
    // A world of its own: its phase's students are exactly these.
    const v = await kit.world({ items: DEFAULT_ITEMS.slice(0, 3) });
    const url = `/api/v1/exam-mgmt/exams/${v.exam.id}/editions/${v.edition.id}/phases/${v.phase.id}/students`;
    const sit = async (s: Person, answersRight: ('single' | 'multiple' | 'numeric')[]) => {
      await kit.start(s, v.test.id);
      let seq = 0;
      const right = { single: [1], multiple: [0, 2], numeric: '3.5' } as const;
      for (const item of answersRight) {
        seq += 1;
        await kit.answer(s, v.test.id, { itemId: v.q[item], submittedAnswer: right[item], seq });
      }
    };
    const students = [v.alice, v.bob, ...(await Promise.all([1, 2, 3].map(() => kit.student(v))))];
    const [a, b, c, d, e] = students as [Person, Person, Person, Person, Person];
    await sit(a, ['single', 'multiple', 'numeric']); // 60
    await sit(b, ['multiple', 'numeric']); // 50
    await sit(c, ['multiple', 'numeric']); // 50 (tied with b)
    await sit(d, ['single']); // 10
    await sit(e, []); // 0
    for (const s of [a, b, c, d]) await kit.finish(s, v.test.id);

    // e is still writing.
    const running = await inject('POST', `${url}/admit-top`, v.admin.headers, { count: 2 });
    expect(running.statusCode).toBe(409);
    expect(errorCode(running)).toBe('RESULTS_INCOMPLETE');
    expect(running.json()).toMatchObject({ error: { details: { runningAttempts: 1 } } });
    await kit.finish(e, v.test.id);

    const top = await inject('POST', `${url}/admit-top`, v.admin.headers, { count: 2 });
    expect(top.statusCode, top.body).toBe(200);
    // The best 2: a (60), then b and c tied at 50 both go on.
    expect(top.json()).toEqual({ admittedCount: 3 });
    const admitted = async () => {
      const res = await inject(
        'GET',
        `${url}?filter=${encodeURIComponent(
          JSON.stringify({ where: { status: 'admitted' }, order: 'total DESC', limit: 50 }),
        )}`,
        v.admin.headers,
      );
      return (res.json() as PhaseStudentListItem[]).map((r) => [r.studentId, r.total]);
    };
    expect(await admitted()).toEqual([
      [a.id, 60],
      ...[
        [b.id, 50],
        [c.id, 50],
      ].sort((x, y) => String(x[0]).localeCompare(String(y[0]))),
    ]);
    // The list sorts and filters on totals.
    const low = await inject(
      'GET',
      `${url}?filter=${encodeURIComponent(JSON.stringify({ where: { total: { lt: 20 } }, order: 'total ASC' }))}`,
      v.admin.headers,
    );
    expect((low.json() as PhaseStudentListItem[]).map((r) => r.total)).toEqual([0, 10]);

    const threshold = await inject('POST', `${url}/admit-threshold`, v.admin.headers, {
      minScore: 10,
    });
    expect(threshold.json()).toEqual({ admittedCount: 1 });
    expect((await admitted()).map(([id]) => id)).toContain(d.id);
    expect((await admitted()).map(([id]) => id)).not.toContain(e.id);
  });

  it('refuses while an open item waits for marking, whatever the rule', async () => {
    const v = await kit.world();
    await kit.start(v.alice, v.test.id);
    await kit.answer(v.alice, v.test.id, {
      itemId: v.q.open,
      submittedAnswer: 'demonstrație',
      seq: 1,
    });
    await kit.finish(v.alice, v.test.id);
    const url = `/api/v1/exam-mgmt/exams/${v.exam.id}/editions/${v.edition.id}/phases/${v.phase.id}/students`;
    for (const [path, payload] of [
      ['admit-top', { count: 5 }],
      ['admit-threshold', { minScore: 0, grade: 5 }],
    ] as const) {
      const res = await inject('POST', `${url}/${path}`, v.admin.headers, payload);
      expect(res.statusCode).toBe(409);
      expect(res.json()).toMatchObject({
        error: { code: 'RESULTS_INCOMPLETE', details: { awaitingItems: 1, studentsAwaiting: 1 } },
      });
    }
    // Another grade's tests are not waiting: its admissions go on.
    const other = await inject('POST', `${url}/admit-top`, v.admin.headers, { count: 5, grade: 8 });
    expect(other.json()).toEqual({ admittedCount: 0 });
  });
});

describe("the staff's view of a student's answers", () => {
  it('shows every item type of an online test, the typed number as typed', async () => {
    const s = await kit.student(w);
    await sitWholeTest(s);
    await kit.finish(s, w.test.id);
    const url = `/api/v1/upload-mgmt/exams/${w.exam.id}/editions/${w.edition.id}/phases/${w.phase.id}/tests/${w.test.id}/students/${s.id}/items`;
    const res = await inject('GET', url, w.admin.headers);
    expect(res.statusCode, res.body).toBe(200);
    const view = res.json() as StudentItems;
    const byItem = new Map(view.items.map((i) => [i.itemId, i]));
    expect(byItem.get(w.q.single)?.answer).toMatchObject({ submittedAnswer: [1], score: 10 });
    expect(byItem.get(w.q.multiple)?.answer).toMatchObject({ submittedAnswer: [0, 2] });
    expect(byItem.get(w.q.numeric)).toMatchObject({
      itemCorrectAnswers: '3.5',
      answer: { submittedAnswer: '3,5', score: 30 },
    });
    expect(byItem.get(w.q.open)).toMatchObject({
      itemCorrectAnswers: null,
      answer: { submittedAnswer: 'x = 2, deci 5', score: null },
    });
    expect(view.score).toBe(60);
  });
});
