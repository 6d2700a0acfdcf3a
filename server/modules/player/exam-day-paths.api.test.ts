import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Actor } from '../../lib/auth-guard.js';
import { AppError } from '../../lib/errors.js';
import { createStorage } from '../../lib/files/storage.js';
import { uuidv7 } from '../../lib/ids.js';
import { errorCode } from '../../test/app.js';
import { DURING, type Person, type PlayerKit, playerApp, TEST_START } from './player.fixtures.js';
import { playerService } from './player.service.js';

/**
 * Exam day's fast path (player.exam-day.ts) and the careful path (player.attempts.ts) must
 * refuse the same requests: each request below goes through the fast function (which must do
 * nothing and hand over), the careful function (which must refuse with the code), and HTTP
 * (which must answer that code).
 */

let ctx: Awaited<ReturnType<typeof playerApp>>;
let kit: PlayerKit;
let w: Awaited<ReturnType<PlayerKit['world']>>;
let unpublished: Awaited<ReturnType<PlayerKit['world']>>;
let hybrid: Awaited<ReturnType<PlayerKit['world']>>;

beforeAll(async () => {
  ctx = await playerApp(DURING);
  kit = ctx.kit;
  w = await kit.world();
  unpublished = await kit.world({ published: false });
  hybrid = await kit.world({ phaseType: 'hybrid' });
});
afterAll(() => ctx.t.close());

const player = () =>
  playerService({
    database: ctx.t.database,
    clock: ctx.clock,
    storage: createStorage(ctx.t.config),
    config: ctx.t.config,
  });
const tokenOf = (p: Person) => (p.headers.authorization ?? '').replace('Bearer ', '');
const actorOf = (p: Person): Actor => ({
  id: p.id,
  email: p.email,
  type: 'student',
  state: 'active',
  registered: true,
  sessionId: uuidv7(),
});
const codeOfRejection = async (promise: Promise<unknown>) => {
  try {
    await promise;
  } catch (error) {
    if (error instanceof AppError) return error.code;
    throw error;
  }
  return 'no refusal';
};

type Call = 'start' | 'answer' | 'finish';
type Case = {
  name: string;
  call: Call;
  /** Who asks, on which test, with what body; prepared right before the request. */
  prepare: () => Promise<{ who: Person; testId: string; body?: Record<string, unknown> }>;
  code: string;
  at?: string;
};

const started = async (who?: Person) => {
  const s = who ?? (await kit.student(w));
  expect((await kit.start(s, w.test.id)).statusCode).toBe(200);
  return s;
};
const finished = async () => {
  const s = await started();
  await kit.finish(s, w.test.id);
  return s;
};
const single = (seq = 1, answer: unknown = [1]) => ({
  itemId: w.q.single,
  submittedAnswer: answer,
  seq,
});

const CASES: Case[] = [
  {
    name: 'a start by a student not in the phase',
    call: 'start',
    prepare: async () => ({ who: w.dan, testId: w.test.id }),
    code: 'NOT_FOUND',
  },
  {
    name: 'a start of another grade’s test',
    call: 'start',
    prepare: async () => ({ who: w.carol, testId: w.test.id }),
    code: 'NOT_FOUND',
  },
  {
    name: 'a start of an unpublished test',
    call: 'start',
    prepare: async () => ({ who: unpublished.alice, testId: unpublished.test.id }),
    code: 'NOT_FOUND',
  },
  {
    name: 'a start of a hybrid test',
    call: 'start',
    prepare: async () => ({ who: hybrid.alice, testId: hybrid.test.id }),
    code: 'OPERATION_NOT_PERMITTED',
  },
  {
    name: 'a first start without the terms accepted',
    call: 'start',
    prepare: async () => ({ who: await kit.student(w), testId: w.test.id, body: {} }),
    code: 'VALIDATION_FAILED',
  },
  {
    name: 'a start before the window opens',
    call: 'start',
    prepare: async () => ({ who: await kit.student(w), testId: w.test.id }),
    code: 'TEST_NOT_ACTIVE',
    at: '2026-11-23T08:59:00.000Z',
  },
  {
    name: 'a start once finished',
    call: 'start',
    prepare: async () => ({ who: await finished(), testId: w.test.id }),
    code: 'TEST_ALREADY_REVIEWED',
  },
  {
    name: 'an answer before the start',
    call: 'answer',
    prepare: async () => ({ who: await kit.student(w), testId: w.test.id, body: single() }),
    code: 'TEST_NOT_ACTIVE',
  },
  {
    name: 'an answer to an item not in the attempt',
    call: 'answer',
    prepare: async () => ({
      who: await started(),
      testId: w.test.id,
      body: { itemId: unpublished.q.single, submittedAnswer: [1], seq: 1 },
    }),
    code: 'VALIDATION_FAILED',
  },
  {
    name: 'an answer whose shape does not fit the item',
    call: 'answer',
    prepare: async () => ({ who: await started(), testId: w.test.id, body: single(1, [7]) }),
    code: 'VALIDATION_FAILED',
  },
  {
    name: 'an answer after the finish',
    call: 'answer',
    prepare: async () => ({ who: await finished(), testId: w.test.id, body: single(9) }),
    code: 'TEST_ALREADY_REVIEWED',
  },
  {
    name: 'an answer past the deadline and its grace',
    call: 'answer',
    prepare: async () => {
      ctx.clock.set(TEST_START);
      const s = await started();
      ctx.clock.set('2026-11-23T10:00:11.000Z');
      return { who: s, testId: w.test.id, body: single() };
    },
    code: 'TEST_NOT_ACTIVE',
  },
  {
    name: 'an answer by a student not in the phase',
    call: 'answer',
    prepare: async () => ({ who: w.dan, testId: w.test.id, body: single() }),
    code: 'NOT_FOUND',
  },
  {
    name: 'a finish before the start',
    call: 'finish',
    prepare: async () => ({ who: await kit.student(w), testId: w.test.id }),
    code: 'TEST_NOT_ACTIVE',
  },
  {
    name: 'a finish by a student not in the phase',
    call: 'finish',
    prepare: async () => ({ who: w.dan, testId: w.test.id }),
    code: 'NOT_FOUND',
  },
  {
    name: 'a finish of a hybrid test',
    call: 'finish',
    prepare: async () => ({ who: hybrid.alice, testId: hybrid.test.id }),
    code: 'OPERATION_NOT_PERMITTED',
  },
];

describe('the fast and the careful path refuse alike', () => {
  it.each(CASES)('$name: $code', async ({ call, prepare, code, at }) => {
    ctx.clock.set(at ?? DURING);
    const { who, testId, body = call === 'start' ? { termsAccepted: true } : {} } = await prepare();
    const p = player();
    const token = tokenOf(who);
    const fast =
      call === 'start'
        ? p.tryStart(token, testId, body)
        : call === 'answer'
          ? p.tryAnswer(token, testId, body as never)
          : p.tryFinish(token, testId);
    expect(await fast).toBeNull();
    const careful =
      call === 'start'
        ? p.start(actorOf(who), testId, body)
        : call === 'answer'
          ? p.explainAnswer(actorOf(who), token, testId, body as never)
          : p.finish(actorOf(who), testId);
    expect(await codeOfRejection(careful)).toBe(code);
    const res =
      call === 'start'
        ? await kit.start(who, testId, body)
        : call === 'answer'
          ? await kit.answer(who, testId, body)
          : await kit.finish(who, testId);
    expect(errorCode(res)).toBe(code);
    ctx.clock.set(DURING);
  });
});
