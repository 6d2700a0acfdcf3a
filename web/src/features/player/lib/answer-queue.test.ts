import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AnswerAck, SubmittedAnswer } from '../../../../../shared/schemas/player.js';
import { createAnswerQueue, type FailureKind, saveStatus } from './answer-queue.js';
import { type AnswerStore, memoryAnswerStore, type PendingAnswer } from './answer-store.js';
import { backoffDelay } from './backoff.js';
import { restoreAnswers } from './restore.js';

/** A server that keeps, per item, the answer with the highest seq (as test-player does). */
function fakeServer() {
  const stored = new Map<string, { submittedAnswer: SubmittedAnswer; seq: number }>();
  let down = false;
  let ended = false;
  const requests: PendingAnswer[] = [];
  return {
    stored,
    requests,
    setDown(value: boolean) {
      down = value;
    },
    end() {
      ended = true;
    },
    async send(answer: PendingAnswer): Promise<AnswerAck> {
      requests.push(answer);
      await Promise.resolve();
      if (down) throw new Error('network');
      if (ended) throw new Error('ended');
      const kept = stored.get(answer.itemId);
      if (!kept || kept.seq < answer.seq) {
        stored.set(answer.itemId, { submittedAnswer: answer.submittedAnswer, seq: answer.seq });
      }
      return {
        itemId: answer.itemId,
        seq: stored.get(answer.itemId)?.seq ?? answer.seq,
        savedAt: new Date(0).toISOString(),
        deadline: new Date(3_600_000).toISOString(),
      };
    },
  };
}

const classify = (e: unknown): FailureKind =>
  (e as Error).message === 'network'
    ? 'retry'
    : (e as Error).message === 'ended'
      ? 'ended'
      : 'rejected';

/** Timers the test fires by hand, recording the delays asked for. */
function manualTimers() {
  const waiting: { fn: () => void; ms: number }[] = [];
  return {
    delays: [] as number[],
    waiting,
    setTimer(fn: () => void, ms: number) {
      const timer = { fn, ms };
      this.delays.push(ms);
      waiting.push(timer);
      return () => {
        const i = waiting.indexOf(timer);
        if (i >= 0) waiting.splice(i, 1);
      };
    },
    fireAll() {
      for (const t of waiting.splice(0)) t.fn();
    },
  };
}

const settle = async () => {
  for (let i = 0; i < 20; i++) await Promise.resolve();
  await new Promise((r) => setTimeout(r, 0));
};

/** The in-memory store standing in for IndexedDB (durable, as IndexedDB is). */
const deviceStore = (): AnswerStore => ({ ...memoryAnswerStore(), isDurable: true });

function setUp(store: AnswerStore = deviceStore(), server = fakeServer()) {
  const timers = manualTimers();
  const events = { ended: 0, rejected: [] as string[], recovered: 0 };
  const queue = createAnswerQueue(
    {
      store,
      send: (a) => server.send(a),
      classify,
      setTimer: (fn, ms) => timers.setTimer(fn, ms),
      random: () => 1,
      onEnded: () => {
        events.ended += 1;
      },
      onRejected: (itemId) => events.rejected.push(itemId),
      onRecovered: () => {
        events.recovered += 1;
      },
    },
    restoreAnswers([], []),
  );
  return { queue, store, server, timers, events };
}

describe('backoffDelay', () => {
  it('doubles from one second up to the cap, with jitter between half and all of it', () => {
    expect([1, 2, 3, 4, 5, 6, 9].map((n) => backoffDelay(n, () => 1))).toEqual([
      1000, 2000, 4000, 8000, 15000, 15000, 15000,
    ]);
    expect(backoffDelay(3, () => 0)).toBe(2000);
    expect(backoffDelay(0)).toBe(0);
  });
});

describe('answer queue', () => {
  it('numbers answers in increasing order and forgets them once acknowledged', async () => {
    const { queue, store, server } = setUp();
    await queue.answer('a', [1]);
    await queue.answer('b', '3,5');
    await queue.answer('a', [0, 2]);
    await settle();
    expect(server.requests.map((r) => r.seq)).toEqual([1, 2, 3]);
    expect(server.stored.get('a')).toEqual({ submittedAnswer: [0, 2], seq: 3 });
    expect(await store.list()).toEqual([]);
    const state = queue.getState();
    expect(state.pendingCount).toBe(0);
    expect(saveStatus(state.entries.get('a'), state.offline)).toBe('saved');
  });

  it('keeps answers on the device while offline and retries with growing delays', async () => {
    const { queue, store, server, timers, events } = setUp();
    server.setDown(true);
    await queue.answer('a', [1]);
    await settle();
    let state = queue.getState();
    expect(state.offline).toBe(true);
    expect(saveStatus(state.entries.get('a'), state.offline)).toBe('local');
    await queue.answer('b', '7');
    await queue.answer('a', [2]);
    expect((await store.list()).map((a) => [a.itemId, a.seq]).sort()).toEqual([
      ['a', 3],
      ['b', 2],
    ]);
    for (let i = 0; i < 3; i++) {
      timers.fireAll();
      await settle();
    }
    expect(timers.delays).toEqual([1000, 2000, 4000, 8000]);
    server.setDown(false);
    timers.fireAll();
    await settle();
    state = queue.getState();
    expect(state.offline).toBe(false);
    expect(state.pendingCount).toBe(0);
    expect(server.stored.get('a')).toEqual({ submittedAnswer: [2], seq: 3 });
    expect(server.stored.get('b')).toEqual({ submittedAnswer: '7', seq: 2 });
    expect(await store.list()).toEqual([]);
    expect(events.recovered).toBe(1);
  });

  it('says "not saved" for an offline answer the device could not keep', async () => {
    const memoryOnly = setUp(memoryAnswerStore());
    memoryOnly.server.setDown(true);
    await memoryOnly.queue.answer('a', [1]);
    await settle();
    const memoryState = memoryOnly.queue.getState();
    expect(saveStatus(memoryState.entries.get('a'), memoryState.offline)).toBe('unsaved');

    const failing: AnswerStore = {
      ...deviceStore(),
      put: () => Promise.reject(new Error('quota')),
    };
    const { queue, server } = setUp(failing);
    server.setDown(true);
    await queue.answer('a', [1]);
    await settle();
    const state = queue.getState();
    expect(saveStatus(state.entries.get('a'), state.offline)).toBe('unsaved');
  });

  it('does not let an acknowledgement of an older answer drop a newer one', async () => {
    const server = fakeServer();
    let release: (() => void) | undefined;
    const slow = {
      ...server,
      send: (a: PendingAnswer) =>
        a.seq === 1
          ? new Promise<void>((r) => {
              release = r;
            }).then(() => server.send(a))
          : server.send(a),
    };
    const store = memoryAnswerStore();
    const timers = manualTimers();
    const queue = createAnswerQueue(
      { store, send: slow.send, classify, setTimer: (f, ms) => timers.setTimer(f, ms) },
      restoreAnswers([], []),
    );
    await queue.answer('a', [0]);
    await settle();
    await queue.answer('a', [1]);
    expect((await store.list()).map((a) => a.seq)).toEqual([2]);
    release?.();
    await settle();
    expect(server.stored.get('a')).toEqual({ submittedAnswer: [1], seq: 2 });
    expect(queue.getState().pendingCount).toBe(0);
    expect(await store.list()).toEqual([]);
  });

  it('stops at the first "attempt over" refusal and keeps the answers', async () => {
    const { queue, store, server, events } = setUp();
    server.end();
    await queue.answer('a', [1]);
    await settle();
    expect(queue.getState().ended).toBe(true);
    expect(events.ended).toBe(1);
    await queue.answer('b', [1]);
    expect(server.requests).toHaveLength(1);
    expect(await store.list()).toHaveLength(1);
  });

  it('drops an answer the server refuses for good and goes on with the others', async () => {
    const server = fakeServer();
    const picky = {
      ...server,
      send: (a: PendingAnswer) =>
        a.itemId === 'bad' ? Promise.reject(new Error('invalid')) : server.send(a),
    };
    const { queue, store, events } = setUp(deviceStore(), picky as typeof server);
    await queue.answer('bad', 'x');
    await queue.answer('good', [1]);
    await settle();
    const state = queue.getState();
    expect(saveStatus(state.entries.get('bad'), state.offline)).toBe('rejected');
    expect(saveStatus(state.entries.get('good'), state.offline)).toBe('saved');
    expect(events.rejected).toEqual(['bad']);
    expect(await store.list()).toEqual([]);
  });

  it('sends a refused answer once, keeps why, and sends the changed answer', async () => {
    const server = fakeServer();
    const refusing = {
      ...server,
      send: (a: PendingAnswer) =>
        a.submittedAnswer === 'a\u0000b' ? Promise.reject(new Error('invalid')) : server.send(a),
    };
    const timers = manualTimers();
    const queue = createAnswerQueue(
      {
        store: deviceStore(),
        send: (a) => refusing.send(a),
        classify,
        refusalOf: (e) => ((e as Error).message === 'invalid' ? 'invalid_characters' : undefined),
        setTimer: (fn, ms) => timers.setTimer(fn, ms),
      },
      restoreAnswers([], []),
    );
    await queue.answer('open', 'a\u0000b');
    await settle();
    expect(queue.getState().entries.get('open')).toMatchObject({
      state: 'rejected',
      refusal: 'invalid_characters',
    });
    // Nothing is scheduled to send it again: it would be refused again.
    expect(timers.waiting).toEqual([]);
    expect(queue.getState().pendingCount).toBe(0);
    await queue.answer('open', 'ab');
    await settle();
    expect(queue.getState().entries.get('open')).toMatchObject({ state: 'saved', seq: 2 });
    expect(server.requests.map((r) => r.submittedAnswer)).toEqual(['ab']);
  });

  it('continues the sequence after a reload and resends what the server lacks', async () => {
    const server = fakeServer();
    server.stored.set('a', { submittedAnswer: [1], seq: 4 });
    server.stored.set('b', { submittedAnswer: [0], seq: 6 });
    const store = memoryAnswerStore();
    await store.put({ itemId: 'a', submittedAnswer: [2], seq: 7 });
    await store.put({ itemId: 'b', submittedAnswer: [3], seq: 5 });
    const items = [...server.stored].map(([itemId, v]) => ({ itemId, ...v }));
    const restored = restoreAnswers(
      [...items, { itemId: 'c', submittedAnswer: null, seq: 0 }],
      await store.list(),
    );
    expect(restored.lastSeq).toBe(7);
    expect(restored.resend.map((a) => a.itemId)).toEqual(['a']);
    expect(restored.entries.get('b')?.submittedAnswer).toEqual([0]);
    const timers = manualTimers();
    const queue = createAnswerQueue(
      { store, send: (a) => server.send(a), classify, setTimer: (f, ms) => timers.setTimer(f, ms) },
      restored,
    );
    // The answer kept from before the reload goes out by itself.
    await settle();
    expect(server.stored.get('a')).toEqual({ submittedAnswer: [2], seq: 7 });
    await queue.answer('c', '12');
    await settle();
    expect(server.stored.get('a')).toEqual({ submittedAnswer: [2], seq: 7 });
    expect(server.stored.get('b')).toEqual({ submittedAnswer: [0], seq: 6 });
    expect(server.stored.get('c')).toEqual({ submittedAnswer: '12', seq: 8 });
    expect(await store.list()).toEqual([]);
  });

  it('whenIdle answers true once delivered and false at the next failure', async () => {
    const { queue, server, timers } = setUp();
    server.setDown(true);
    await queue.answer('a', [1]);
    await settle();
    const failing = queue.whenIdle(60_000);
    queue.retryNow();
    expect(await failing).toBe(false);
    server.setDown(false);
    const idle = queue.whenIdle(60_000);
    queue.retryNow();
    expect(await idle).toBe(true);
    expect(timers.waiting.length).toBe(0);
  });

  it('ends with exactly the last answer of each item, whatever the network does', async () => {
    const op = fc.oneof(
      fc.record({
        kind: fc.constant('answer' as const),
        item: fc.constantFrom('a', 'b', 'c'),
        value: fc.array(fc.integer({ min: 0, max: 4 }), { maxLength: 3 }),
      }),
      fc.record({ kind: fc.constant('network' as const), down: fc.boolean() }),
      fc.record({ kind: fc.constant('tick' as const) }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(op, { maxLength: 30 }), async (ops) => {
        const { queue, server, timers, store } = setUp();
        const onScreen = new Map<string, SubmittedAnswer>();
        for (const o of ops) {
          if (o.kind === 'answer') {
            const value = [...new Set(o.value)];
            onScreen.set(o.item, value);
            await queue.answer(o.item, value);
          } else if (o.kind === 'network') server.setDown(o.down);
          else timers.fireAll();
          await settle();
        }
        server.setDown(false);
        for (let i = 0; i < 5 && queue.getState().pendingCount > 0; i++) {
          timers.fireAll();
          queue.retryNow();
          await settle();
        }
        expect(queue.getState().pendingCount).toBe(0);
        expect(new Map([...server.stored].map(([k, v]) => [k, v.submittedAnswer]))).toEqual(
          onScreen,
        );
        expect(await store.list()).toEqual([]);
      }),
      { numRuns: 60 },
    );
  });
});
