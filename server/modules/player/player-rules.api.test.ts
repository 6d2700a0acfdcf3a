import { and, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type {
  Incident,
  MyTest,
  PlayerState,
  StartResponse,
} from '../../../shared/schemas/player.js';
import { auditEvents, files, questions } from '../../db/schema.js';
import { createStorage } from '../../lib/files/storage.js';
import { uuidv7 } from '../../lib/ids.js';
import { errorCode } from '../../test/app.js';
import {
  body,
  DURING,
  type fakeClock,
  type Person,
  type PlayerKit,
  playerApp,
  TEST_END,
} from './player.fixtures.js';

/** Deadlines, the grace for answers in flight, the server's clock, and incidents. */

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
afterEach(() => clock.set(DURING));

/** A new grade-5 student registered for the phase. */
const student = () => kit.student(w);

const state = async (who: Person) => body<PlayerState>(await kit.state(who, w.test.id));
const auditOf = (action: string) =>
  ctx.t.database.db
    .select()
    .from(auditEvents)
    .where(and(eq(auditEvents.action, action), eq(auditEvents.entityType, 'attempt')));

describe('Deadline and grace', () => {
  it('accepts answers in flight within the grace, then refuses them and finalises at the deadline', async () => {
    const s = await student();
    const started = body<StartResponse>(await kit.start(s, w.test.id));
    expect(started.deadline).toBe('2026-11-23T10:30:00.000Z');
    await kit.answer(s, w.test.id, { itemId: w.q.single, submittedAnswer: [0], seq: 1 });

    clock.set('2026-11-23T10:30:09.000Z'); // 9 s after the deadline, grace is 10 s
    const inFlight = await kit.answer(s, w.test.id, {
      itemId: w.q.single,
      submittedAnswer: [1],
      seq: 2,
    });
    expect(inFlight.statusCode).toBe(200);
    expect(await state(s)).toMatchObject({ state: 'in_progress', timer: 0 });

    clock.set('2026-11-23T10:30:10.001Z');
    const late = await kit.answer(s, w.test.id, {
      itemId: w.q.multiple,
      submittedAnswer: [0, 2],
      seq: 3,
    });
    expect(late.statusCode).toBe(409);
    expect(errorCode(late)).toBe('TEST_NOT_ACTIVE');
    // The late read finalised it with the last acknowledged answers, at the deadline.
    expect(await state(s)).toMatchObject({
      state: 'finished',
      score: 10,
      finishedBy: 'sweeper',
      finishedAt: '2026-11-23T10:30:00.000Z',
    });
    const again = await kit.start(s, w.test.id);
    expect(errorCode(again)).toBe('TEST_ALREADY_REVIEWED');
  });

  it('records the deadline as the finish time when the student finishes within the grace', async () => {
    const s = await student();
    await kit.start(s, w.test.id);
    clock.set('2026-11-23T10:30:05.000Z');
    const res = await kit.finish(s, w.test.id);
    expect(body<PlayerState>(res)).toMatchObject({
      state: 'finished',
      finishedBy: 'student',
      finishedAt: '2026-11-23T10:30:00.000Z',
    });
  });

  it('ignores the client’s clock: an hour off changes neither the timer nor the deadline', async () => {
    const honest = await student();
    const skewed = await student();
    const ahead = {
      ...skewed.headers,
      date: new Date(Date.parse(DURING) + 3_600_000).toUTCString(),
    };
    const behind = {
      ...skewed.headers,
      date: new Date(Date.parse(DURING) - 3_600_000).toUTCString(),
    };
    const a = body<StartResponse>(await kit.start(honest, w.test.id));
    const b = body<StartResponse>(
      await kit.call('POST', `/mytests/${w.test.id}`, ahead, { termsAccepted: true }),
    );
    expect(b.timer).toBe(a.timer);
    expect(b.deadline).toBe(a.deadline);
    expect(b.serverNow).toBe(DURING);

    clock.set('2026-11-23T10:31:00.000Z');
    // A client whose clock says it is still early is refused all the same.
    const late = await kit.call('PUT', `/mytests/${w.test.id}`, behind, {
      itemId: w.q.single,
      submittedAnswer: [1],
      seq: 1,
    });
    expect(errorCode(late)).toBe('TEST_NOT_ACTIVE');
    const s = body<PlayerState>(await kit.call('GET', `/mytests/${w.test.id}/state`, behind));
    expect(s).toMatchObject({ state: 'finished', serverNow: '2026-11-23T10:31:00.000Z' });
  });

  it('shows the running attempt in My tests with the server’s remaining time', async () => {
    const s = await student();
    await kit.start(s, w.test.id);
    clock.advance(125);
    const mine = body<MyTest[]>(await kit.myTests(s)).find((t) => t.testId === w.test.id);
    expect(mine).toMatchObject({ state: 'in_progress', timer: 3600 - 125, score: null });
  });
});

describe('Extra time', () => {
  it('adds minutes to one student’s deadline, audited, visible in their next state', async () => {
    const s = await student();
    const other = await student();
    await kit.start(s, w.test.id);
    await kit.start(other, w.test.id);
    clock.advance(600);
    const res = await kit.extraTime(w.staff, w.test.id, s.id, {
      minutes: 15,
      reason: 'Calculatorul s-a blocat',
    });
    expect(res.statusCode).toBe(200);
    expect(body<Incident>(res)).toMatchObject({
      studentId: s.id,
      state: 'in_progress',
      deadline: '2026-11-23T10:45:00.000Z',
      timer: 3000 + 900,
      extraSeconds: 900,
    });
    expect((await state(s)).timer).toBe(3900);
    expect((await state(other)).timer).toBe(3000);

    const events = (await auditOf('attempt.extra_time')).filter((e) => e.actorId === w.staff.id);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      reason: 'Calculatorul s-a blocat',
      before: { deadlineAt: '2026-11-23T10:30:00.000Z', extraSeconds: 0 },
      after: { deadlineAt: '2026-11-23T10:45:00.000Z', extraSeconds: 900 },
    });

    // Past the original deadline, within the new one: still accepted; the other is not.
    clock.set('2026-11-23T10:40:00.000Z');
    const ok = await kit.answer(s, w.test.id, { itemId: w.q.single, submittedAnswer: [1], seq: 1 });
    expect(ok.statusCode).toBe(200);
    // The ack carries the new deadline: the student's timer moves with their next answer.
    expect(body<{ deadline: string }>(ok).deadline).toBe('2026-11-23T10:45:00.000Z');
    // A repeated (stale) write is acked with it too.
    const again = await kit.answer(s, w.test.id, {
      itemId: w.q.single,
      submittedAnswer: [1],
      seq: 1,
    });
    expect(body<{ deadline: string; seq: number }>(again)).toMatchObject({
      seq: 1,
      deadline: '2026-11-23T10:45:00.000Z',
    });
    const refused = await kit.answer(other, w.test.id, {
      itemId: w.q.single,
      submittedAnswer: [1],
      seq: 1,
    });
    expect(errorCode(refused)).toBe('TEST_NOT_ACTIVE');
  });

  it('may go past the test’s end', async () => {
    const s = await student();
    clock.set('2026-11-23T11:50:00.000Z');
    await kit.start(s, w.test.id);
    const res = await kit.extraTime(w.examAdmin, w.test.id, s.id, {
      minutes: 5,
      reason: 'Pană de curent',
    });
    expect(body<Incident>(res)).toMatchObject({ deadline: '2026-11-23T12:05:00.000Z', timer: 900 });
    clock.set('2026-11-23T12:03:00.000Z');
    const ok = await kit.answer(s, w.test.id, { itemId: w.q.single, submittedAnswer: [1], seq: 1 });
    expect(ok.statusCode).toBe(200);
  });

  it('is for admins, the exam’s admin teachers and staff', async () => {
    const s = await student();
    await kit.start(s, w.test.id);
    const payload = { minutes: 1, reason: 'Motiv întemeiat' };
    expect((await kit.extraTime(w.admin, w.test.id, s.id, payload)).statusCode).toBe(200);
    expect((await kit.extraTime(w.examAdmin, w.test.id, s.id, payload)).statusCode).toBe(200);
    const coordinator = await kit.extraTime(w.coordinator, w.test.id, s.id, payload);
    expect(coordinator.statusCode).toBe(403);
    expect(errorCode(coordinator)).toBe('OPERATION_NOT_PERMITTED');
    expect((await kit.extraTime(w.outsider, w.test.id, s.id, payload)).statusCode).toBe(404);
    expect((await kit.extraTime(s, w.test.id, s.id, payload)).statusCode).toBe(403);
    expect(
      (
        await kit.reopen(w.coordinator, w.test.id, s.id, {
          remainingSeconds: 60,
          reason: 'Motiv întemeiat',
        })
      ).statusCode,
    ).toBe(403);
    expect(
      (
        await kit.reopen(w.outsider, w.test.id, s.id, {
          remainingSeconds: 60,
          reason: 'Motiv întemeiat',
        })
      ).statusCode,
    ).toBe(404);
    expect(
      (await kit.reopen(s, w.test.id, s.id, { remainingSeconds: 60, reason: 'Motiv întemeiat' }))
        .statusCode,
    ).toBe(403);
    expect((await state(s)).timer).toBe(3600 + 120);
  });

  it('answers 404 for a student without an attempt or a test that does not exist', async () => {
    const s = await student();
    const payload = { minutes: 5, reason: 'Motiv întemeiat' };
    expect((await kit.extraTime(w.staff, w.test.id, s.id, payload)).statusCode).toBe(404);
    expect((await kit.extraTime(w.staff, crypto.randomUUID(), s.id, payload)).statusCode).toBe(404);
    expect(
      (
        await kit.reopen(w.staff, w.test.id, s.id, {
          remainingSeconds: 60,
          reason: 'Motiv întemeiat',
        })
      ).statusCode,
    ).toBe(404);
  });

  it('refuses an attempt already over (TEST_ALREADY_REVIEWED): reopen it instead', async () => {
    const finished = await student();
    await kit.start(finished, w.test.id);
    await kit.finish(finished, w.test.id);
    const payload = { minutes: 5, reason: 'Motiv întemeiat' };
    const res = await kit.extraTime(w.staff, w.test.id, finished.id, payload);
    expect(res.statusCode).toBe(409);
    expect(errorCode(res)).toBe('TEST_ALREADY_REVIEWED');

    // Past deadline plus grace but not yet swept: finalised, then refused the same way.
    const overdue = await student();
    await kit.start(overdue, w.test.id);
    clock.set('2026-11-23T10:31:00.000Z');
    const late = await kit.extraTime(w.staff, w.test.id, overdue.id, payload);
    expect(errorCode(late)).toBe('TEST_ALREADY_REVIEWED');
    expect(await state(overdue)).toMatchObject({ state: 'finished', finishedBy: 'sweeper' });
  });

  it('validates its body', async () => {
    const s = await student();
    await kit.start(s, w.test.id);
    for (const payload of [
      { minutes: 0, reason: 'Motiv întemeiat' },
      { minutes: 1.5, reason: 'Motiv întemeiat' },
      { minutes: 5 },
      { minutes: 5, reason: 'ab' },
    ]) {
      const res = await kit.extraTime(w.staff, w.test.id, s.id, payload);
      expect(errorCode(res)).toBe('VALIDATION_FAILED');
    }
    for (const payload of [
      { remainingSeconds: 0, reason: 'Motiv întemeiat' },
      { reason: 'Motiv întemeiat' },
    ]) {
      expect(errorCode(await kit.reopen(w.staff, w.test.id, s.id, payload))).toBe(
        'VALIDATION_FAILED',
      );
    }
  });
});

describe('Reopening', () => {
  it('reopens a finished attempt with exactly the given time left, answers kept, audited', async () => {
    const s = await student();
    await kit.start(s, w.test.id);
    await kit.answer(s, w.test.id, { itemId: w.q.single, submittedAnswer: [1], seq: 1 });
    await kit.answer(s, w.test.id, { itemId: w.q.multiple, submittedAnswer: [0], seq: 2 });
    await kit.finish(s, w.test.id);
    expect((await state(s)).score).toBe(10);

    // After the test's end, too: the incident was proven later.
    clock.set('2026-11-23T13:00:00.000Z');
    const res = await kit.reopen(w.staff, w.test.id, s.id, {
      remainingSeconds: 754,
      reason: 'Rețeaua școlii a căzut',
    });
    expect(res.statusCode).toBe(200);
    expect(body<Incident>(res)).toMatchObject({
      state: 'in_progress',
      timer: 754,
      deadline: '2026-11-23T13:12:34.000Z',
    });
    expect(await state(s)).toMatchObject({
      state: 'in_progress',
      timer: 754,
      score: null,
      finishedAt: null,
    });
    const resumed = body<StartResponse>(await kit.start(s, w.test.id));
    expect(resumed.timer).toBe(754);
    expect(resumed.shuffledStudentItems.find((i) => i.itemId === w.q.single)).toMatchObject({
      submittedAnswer: [1],
      seq: 1,
    });

    const fix = await kit.answer(s, w.test.id, {
      itemId: w.q.multiple,
      submittedAnswer: [2, 0],
      seq: 3,
    });
    expect(fix.statusCode).toBe(200);
    const finished = body<PlayerState>(await kit.finish(s, w.test.id));
    expect(finished).toMatchObject({ state: 'finished', score: 30, finishedBy: 'student' });

    const events = (await auditOf('attempt.reopen')).filter((e) => e.actorId === w.staff.id);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      reason: 'Rețeaua școlii a căzut',
      before: { state: 'finished', score: 10, finishedBy: 'student' },
      after: { state: 'in_progress', remainingSeconds: 754 },
    });
  });

  it('sets a running attempt’s remaining time to exactly the given seconds', async () => {
    const s = await student();
    await kit.start(s, w.test.id);
    const res = await kit.reopen(w.admin, w.test.id, s.id, {
      remainingSeconds: 90,
      reason: 'Motiv întemeiat',
    });
    expect(body<Incident>(res)).toMatchObject({ state: 'in_progress', timer: 90 });
    clock.set(new Date(Date.parse(DURING) + 101_000).toISOString());
    expect(await state(s)).toMatchObject({ state: 'finished', finishedBy: 'sweeper' });
  });
});

describe('Window edge', () => {
  it('refuses a start exactly at the test’s end', async () => {
    const s = await student();
    clock.set(TEST_END);
    expect(errorCode(await kit.start(s, w.test.id))).toBe('TEST_NOT_ACTIVE');
  });
});

describe('Statement images', () => {
  async function storeImage() {
    const id = uuidv7();
    const data = Buffer.from('89504e470d0a1a0a', 'hex');
    await createStorage(ctx.t.config).put(`test-images/${id}`, data, 'image/png');
    await ctx.t.database.db.insert(files).values({
      id,
      storageKey: `test-images/${id}`,
      mime: 'image/png',
      size: data.length,
      sha256: 'x',
    });
    return { id, data };
  }

  it('serves an image of the student’s test once started, and nothing else', async () => {
    const shown = await storeImage();
    const inText = await storeImage();
    const unrelated = await storeImage();
    await ctx.t.database.db
      .update(questions)
      .set({ imageFileId: shown.id })
      .where(eq(questions.id, w.q.single));
    await ctx.t.database.db
      .update(questions)
      .set({ itemQ: `Figura: ![](/api/v1/resource-mgmt/files/${inText.id})` })
      .where(eq(questions.id, w.q.numeric));
    // Statements are served from memory for a few seconds: let an earlier start's copy age.
    clock.advance(6);
    const s = await student();
    const url = (fileId: string) => `/mytests/${w.test.id}/files/${fileId}`;

    expect((await kit.call('GET', url(shown.id), s.headers)).statusCode).toBe(404);
    const started = body<StartResponse>(await kit.start(s, w.test.id));
    expect(started.shuffledStudentItems.find((i) => i.itemId === w.q.single)?.imageFileId).toBe(
      shown.id,
    );
    for (const file of [shown, inText]) {
      const res = await kit.call('GET', url(file.id), s.headers);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('image/png');
      expect(res.rawPayload.equals(file.data)).toBe(true);
    }
    expect((await kit.call('GET', url(unrelated.id), s.headers)).statusCode).toBe(404);
    expect((await kit.call('GET', url(shown.id), w.carol.headers)).statusCode).toBe(404);
  });
});
