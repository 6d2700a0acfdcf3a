import type { ErrorCode } from '../../../../shared/errors.js';
import type { PlayerState, SubmittedAnswer } from '../../../../shared/schemas/player.js';
import { EVENT_STREAM_OPEN_SPREAD_MS } from '../../../../shared/schemas/player-values.js';
import { ApiError } from '../../api/client.js';
import { readAttemptEvents } from './api/attempt-events.js';
import { finishTest } from './api/finish-test.js';
import { getTestState } from './api/get-test-state.js';
import { saveAnswer } from './api/save-answer.js';
import { type AnswerQueue, createAnswerQueue, type FailureKind } from './lib/answer-queue.js';
import type { AnswerStore, AttemptSnapshot, PendingAnswer } from './lib/answer-store.js';
import { type BackoffOptions, backoffDelay } from './lib/backoff.js';
import { restoreAnswers } from './lib/restore.js';
import {
  betterSample,
  type ClockSample,
  clockSample,
  remainingSeconds,
  serverTimeAt,
  wallClockOffset,
} from './lib/server-clock.js';

/**
 * One running attempt on this page: the answer queue, the server's clock and deadline, and
 * the end of the attempt (finish, time up, refused answers). The screen only renders this.
 *
 * - `running`: answering;
 * - `timeUp`: the server's time is over; pending answers are still sent (the server's grace)
 *   and the server is asked until it says the attempt is finished — never decided here;
 * - `finishing`: the student asked to finish (SPEC.md §3 finalizePending);
 * - `finished`: the server finished the attempt (finalized), `result` carries the score;
 * - `ended`: the server refused an answer because the attempt no longer takes any.
 */
export type SessionPhase = 'running' | 'timeUp' | 'finishing' | 'finished' | 'ended';

export type SessionState = {
  phase: SessionPhase;
  deadlineMs: number;
  result: PlayerState | undefined;
  /** The last call to the server found no network. */
  unreachable: boolean;
  /** Why answers were refused in `ended`. */
  endedCode: ErrorCode | undefined;
};

export type SessionInit = {
  snapshot: AttemptSnapshot;
  /** From a live start; without it (a reload offline) the stored offset stands in. */
  sample: ClockSample | undefined;
  store: AnswerStore;
  pending: PendingAnswer[];
};

export type SessionHooks = {
  onRejected?(itemId: string): void;
  /** Every answer given without network has reached the server. */
  onRecovered?(): void;
  /** A call succeeded after calls had failed for lack of network. */
  onReachable?(): void;
};

export type FinishOutcome = 'finished' | 'unsent' | 'failed';

export type PlayerSession = {
  readonly testId: string;
  readonly snapshot: AttemptSnapshot;
  readonly queue: AnswerQueue;
  readonly isDurable: boolean;
  getState(): SessionState;
  subscribe(listener: () => void): () => void;
  /** The server's time now (ms since the epoch). */
  serverNow(): number;
  answer(itemId: string, submittedAnswer: SubmittedAnswer): void;
  finish(): Promise<FinishOutcome>;
  checkState(): Promise<void>;
  dispose(): void;
};

const POLL_RUNNING_MS = 30_000;
const POLL_TIME_UP_MS = 3_000;
const POLL_UNREACHABLE_MS = 5_000;
const FINISH_FLUSH_MS = 15_000;
const EVENTS_BACKOFF: BackoffOptions = { baseMs: 2_000, maxMs: 30_000, factor: 2 };

/** No network, a busy or restarting server: worth another try. */
export const isTransient = (error: unknown) =>
  !(error instanceof ApiError) ||
  error.status === 0 ||
  error.status === 401 ||
  error.status === 408 ||
  error.status === 429 ||
  error.status >= 500;

/**
 * How the answer queue treats a failed write (shared/schemas/player.ts lists the refusals): a
 * 400 is this answer refused for good — sending it again would be refused again, so it is
 * dropped and shown as not saved, and the student changes it.
 */
export function classifyAnswerError(error: unknown): FailureKind {
  if (isTransient(error)) return 'retry';
  if (error instanceof ApiError && error.status === 400) return 'rejected';
  return 'ended';
}

/** The field code of a refused answer (`invalid_characters`, `too_long`, …), if one came. */
export function answerRefusalOf(error: unknown): string | undefined {
  if (!(error instanceof ApiError)) return undefined;
  const codes = Object.values(error.fieldErrors).flat();
  return codes[0];
}

export function createPlayerSession(init: SessionInit, hooks: SessionHooks = {}): PlayerSession {
  const { store } = init;
  let snapshot = init.snapshot;
  const testId = snapshot.testId;
  let sample = init.sample;
  let state: SessionState = {
    phase: 'running',
    deadlineMs: Date.parse(snapshot.deadline),
    result: undefined,
    unreachable: false,
    endedCode: undefined,
  };
  const listeners = new Set<() => void>();
  const timers = new Set<ReturnType<typeof setTimeout>>();
  let disposed = false;

  const update = (change: Partial<SessionState>) => {
    state = { ...state, ...change };
    for (const l of listeners) l();
  };
  const serverNow = () =>
    sample ? serverTimeAt(sample, performance.now()) : Date.now() + snapshot.offsetMs;

  const reachable = () => {
    if (!state.unreachable) return;
    update({ unreachable: false });
    // The network is back: answers waiting for their next retry go now.
    queue.retryNow();
    hooks.onReachable?.();
  };

  /** Keeps the attempt on the device with the newest deadline and clock offset. */
  const saveSnapshot = (deadline: string) => {
    const offsetMs = sample
      ? wallClockOffset(sample, performance.now(), Date.now())
      : snapshot.offsetMs;
    if (deadline === snapshot.deadline && Math.abs(offsetMs - snapshot.offsetMs) < 1000) return;
    snapshot = { ...snapshot, deadline, offsetMs };
    void store.writeSnapshot(snapshot).catch(() => undefined);
  };

  /**
   * The device's copy of the attempt follows every acknowledged answer before the pending copy
   * is dropped, so a reload without network shows what the server has.
   */
  const keepAcknowledged = async ({ itemId, submittedAnswer, seq }: PendingAnswer) => {
    snapshot = {
      ...snapshot,
      items: snapshot.items.map((item) =>
        item.itemId === itemId && item.seq < seq ? { ...item, submittedAnswer, seq } : item,
      ),
    };
    await store.writeSnapshot(snapshot).catch(() => undefined);
  };

  const addSample = (next: ClockSample | undefined) => {
    sample = betterSample(sample, next);
  };

  /** Runs `fn` after `ms` unless the session is disposed first; returns a cancel. */
  const later = (fn: () => void, ms: number) => {
    const id = setTimeout(() => {
      timers.delete(id);
      fn();
    }, ms);
    timers.add(id);
    return () => {
      clearTimeout(id);
      timers.delete(id);
    };
  };

  const restored = restoreAnswers(snapshot.items, init.pending);
  const queue = createAnswerQueue(
    {
      store,
      async send(answer) {
        const r = await saveAnswer(testId, answer);
        addSample(clockSample(r.data.savedAt, r.sentMono, r.receivedMono));
        reachable();
        // Every saved answer brings the deadline as it stands: extra time shows at once.
        applyDeadline(r.data.deadline);
        if (r.data.seq === answer.seq) await keepAcknowledged(answer);
        return r.data;
      },
      classify: classifyAnswerError,
      refusalOf: answerRefusalOf,
      setTimer: later,
      onEnded(error) {
        const code = error instanceof ApiError ? error.code : 'GENERAL_ERROR';
        update({ phase: 'ended', endedCode: code });
        // The attempt may have been finished meanwhile: the score, if any, is worth showing.
        void checkState();
      },
      onRejected: (itemId) => hooks.onRejected?.(itemId),
      onRecovered: () => hooks.onRecovered?.(),
    },
    restored,
  );

  const finished = (result: PlayerState) => {
    queue.stop();
    update({
      phase: 'finished',
      result,
      deadlineMs: Date.parse(result.deadline ?? '') || state.deadlineMs,
    });
    // Nothing more can be sent: the device forgets the attempt.
    void store.clear().catch(() => undefined);
  };

  /** Extra time or a reopened attempt shows on the timer at once. */
  function applyDeadline(deadline: string) {
    const deadlineMs = Date.parse(deadline);
    if (Number.isNaN(deadlineMs)) return;
    saveSnapshot(deadline);
    if (state.phase === 'finished' || state.phase === 'ended') return;
    if (deadlineMs === state.deadlineMs) return;
    const isOver = remainingSeconds(deadlineMs, serverNow()) === 0;
    update({
      deadlineMs,
      phase: state.phase === 'timeUp' && !isOver ? 'running' : state.phase,
    });
  }

  /** The attempt as the server has it: finished, or running until its deadline. */
  function applyState(data: PlayerState) {
    if (data.state === 'finished') {
      finished(data);
      return;
    }
    if (data.state !== 'in_progress' || !data.deadline) return;
    applyDeadline(data.deadline);
  }

  async function checkState(): Promise<void> {
    if (disposed) return;
    try {
      const r = await getTestState(testId);
      addSample(clockSample(r.data.serverNow, r.sentMono, r.receivedMono));
      reachable();
      applyState(r.data);
    } catch (error) {
      if (isTransient(error)) update({ unreachable: true });
    }
  }

  /**
   * Staff's extra time or a reopen reaches the timer at once through the attempt's event
   * stream; the polls and the answers' acks still carry the deadline when the stream is down.
   * Opened after a random wait (EVENT_STREAM_OPEN_SPREAD_MS), reopened with backoff while the
   * attempt runs.
   */
  const events = new AbortController();
  async function listen(failures: number): Promise<void> {
    if (disposed) return;
    let heard = false;
    try {
      await readAttemptEvents(
        testId,
        ({ event, data }) => {
          heard = true;
          if (event === 'attempt') applyState(data as PlayerState);
          if (event === 'deadline' && typeof data.deadline === 'string') {
            applyDeadline(data.deadline);
          }
        },
        events.signal,
      );
    } catch {
      // Offline, a restarting server or a closed page: tried again below.
    }
    if (disposed || state.phase === 'finished' || state.phase === 'ended') return;
    const next = heard ? 1 : failures + 1;
    later(() => void listen(next), backoffDelay(next, Math.random, EVENTS_BACKOFF));
  }

  const poll = () => {
    if (disposed) return;
    const every =
      state.phase === 'timeUp'
        ? POLL_TIME_UP_MS
        : state.unreachable
          ? POLL_UNREACHABLE_MS
          : POLL_RUNNING_MS;
    later(async () => {
      if (state.phase === 'running' || state.phase === 'timeUp') await checkState();
      poll();
    }, every);
  };

  // The timer's end is the server's deadline on the server's clock; the server then decides.
  const tick = setInterval(() => {
    if (state.phase !== 'running') return;
    if (remainingSeconds(state.deadlineMs, serverNow()) > 0) return;
    update({ phase: 'timeUp' });
    queue.retryNow();
    void checkState();
  }, 500);

  const handleOnline = () => {
    queue.retryNow();
    void checkState();
  };
  window.addEventListener('online', handleOnline);
  // Back to the test after another tab or a locked phone: the deadline may have moved.
  const handleVisible = () => {
    if (document.visibilityState === 'visible') void checkState();
  };
  document.addEventListener('visibilitychange', handleVisible);

  if (init.sample) saveSnapshot(snapshot.deadline);
  void store.writeSnapshot(snapshot).catch(() => undefined);
  poll();
  later(() => void listen(0), Math.round(Math.random() * EVENT_STREAM_OPEN_SPREAD_MS));

  return {
    testId,
    get snapshot() {
      return snapshot;
    },
    queue,
    isDurable: store.isDurable,
    getState: () => state,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    serverNow,
    answer(itemId, submittedAnswer) {
      if (state.phase !== 'running' && state.phase !== 'timeUp') return;
      void queue.answer(itemId, submittedAnswer);
    },
    async finish() {
      // Read through a function: the phase changes while this waits.
      const phase = () => state.phase;
      if (phase() !== 'running') return phase() === 'finished' ? 'finished' : 'failed';
      update({ phase: 'finishing' });
      queue.retryNow();
      const delivered = await queue.whenIdle(FINISH_FLUSH_MS);
      if (!delivered) {
        if (phase() === 'finishing') update({ phase: 'running' });
        return phase() === 'ended' ? 'failed' : 'unsent';
      }
      try {
        const r = await finishTest(testId);
        addSample(clockSample(r.data.serverNow, r.sentMono, r.receivedMono));
        reachable();
        finished(r.data);
        return 'finished';
      } catch (error) {
        if (isTransient(error)) update({ unreachable: true });
        // Finished already (another tab, the sweeper): the state call brings the result.
        await checkState();
        if (phase() === 'finished') return 'finished';
        if (phase() === 'finishing') update({ phase: 'running' });
        return 'failed';
      }
    },
    checkState,
    dispose() {
      disposed = true;
      events.abort();
      queue.stop();
      clearInterval(tick);
      for (const id of timers) clearTimeout(id);
      timers.clear();
      window.removeEventListener('online', handleOnline);
      document.removeEventListener('visibilitychange', handleVisible);
    },
  };
}
