import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type {
  MyTest,
  PlayerItemsResponse,
  PlayerState,
  StartResponse,
} from '../../../shared/schemas/player.js';
import {
  myTestSchema,
  playerItemSchema,
  startResponseSchema,
} from '../../../shared/schemas/player.js';
import { phaseStudents, sessions, tests, users } from '../../db/schema.js';
import { errorCode } from '../../test/app.js';
import { stableItemOrder } from './player.dto.js';
import {
  body,
  DURING,
  type fakeClock,
  type PlayerKit,
  playerApp,
  TEST_END,
  TEST_START,
} from './player.fixtures.js';

/** The online player's main journey: My tests, start, answers, finish, results. */

let ctx: Awaited<ReturnType<typeof playerApp>>;
let kit: PlayerKit;
let clock: ReturnType<typeof fakeClock>;
let w: Awaited<ReturnType<PlayerKit['world']>>;

beforeAll(async () => {
  ctx = await playerApp(DURING);
  kit = ctx.kit;
  clock = ctx.clock;
  w = await kit.world();
});
afterAll(() => ctx.t.close());
// Tests move the server's clock; each starts back in the middle of the test window.
afterEach(() => clock.set(DURING));

const myTest = async (who: Parameters<PlayerKit['myTests']>[0], testId: string) => {
  const res = await kit.myTests(who);
  expect(res.statusCode).toBe(200);
  // My tests is sent as JSON text it makes itself: exactly the schema's shape, nothing more.
  for (const t of body<MyTest[]>(res)) myTestSchema.strict().parse(t);
  return body<MyTest[]>(res).find((t) => t.testId === testId);
};

describe('My tests', () => {
  it('lists the student’s test with its competition, window and state through the day', async () => {
    clock.set('2026-11-23T08:30:00.000Z');
    const upcoming = await myTest(w.bob, w.test.id);
    expect(upcoming).toMatchObject({
      name: w.test.name,
      subject: 'Matematică',
      grades: [5, 6],
      type: 'online',
      examName: w.exam.name,
      editionName: w.edition.name,
      phaseName: w.phase.name,
      startDate: TEST_START,
      endDate: TEST_END,
      duration: 60,
      totalScore: 100,
      state: 'upcoming',
      score: null,
      timer: null,
    });
    clock.set(DURING);
    expect((await myTest(w.bob, w.test.id))?.state).toBe('open');
    clock.set('2026-11-23T12:00:00.000Z');
    expect((await myTest(w.bob, w.test.id))?.state).toBe('missed');
    clock.set(DURING);
  });

  it('shows nothing of a test for another grade, another phase or one not published', async () => {
    for (const who of [w.carol, w.dan]) {
      const res = await kit.myTests(who);
      expect(res.statusCode).toBe(200);
      expect(body<MyTest[]>(res).map((t) => t.testId)).not.toContain(w.test.id);
    }
  });

  it('is for students only', async () => {
    expect((await kit.myTests(w.staff)).statusCode).toBe(403);
    const res = await ctx.t.app.inject({ method: 'GET', url: '/api/v1/test-player/mytests' });
    expect(res.statusCode).toBe(401);
  });
});

describe('Starting', () => {
  it('needs the terms accepted the first time', async () => {
    const res = await kit.start(w.alice, w.test.id, {});
    expect(res.statusCode).toBe(400);
    expect(errorCode(res)).toBe('VALIDATION_FAILED');
    expect(body(res).error).toMatchObject({
      details: [{ code: 'required', path: ['termsAccepted'] }],
    });
    const noBody = await ctx.t.app.inject({
      method: 'POST',
      url: `/api/v1/test-player/mytests/${w.test.id}`,
      headers: w.alice.headers,
    });
    expect(errorCode(noBody)).toBe('VALIDATION_FAILED');
    expect((await kit.state(w.alice, w.test.id)).json()).toMatchObject({ state: 'not_started' });
  });

  it('starts with the server’s timer and the items in the student’s stable order, without correct answers', async () => {
    const res = await kit.start(w.alice, w.test.id);
    expect(res.statusCode).toBe(200);
    const started = body<StartResponse>(res);
    expect(started).toMatchObject({
      testId: w.test.id,
      state: 'in_progress',
      timer: 3600,
      subject: 'Matematică',
      grade: [5, 6],
      testName: w.test.name,
      startedAt: DURING,
      deadline: '2026-11-23T10:30:00.000Z',
      serverNow: DURING,
    });
    expect(started.shuffledStudentItems).toHaveLength(4);
    expect(new Set(started.shuffledStudentItems.map((i) => i.itemId))).toEqual(
      new Set(Object.values(w.q)),
    );
    expect(started.shuffledStudentItems.map((i) => i.position)).toEqual([1, 2, 3, 4]);
    const multiple = started.shuffledStudentItems.find((i) => i.itemId === w.q.multiple);
    // Options in the question's own order: answers are indices into this list.
    expect(multiple).toMatchObject({
      itemType: 'multiple',
      itemAnswers: ['a', 'b', 'c', 'd'],
      score: 20,
      submittedAnswer: null,
      seq: 0,
    });
    expect(res.body).not.toContain('itemCorrectAnswers');
    expect(res.body).not.toContain('3.5');
  });

  it('is idempotent: a second start returns the same attempt with the remaining time', async () => {
    const first = body<StartResponse>(await kit.start(w.alice, w.test.id));
    clock.advance(600);
    const again = await kit.start(w.alice, w.test.id, {});
    expect(again.statusCode).toBe(200);
    const second = body<StartResponse>(again);
    expect(second.attemptId).toBe(first.attemptId);
    expect(second.timer).toBe(first.timer - 600);
    expect(second.deadline).toBe(first.deadline);
    expect(second.shuffledStudentItems.map((i) => i.itemId)).toEqual(
      first.shuffledStudentItems.map((i) => i.itemId),
    );
    clock.set(DURING);
  });

  it('answers a new attempt with the same document as a resumed one, in the schema’s shape', async () => {
    const s = await kit.student(w);
    // The first start is joined from texts written once per test; a resume is serialised.
    const fresh = await kit.start(s, w.test.id);
    const resumed = await kit.start(s, w.test.id, {});
    expect(fresh.statusCode).toBe(200);
    expect(fresh.headers['content-type']).toBe(resumed.headers['content-type']);
    expect(fresh.json()).toEqual(resumed.json());
    const parsed = startResponseSchema.strict().parse(fresh.json());
    for (const item of parsed.shuffledStudentItems) playerItemSchema.strict().parse(item);
    expect(parsed.shuffledStudentItems.map((i) => i.position)).toEqual(
      parsed.shuffledStudentItems.map((_, i) => i + 1),
    );
    expect(
      parsed.shuffledStudentItems.every((i) => i.submittedAnswer === null && i.seq === 0),
    ).toBe(true);
  });

  it('gives each student their own order of the same items', async () => {
    const orders = new Set<string>();
    const seen = new Set<string>();
    for (let i = 0; i < 6; i += 1) {
      const s = await kit.person({ type: 'student', grade: 6 });
      const { makeEnrolment } = await import('../../db/factories.js');
      await makeEnrolment(ctx.t.database.db, {
        editionId: w.edition.id,
        studentId: s.id,
        grade: 6,
        phaseIds: [w.phase.id],
      });
      const started = body<StartResponse>(await kit.start(s, w.test.id));
      const order = started.shuffledStudentItems.map((it) => it.itemId);
      for (const id of order) seen.add(id);
      orders.add(order.join(','));
      // The order the database drew is the one an appeal reproduces from the seed.
      expect(order).toEqual(stableItemOrder(w.test.seed, s.id, Object.values(w.q)));
    }
    expect(seen.size).toBe(4);
    expect(orders.size).toBeGreaterThan(1);
  });

  it('refuses outside the test window (TEST_NOT_ACTIVE)', async () => {
    const s = await kit.person({ type: 'student', grade: 5 });
    const { makeEnrolment } = await import('../../db/factories.js');
    await makeEnrolment(ctx.t.database.db, {
      editionId: w.edition.id,
      studentId: s.id,
      grade: 5,
      phaseIds: [w.phase.id],
    });
    clock.set('2026-11-23T08:59:59.000Z');
    const early = await kit.start(s, w.test.id);
    expect(early.statusCode).toBe(409);
    expect(errorCode(early)).toBe('TEST_NOT_ACTIVE');
    expect(body<PlayerState>(await kit.state(s, w.test.id))).toMatchObject({
      state: 'not_started',
      window: 'upcoming',
    });
    clock.set(TEST_END);
    const late = await kit.start(s, w.test.id);
    expect(errorCode(late)).toBe('TEST_NOT_ACTIVE');
    clock.set(DURING);
  });

  it('ends at the test’s end when less than the duration is left', async () => {
    const s = await kit.person({ type: 'student', grade: 5 });
    const { makeEnrolment } = await import('../../db/factories.js');
    await makeEnrolment(ctx.t.database.db, {
      editionId: w.edition.id,
      studentId: s.id,
      grade: 5,
      phaseIds: [w.phase.id],
    });
    clock.set('2026-11-23T11:40:00.000Z');
    const started = body<StartResponse>(await kit.start(s, w.test.id));
    expect(started.deadline).toBe(TEST_END);
    expect(started.timer).toBe(20 * 60);
    clock.set(DURING);
  });
});

describe('Answering', () => {
  it('acknowledges an answer after saving it, and the start shows it afterwards', async () => {
    const res = await kit.answer(w.alice, w.test.id, {
      itemId: w.q.single,
      submittedAnswer: [1],
      seq: 1,
    });
    expect(res.statusCode).toBe(200);
    const started = body<StartResponse>(await kit.start(w.alice, w.test.id));
    expect(body(res)).toEqual({
      itemId: w.q.single,
      seq: 1,
      savedAt: DURING,
      deadline: started.deadline,
    });
    const items = body<StartResponse>(await kit.start(w.alice, w.test.id)).shuffledStudentItems;
    expect(items.find((i) => i.itemId === w.q.single)).toMatchObject({
      submittedAnswer: [1],
      seq: 1,
    });
  });

  it('keeps the highest seq: an older write changes nothing and acks the stored seq', async () => {
    const newer = await kit.answer(w.alice, w.test.id, {
      itemId: w.q.multiple,
      submittedAnswer: [0, 2],
      seq: 7,
    });
    expect(body(newer)).toMatchObject({ seq: 7 });
    const stale = await kit.answer(w.alice, w.test.id, {
      itemId: w.q.multiple,
      submittedAnswer: [3],
      seq: 5,
    });
    expect(stale.statusCode).toBe(200);
    expect(body(stale)).toMatchObject({ itemId: w.q.multiple, seq: 7 });
    const repeated = await kit.answer(w.alice, w.test.id, {
      itemId: w.q.multiple,
      submittedAnswer: [1],
      seq: 7,
    });
    expect(body(repeated)).toMatchObject({ seq: 7 });
    const items = body<PlayerItemsResponse>(await kit.items(w.alice, w.test.id)).items;
    expect(items.find((i) => i.itemId === w.q.multiple)).toMatchObject({
      submittedAnswer: [0, 2],
      seq: 7,
    });
  });

  it('takes the typed value for numeric items and text for open ones, and null to clear', async () => {
    for (const [itemId, submittedAnswer, seq] of [
      [w.q.numeric, '3,50', 2],
      [w.q.open, 'Pentru că $x^2 \\ge 0$.', 3],
      [w.q.single, null, 4],
      [w.q.single, [1], 8],
    ] as const) {
      const res = await kit.answer(w.alice, w.test.id, { itemId, submittedAnswer, seq });
      expect(res.statusCode).toBe(200);
    }
  });

  it('refuses an answer that does not fit the item, or an item not in the test', async () => {
    const cases: [string, unknown, string][] = [
      [w.q.single, [3], 'submittedAnswer'], // only options 0–2
      [w.q.single, [0, 1], 'submittedAnswer'], // single choice
      [w.q.single, '1', 'submittedAnswer'],
      [w.q.numeric, [1], 'submittedAnswer'],
      [w.q.numeric, '1'.repeat(51), 'submittedAnswer'],
      [w.q.multiple, [0, 0], 'submittedAnswer'],
      [w.q.multiple, [-1], 'submittedAnswer'],
      [crypto.randomUUID(), [0], 'itemId'],
    ];
    for (const [itemId, submittedAnswer, field] of cases) {
      const res = await kit.answer(w.alice, w.test.id, { itemId, submittedAnswer, seq: 100 });
      expect(res.statusCode, JSON.stringify(submittedAnswer)).toBe(400);
      expect(errorCode(res)).toBe('VALIDATION_FAILED');
      const details = body<{ error: { details: { path: string[] }[] } }>(res).error.details;
      expect(details.some((d) => d.path.includes(field))).toBe(true);
    }
    const badSeq = await kit.answer(w.alice, w.test.id, {
      itemId: w.q.single,
      submittedAnswer: [0],
      seq: 0,
    });
    expect(errorCode(badSeq)).toBe('VALIDATION_FAILED');
    const extraField = await kit.answer(w.alice, w.test.id, {
      itemId: w.q.single,
      submittedAnswer: [0],
      seq: 100,
      clientTime: '2026-11-23T08:00:00Z',
    });
    expect(errorCode(extraField)).toBe('VALIDATION_FAILED');
    // Nothing of the refused writes was stored.
    const items = body<PlayerItemsResponse>(await kit.items(w.alice, w.test.id)).items;
    expect(items.find((i) => i.itemId === w.q.single)).toMatchObject({
      submittedAnswer: [1],
      seq: 8,
    });
  });

  it('refuses an answer before the test is started (TEST_NOT_ACTIVE)', async () => {
    const res = await kit.answer(w.bob, w.test.id, {
      itemId: w.q.single,
      submittedAnswer: [1],
      seq: 1,
    });
    expect(res.statusCode).toBe(409);
    expect(errorCode(res)).toBe('TEST_NOT_ACTIVE');
  });

  it('needs a signed-in student', async () => {
    const anonymous = await ctx.t.app.inject({
      method: 'PUT',
      url: `/api/v1/test-player/mytests/${w.test.id}`,
      payload: { itemId: w.q.single, submittedAnswer: [1], seq: 50 },
    });
    expect(anonymous.statusCode).toBe(401);
    const badToken = await ctx.t.app.inject({
      method: 'PUT',
      url: `/api/v1/test-player/mytests/${w.test.id}`,
      headers: { authorization: 'Bearer nope' },
      payload: { itemId: w.q.single, submittedAnswer: [1], seq: 50 },
    });
    expect(badToken.statusCode).toBe(401);
    const teacher = await kit.answer(w.staff, w.test.id, {
      itemId: w.q.single,
      submittedAnswer: [1],
      seq: 50,
    });
    expect(teacher.statusCode).toBe(403);
  });
});

describe('Answering as SPEC.md §7 writes the body', () => {
  it('takes an answer without seq as newer than what is stored for the item', async () => {
    const own = await kit.world();
    expect((await kit.start(own.alice, own.test.id)).statusCode).toBe(200);
    const first = await kit.answer(own.alice, own.test.id, {
      itemId: own.q.single,
      submittedAnswer: [0],
    });
    expect(first.statusCode).toBe(200);
    expect(body(first)).toMatchObject({ itemId: own.q.single, seq: 1 });
    const numbered = await kit.answer(own.alice, own.test.id, {
      itemId: own.q.single,
      submittedAnswer: [1],
      seq: 40,
    });
    expect(body(numbered)).toMatchObject({ seq: 40 });
    const plain = await kit.answer(own.alice, own.test.id, {
      itemId: own.q.single,
      submittedAnswer: [2],
    });
    expect(body(plain)).toMatchObject({ seq: 41 });
    const items = body<PlayerItemsResponse>(await kit.items(own.alice, own.test.id)).items;
    expect(items.find((i) => i.itemId === own.q.single)).toMatchObject({
      submittedAnswer: [2],
      seq: 41,
    });
    // Without seq the body is still checked, and nothing changes on a refusal.
    const wrong = await kit.answer(own.alice, own.test.id, {
      itemId: own.q.single,
      submittedAnswer: [9],
    });
    expect(wrong.statusCode).toBe(400);
    expect(errorCode(wrong)).toBe('VALIDATION_FAILED');
    const after = body<PlayerItemsResponse>(await kit.items(own.alice, own.test.id)).items;
    expect(after.find((i) => i.itemId === own.q.single)).toMatchObject({ seq: 41 });
  });
});

describe('Finishing', () => {
  it('scores the online test at once: full item score for an exact match, else 0', async () => {
    clock.advance(120);
    const res = await kit.finish(w.alice, w.test.id);
    expect(res.statusCode).toBe(200);
    // single [1] ✓ 10, multiple [0,2] ✓ 20, numeric '3,50' = 3.5 ✓ 30, open: marked by people.
    expect(body<PlayerState>(res)).toMatchObject({
      state: 'finished',
      score: 60,
      timer: 0,
      finishedBy: 'student',
      finishedAt: '2026-11-23T09:32:00.000Z',
    });
    expect(body<PlayerState>(await kit.state(w.alice, w.test.id))).toMatchObject({
      state: 'finished',
      score: 60,
    });
    expect(await myTest(w.alice, w.test.id)).toMatchObject({
      state: 'result_available',
      score: 60,
    });
  });

  it('is final: a write, a start and a second finish after it', async () => {
    const write = await kit.answer(w.alice, w.test.id, {
      itemId: w.q.single,
      submittedAnswer: [0],
      seq: 99,
    });
    expect(write.statusCode).toBe(409);
    expect(errorCode(write)).toBe('TEST_ALREADY_REVIEWED');
    const start = await kit.start(w.alice, w.test.id);
    expect(errorCode(start)).toBe('TEST_ALREADY_REVIEWED');
    const again = await kit.finish(w.alice, w.test.id);
    expect(again.statusCode).toBe(200);
    expect(body<PlayerState>(again)).toMatchObject({
      score: 60,
      finishedAt: '2026-11-23T09:32:00.000Z',
    });
  });

  it('keeps correct answers hidden until the test is over for everyone', async () => {
    const during = await kit.items(w.alice, w.test.id);
    expect(body<PlayerItemsResponse>(during)).toMatchObject({ state: 'finished', reviewed: false });
    expect(during.body).not.toContain('itemCorrectAnswers');
    expect(during.body).not.toContain('awardedScore');
  });

  it('refuses finishing a test never started (TEST_NOT_ACTIVE)', async () => {
    const res = await kit.finish(w.bob, w.test.id);
    expect(errorCode(res)).toBe('TEST_NOT_ACTIVE');
  });

  it('shows the correct answers and earned points once the test has ended and nobody writes', async () => {
    clock.set('2026-11-23T13:00:00.000Z');
    const res = await kit.items(w.alice, w.test.id);
    const reviewed = body<PlayerItemsResponse>(res);
    expect(reviewed.reviewed).toBe(true);
    const byId = new Map(reviewed.items.map((i) => [i.itemId, i]));
    expect(byId.get(w.q.single)).toMatchObject({ itemCorrectAnswers: [1], awardedScore: 10 });
    expect(byId.get(w.q.multiple)).toMatchObject({ itemCorrectAnswers: [0, 2], awardedScore: 20 });
    expect(byId.get(w.q.numeric)).toMatchObject({ itemCorrectAnswers: '3.5', awardedScore: 30 });
    expect(byId.get(w.q.open)).toMatchObject({ awardedScore: null });
    clock.set(DURING);
  });
});

describe('Scope', () => {
  it('answers 404 for a test that is not the student’s, whatever the call', async () => {
    for (const who of [w.carol, w.dan]) {
      for (const res of [
        await kit.start(who, w.test.id),
        await kit.state(who, w.test.id),
        await kit.items(who, w.test.id),
        await kit.finish(who, w.test.id),
        await kit.answer(who, w.test.id, { itemId: w.q.single, submittedAnswer: [1], seq: 1 }),
      ]) {
        expect(res.statusCode).toBe(404);
      }
    }
    const unknown = await kit.state(w.alice, crypto.randomUUID());
    expect(unknown.statusCode).toBe(404);
  });

  it('never shows one student another’s answers', async () => {
    const bobStart = body<StartResponse>(await kit.start(w.bob, w.test.id));
    expect(
      bobStart.shuffledStudentItems.every((i) => i.submittedAnswer === null && i.seq === 0),
    ).toBe(true);
    // Bob's write on an item Alice answered is his own row; hers stays as it was.
    const res = await kit.answer(w.bob, w.test.id, {
      itemId: w.q.single,
      submittedAnswer: [2],
      seq: 1,
    });
    expect(body(res)).toMatchObject({ seq: 1 });
    const aliceItems = body<PlayerItemsResponse>(await kit.items(w.alice, w.test.id)).items;
    expect(aliceItems.find((i) => i.itemId === w.q.single)).toMatchObject({
      submittedAnswer: [1],
      seq: 8,
    });
  });

  it('answers 404 for a test that is not published', async () => {
    const other = await kit.world({ published: false });
    expect((await kit.start(other.alice, other.test.id)).statusCode).toBe(404);
    expect((await kit.state(other.alice, other.test.id)).statusCode).toBe(404);
  });

  it('publishes, registers and signs in on fresh rows: a refusal is never kept in memory', async () => {
    const other = await kit.world({ published: false });
    // Unpublished: 404, and the test's facts are now in the server's memory.
    expect((await kit.start(other.alice, other.test.id)).statusCode).toBe(404);
    await ctx.t.database.db
      .update(tests)
      .set({ published: true })
      .where(eq(tests.id, other.test.id));
    expect((await kit.start(other.alice, other.test.id)).statusCode).toBe(200);
    // Not in the phase, then added to it: the second start works at once.
    expect((await kit.start(other.dan, other.test.id)).statusCode).toBe(404);
    await ctx.t.database.db
      .insert(phaseStudents)
      .values({ phaseId: other.phase.id, studentId: other.dan.id, source: 'enrolment' });
    expect((await kit.start(other.dan, other.test.id)).statusCode).toBe(200);
    // A teacher, no session, a revoked one, an inactive student: 403, 401, 401, 403.
    expect((await kit.start(other.staff, other.test.id)).statusCode).toBe(403);
    const url = `/api/v1/test-player/mytests/${other.test.id}`;
    const payload = { termsAccepted: true };
    expect((await ctx.t.app.inject({ method: 'POST', url, payload })).statusCode).toBe(401);
    const bobHeaders = other.bob.headers;
    await ctx.t.database.db
      .update(users)
      .set({ state: 'inactive' })
      .where(eq(users.id, other.bob.id));
    const inactive = await kit.start(other.bob, other.test.id);
    expect(inactive.statusCode).toBe(403);
    expect(errorCode(inactive)).toBe('OPERATION_NOT_PERMITTED');
    await ctx.t.database.db
      .update(sessions)
      .set({ revokedAt: clock.now() })
      .where(eq(sessions.userId, other.bob.id));
    const revoked = await ctx.t.app.inject({ method: 'POST', url, payload, headers: bobHeaders });
    expect(revoked.statusCode).toBe(401);
  });

  it('sends hybrid tests to the upload service (403 on start and answers)', async () => {
    const hybrid = await kit.world({ phaseType: 'hybrid' });
    const list = body<MyTest[]>(await kit.myTests(hybrid.alice));
    expect(list.find((t) => t.testId === hybrid.test.id)).toMatchObject({
      type: 'hybrid',
      state: 'open',
    });
    const start = await kit.start(hybrid.alice, hybrid.test.id);
    expect(start.statusCode).toBe(403);
    expect(errorCode(start)).toBe('OPERATION_NOT_PERMITTED');
    const write = await kit.answer(hybrid.alice, hybrid.test.id, {
      itemId: hybrid.q.single,
      submittedAnswer: [1],
      seq: 1,
    });
    expect(write.statusCode).toBe(403);
    clock.set(TEST_END);
    const after = body<MyTest[]>(await kit.myTests(hybrid.alice));
    expect(after.find((t) => t.testId === hybrid.test.id)?.state).toBe('missed');
    clock.set(DURING);
  });
});
