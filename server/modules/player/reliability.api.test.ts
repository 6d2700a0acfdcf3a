import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AnswerAck, PlayerState } from '../../../shared/schemas/player.js';
import { buildApp } from '../../app.js';
import { answers, attempts, auditEvents, testResults } from '../../db/schema.js';
import { createStorage } from '../../lib/files/storage.js';
import { uuidv7 } from '../../lib/ids.js';
import { createMailer } from '../../lib/mail/mailer.js';
import { sha256 } from '../../lib/secrets.js';
import { errorCode } from '../../test/app.js';
import { type AnswerUpsertParams, answerWriter } from '../results/index.js';
import {
  body,
  DURING,
  type fakeClock,
  type Person,
  type PlayerKit,
  playerApp,
} from './player.fixtures.js';
import { playerService } from './player.service.js';

/**
 * Exam-day guarantees (DESIGN.md): one finalisation however many finish calls race, the
 * highest seq wins whatever the arrival order, nothing is written after the answers were
 * scored, and the sweeper finalises overdue attempts with their last acknowledged answers.
 */

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

const db = () => ctx.t.database.db;
/** The player service on the same database and clock, as the server's sweeper runs it. */
const service = () =>
  playerService({
    database: ctx.t.database,
    clock,
    storage: createStorage(ctx.t.config),
    config: ctx.t.config,
  });

/** A new grade-5 student registered for the phase. */
const student = () => kit.student(w);

const attemptOf = async (studentId: string) => {
  const [row] = await db()
    .select()
    .from(attempts)
    .where(and(eq(attempts.testId, w.test.id), eq(attempts.studentId, studentId)));
  return row;
};
/** The student's result in the test, as the results module keeps it. */
const pointsOf = async (studentId: string) => {
  const [row] = await db()
    .select({ points: testResults.points })
    .from(testResults)
    .where(and(eq(testResults.testId, w.test.id), eq(testResults.studentId, studentId)));
  return row === undefined ? undefined : Number(row.points);
};
const finishEvents = async (attemptIds: string[]) =>
  db()
    .select()
    .from(auditEvents)
    .where(
      and(eq(auditEvents.action, 'attempt.finish'), inArray(auditEvents.entityId, attemptIds)),
    );
const storedAnswers = (studentId: string) =>
  db()
    .select()
    .from(answers)
    .where(and(eq(answers.testId, w.test.id), eq(answers.studentId, studentId)));

const shuffle = <T>(items: T[]) => {
  const a = [...items];
  for (let i = a.length - 1; i > 0; i -= 1) {
    const j = Math.floor(Math.random() * (i + 1));
    [a[i], a[j]] = [a[j] as T, a[i] as T];
  }
  return a;
};

describe('Finishing under load', () => {
  it('50 concurrent finish requests: exactly one finalisation and one score', async () => {
    const s = await student();
    await kit.start(s, w.test.id);
    await kit.answer(s, w.test.id, { itemId: w.q.single, submittedAnswer: [1], seq: 1 });
    await kit.answer(s, w.test.id, { itemId: w.q.numeric, submittedAnswer: '3.5', seq: 2 });
    const results = await Promise.all(Array.from({ length: 50 }, () => kit.finish(s, w.test.id)));
    expect(results.map((r) => r.statusCode)).toEqual(Array(50).fill(200));
    const states = results.map((r) => body<PlayerState>(r));
    expect(new Set(states.map((x) => `${x.score}|${x.finishedAt}|${x.finishedBy}`))).toEqual(
      new Set(['40|2026-11-23T09:30:00.000Z|student']),
    );
    const attempt = await attemptOf(s.id);
    expect(attempt).toMatchObject({ state: 'finished' });
    expect(await pointsOf(s.id)).toBe(40);
    expect(await finishEvents([attempt?.id ?? ''])).toHaveLength(1);
  });
});

describe('Answer order', () => {
  it('a stale answer (lower seq) never overwrites a newer one, in any arrival order', async () => {
    const s = await student();
    await kit.start(s, w.test.id);
    const seqs = shuffle(Array.from({ length: 40 }, (_, i) => i + 1));
    const results = await Promise.all(
      seqs.map((seq) =>
        kit.answer(s, w.test.id, { itemId: w.q.single, submittedAnswer: [seq % 3], seq }),
      ),
    );
    for (const [i, res] of results.entries()) {
      expect(res.statusCode).toBe(200);
      // Each ack names a stored seq at least as new as the request's.
      expect(body<AnswerAck>(res).seq).toBeGreaterThanOrEqual(seqs[i] ?? 0);
    }
    const [row] = await storedAnswers(s.id);
    expect(row).toMatchObject({ seq: 40, submittedAnswer: [40 % 3] });
    const late = await kit.answer(s, w.test.id, {
      itemId: w.q.single,
      submittedAnswer: [2],
      seq: 39,
    });
    expect(body<AnswerAck>(late).seq).toBe(40);
    const [after] = await storedAnswers(s.id);
    expect(after).toMatchObject({ seq: 40, submittedAnswer: [1] });
  });

  it('answers racing a finish: every acknowledged answer is scored, none lands after', async () => {
    const s = await student();
    await kit.start(s, w.test.id);
    const writes = Array.from({ length: 30 }, (_, i) => ({
      itemId: [w.q.single, w.q.multiple, w.q.numeric][i % 3] ?? '',
      submittedAnswer: i % 3 === 2 ? '3.5' : i % 3 === 1 ? [0, 2] : [1],
      seq: i + 1,
    }));
    const calls = writes.map((payload) => kit.answer(s, w.test.id, payload));
    calls.splice(15, 0, kit.finish(s, w.test.id));
    const results = await Promise.all(calls);
    const finish = results.splice(15, 1)[0];
    expect(finish?.statusCode).toBe(200);
    const acked = results.flatMap((res, i) => (res.statusCode === 200 ? [writes[i]] : []));
    for (const res of results) {
      if (res.statusCode !== 200) expect(errorCode(res)).toBe('TEST_ALREADY_REVIEWED');
    }
    const stored = await storedAnswers(s.id);
    for (const write of acked) {
      const row = stored.find((r) => r.questionId === write?.itemId);
      expect(row?.seq).toBeGreaterThanOrEqual(write?.seq ?? 0);
    }
    // Every stored answer was scored by the one finalisation: nothing was written after it.
    for (const row of stored) expect(row.score).not.toBeNull();
    const sum = stored.reduce((total, row) => total + (row.score ?? 0), 0);
    expect(await pointsOf(s.id)).toBe(sum);
    const again = await kit.answer(s, w.test.id, {
      itemId: w.q.single,
      submittedAnswer: [0],
      seq: 1000,
    });
    expect(errorCode(again)).toBe('TEST_ALREADY_REVIEWED');
  });
});

describe('Answers written together', () => {
  /** The arguments the service gives the writer for one answer, at the test's clock. */
  function write(
    headers: Person['headers'],
    itemId: string,
    answer: number[] | string,
    seq: number,
  ) {
    const now = clock.now();
    const token = (headers.authorization ?? '').replace('Bearer ', '');
    return [
      sha256(token),
      now.toISOString(),
      new Date(now.getTime() - 10_000).toISOString(),
      w.test.id,
      itemId,
      JSON.stringify(answer),
      seq,
      uuidv7(now.getTime()),
      Array.isArray(answer) ? 'array' : 'string',
      answer.length,
      Array.isArray(answer) ? Math.max(-1, ...answer) : -1,
    ] satisfies AnswerUpsertParams;
  }
  /**
   * A typed answer as stored: drizzle parses jsonb text once more on PGlite, which hands it
   * over parsed already, so the string "3.5" reads back as a number there.
   */
  const typed = (value: unknown) => (typeof value === 'number' ? String(value) : value);
  const groups: { size: number; together: boolean }[] = [];
  const writer = () =>
    answerWriter(ctx.t.database, {
      inFlight: 1,
      onGroup: (size, together) => groups.push({ size, together }),
    });
  afterEach(() => {
    groups.length = 0;
  });

  it('gives every answer of a group its own outcome, as if it were written alone', async () => {
    const [a, b, c, d, finished] = await Promise.all([
      student(),
      student(),
      student(),
      student(),
      student(),
    ]);
    for (const s of [a, b, c, d, finished] as Person[]) await kit.start(s, w.test.id);
    await kit.answer(d as Person, w.test.id, { itemId: w.q.single, submittedAnswer: [2], seq: 7 });
    await kit.finish(finished as Person, w.test.id);
    const writeAnswer = writer();
    const first = writeAnswer(write((a as Person).headers, w.q.open, 'first', 1));
    // While the first runs alone, the others wait and go together.
    const outcomes = await Promise.all([
      first,
      writeAnswer(write((a as Person).headers, w.q.single, [1], 2)),
      writeAnswer(write((b as Person).headers, w.q.multiple, [0, 2], 1)),
      writeAnswer(write((b as Person).headers, w.q.single, [5], 2)), // no option 5
      writeAnswer(write((c as Person).headers, w.q.multiple, 'b', 1)), // text for a choice
      writeAnswer(write((c as Person).headers, w.q.numeric, '3.5', 2)),
      writeAnswer(write((d as Person).headers, w.q.single, [0], 3)), // older than the stored 7
      writeAnswer(write((finished as Person).headers, w.q.single, [1], 1)),
    ]);
    expect(groups).toEqual([
      { size: 1, together: true },
      { size: 7, together: true },
    ]);
    expect(outcomes.map((o) => o?.seq ?? null)).toEqual([1, 2, 1, null, null, 2, null, null]);
    const deadline = Date.parse('2026-11-23T10:30:00.000Z');
    for (const o of outcomes) if (o) expect(o.deadlineMs).toBe(deadline);

    const stored = async (s: Person | undefined) =>
      (await storedAnswers(s?.id ?? ''))
        .map((row) => [row.questionId, typed(row.submittedAnswer), row.seq])
        .sort((x, y) => String(x[0]).localeCompare(String(y[0])));
    const sorted = (rows: unknown[][]) =>
      rows.sort((x, y) => String(x[0]).localeCompare(String(y[0])));
    expect(await stored(a)).toEqual(
      sorted([
        [w.q.open, 'first', 1],
        [w.q.single, [1], 2],
      ]),
    );
    expect(await stored(b)).toEqual([[w.q.multiple, [0, 2], 1]]);
    expect(await stored(c)).toEqual([[w.q.numeric, '3.5', 2]]);
    expect(await stored(d)).toEqual([[w.q.single, [2], 7]]);
    // The finish gave each of its items a row for its score; no answer was written after it.
    expect(
      (await stored(finished)).filter(([, answer, seq]) => answer !== null || seq !== 0),
    ).toEqual([]);
  });

  it('keeps one answer per item and session in a group; the next one goes in the next group', async () => {
    const s = await student();
    await kit.start(s, w.test.id);
    const writeAnswer = writer();
    const outcomes = await Promise.all([
      writeAnswer(write(s.headers, w.q.open, 'alone', 1)),
      writeAnswer(write(s.headers, w.q.single, [0], 2)),
      writeAnswer(write(s.headers, w.q.single, [1], 3)),
      writeAnswer(write(s.headers, w.q.multiple, [3], 4)),
    ]);
    expect(groups.map((g) => g.size)).toEqual([1, 2, 1]);
    expect(outcomes.map((o) => o?.seq)).toEqual([1, 2, 3, 4]);
    const single = (await storedAnswers(s.id)).find((row) => row.questionId === w.q.single);
    expect(single).toMatchObject({ seq: 3, submittedAnswer: [1] });
  });

  it('writes answer by answer when a group cannot go as one statement (one student, two devices)', async () => {
    const s = await student();
    await kit.start(s, w.test.id);
    const phone = await ctx.t.login(s.email, 'parola-buna-123');
    const writeAnswer = writer();
    const outcomes = await Promise.all([
      writeAnswer(write(s.headers, w.q.open, 'alone', 1)),
      writeAnswer(write(s.headers, w.q.numeric, '3', 2)),
      writeAnswer(write(phone, w.q.numeric, '3.5', 3)),
    ]);
    // The same answer row twice in one statement is an error: each went on its own.
    expect(groups).toEqual([
      { size: 1, together: true },
      { size: 2, together: false },
    ]);
    expect(outcomes.map((o) => o?.seq)).toEqual([1, 2, 3]);
    const numeric = (await storedAnswers(s.id)).find((row) => row.questionId === w.q.numeric);
    expect(numeric?.seq).toBe(3);
    expect(typed(numeric?.submittedAnswer)).toBe('3.5');
  });
});

describe('Sweeper', () => {
  it('finalises overdue attempts with their last answers, at the deadline, once', async () => {
    const overdue = await Promise.all([student(), student(), student()]);
    const running = await student();
    for (const s of overdue) await kit.start(s, w.test.id);
    await kit.answer(overdue[0] as Person, w.test.id, {
      itemId: w.q.single,
      submittedAnswer: [0],
      seq: 1,
    });
    await kit.answer(overdue[0] as Person, w.test.id, {
      itemId: w.q.single,
      submittedAnswer: [1],
      seq: 2,
    });
    await kit.answer(overdue[1] as Person, w.test.id, {
      itemId: w.q.multiple,
      submittedAnswer: [0, 2],
      seq: 1,
    });
    clock.set('2026-11-23T10:00:00.000Z');
    await kit.start(running, w.test.id); // deadline 11:00

    clock.set('2026-11-23T10:30:05.000Z');
    // Within the grace: nothing to do yet.
    expect(await service().sweep()).toBe(0);

    clock.set('2026-11-23T10:30:11.000Z');
    // Several instances sweeping at once finalise each attempt exactly once.
    const counts = await Promise.all([service().sweep(), service().sweep(), service().sweep()]);
    expect(counts.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(3);
    const rows = await Promise.all(overdue.map((s) => attemptOf(s.id)));
    for (const row of rows) {
      expect(row).toMatchObject({ state: 'finished', finishedBy: 'sweeper' });
      expect(row?.finishedAt?.toISOString()).toBe('2026-11-23T10:30:00.000Z');
    }
    expect(await Promise.all(overdue.map((s) => pointsOf(s.id)))).toEqual([10, 20, 0]);
    expect(await finishEvents(rows.map((r) => r?.id ?? ''))).toHaveLength(3);
    expect(await attemptOf(running.id)).toMatchObject({ state: 'in_progress' });
    expect(await service().sweep()).toBe(0);

    const seen = body<PlayerState>(await kit.state(overdue[0] as Person, w.test.id));
    expect(seen).toMatchObject({ state: 'finished', score: 10, finishedBy: 'sweeper' });
  });

  it('runs when a server starts, reconciling what a crash left overdue', async () => {
    const s = await student();
    await kit.start(s, w.test.id);
    await kit.answer(s, w.test.id, { itemId: w.q.numeric, submittedAnswer: '3.50', seq: 5 });
    clock.set('2026-11-23T11:00:00.000Z');
    expect(await attemptOf(s.id)).toMatchObject({ state: 'in_progress' });

    const restarted = await buildApp({
      config: ctx.t.config,
      database: ctx.t.database,
      mailer: createMailer(ctx.t.config, { info: () => {} }),
      storage: createStorage(ctx.t.config),
      clock,
      logger: false,
      runJobs: true,
    });
    await restarted.ready();
    await restarted.close();
    expect(await attemptOf(s.id)).toMatchObject({ state: 'finished', finishedBy: 'sweeper' });
    expect(await pointsOf(s.id)).toBe(30);
  });
});
