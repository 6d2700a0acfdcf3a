import type { AnswerAck, SubmittedAnswer } from '../../../../../shared/schemas/player.js';
import type { AnswerStore, PendingAnswer } from './answer-store.js';
import { backoffDelay } from './backoff.js';
import type { AnswerEntry, Restored } from './restore.js';

/**
 * How a failed send is handled: `retry` (no network, server busy: keep and try again later),
 * `ended` (the attempt no longer takes answers: stop everything), `rejected` (this answer will
 * never be accepted: drop it and say so).
 */
export type FailureKind = 'retry' | 'ended' | 'rejected';

/** What the screen shows for an item's answer. */
export type SaveStatus = 'none' | 'saved' | 'saving' | 'local' | 'unsaved' | 'rejected';

export type QueueState = {
  entries: ReadonlyMap<string, AnswerEntry>;
  /** The last send failed for lack of network (or an unwell server); retries are scheduled. */
  offline: boolean;
  /** The server said the attempt takes no more answers. */
  ended: boolean;
  /** Answers not yet acknowledged. */
  pendingCount: number;
};

export type QueueDeps = {
  store: AnswerStore;
  send(answer: PendingAnswer): Promise<AnswerAck>;
  classify(error: unknown): FailureKind;
  /** Why the server refused an answer for good (a field code), shown beside it. */
  refusalOf?(error: unknown): string | undefined;
  /** Runs `fn` after `ms`; returns a cancel function (injected so tests control time). */
  setTimer(fn: () => void, ms: number): () => void;
  random?: () => number;
  onEnded?(error: unknown): void;
  onRejected?(itemId: string, error: unknown): void;
  /** Every pending answer was delivered after the network had been lost. */
  onRecovered?(): void;
};

export type AnswerQueue = {
  getState(): QueueState;
  subscribe(listener: () => void): () => void;
  /** Records an answer: numbered, kept on the device, then sent. */
  answer(itemId: string, submittedAnswer: SubmittedAnswer): Promise<void>;
  /** Sends now instead of waiting for the next retry (the browser says it is online again). */
  retryNow(): void;
  /**
   * Resolves true once nothing is pending; false at the next failed send, when the attempt
   * ended, or after `timeoutMs`.
   */
  whenIdle(timeoutMs: number): Promise<boolean>;
  /** Stops sending (the page is leaving or the attempt is over). */
  stop(): void;
};

/** The status of an item's answer on screen. */
export function saveStatus(entry: AnswerEntry | undefined, offline: boolean): SaveStatus {
  if (!entry) return 'none';
  if (entry.state === 'saved') return 'saved';
  if (entry.state === 'rejected') return 'rejected';
  if (!offline) return 'saving';
  return entry.onDevice ? 'local' : 'unsaved';
}

/**
 * The answer outbox of one attempt (DESIGN.md "Exam day"): every answer gets the next sequence
 * number, is written to the device's store before it is sent, and stays there until the server
 * acknowledges that seq or a newer one. Sends go one at a time, newest answer per item only;
 * failures for lack of network retry with exponential backoff, without limit.
 */
export function createAnswerQueue(deps: QueueDeps, restored: Restored): AnswerQueue {
  const random = deps.random ?? Math.random;
  let entries = new Map(restored.entries);
  const outbox = new Map<string, PendingAnswer>(restored.resend.map((a) => [a.itemId, a]));
  /** Seqs still being written to the device: not sent before they are kept there. */
  const unwritten = new Set<number>();
  let lastSeq = restored.lastSeq;
  let offline = false;
  let ended = false;
  let stopped = false;
  let running = false;
  let failures = 0;
  let cancelRetry: (() => void) | undefined;
  let state = snapshot();
  const listeners = new Set<() => void>();
  const idleWaiters = new Set<() => void>();

  function snapshot(): QueueState {
    return { entries, offline, ended, pendingCount: outbox.size };
  }
  function emit() {
    state = snapshot();
    for (const l of listeners) l();
    if (outbox.size === 0 || ended || stopped) wakeIdleWaiters();
  }
  function wakeIdleWaiters() {
    for (const w of [...idleWaiters]) w();
  }
  function setEntry(itemId: string, change: Partial<AnswerEntry>) {
    const current = entries.get(itemId);
    if (!current) return;
    entries = new Map(entries);
    entries.set(itemId, { ...current, ...change });
  }

  // Stale copies on the device are forgotten; failures here only cost a resend later.
  for (const a of restored.stale) void deps.store.ack(a.itemId, a.seq).catch(() => undefined);

  /** The oldest pending answer already kept on the device: sent in the order answered. */
  const nextToSend = () =>
    [...outbox.values()].reduce<PendingAnswer | undefined>(
      (min, a) => (unwritten.has(a.seq) || (min && min.seq < a.seq) ? min : a),
      undefined,
    );

  async function pump() {
    if (running || stopped || ended || cancelRetry) return;
    running = true;
    const wasOffline = offline;
    try {
      for (;;) {
        if (stopped || ended) return;
        const next = nextToSend();
        if (!next) break;
        let ack: AnswerAck;
        try {
          ack = await deps.send(next);
        } catch (error) {
          const kind = deps.classify(error);
          if (kind === 'retry') {
            failures += 1;
            offline = true;
            emit();
            wakeIdleWaiters();
            cancelRetry = deps.setTimer(
              () => {
                cancelRetry = undefined;
                void pump();
              },
              backoffDelay(failures, random),
            );
            return;
          }
          if (kind === 'ended') {
            ended = true;
            emit();
            deps.onEnded?.(error);
            return;
          }
          if (outbox.get(next.itemId)?.seq === next.seq) outbox.delete(next.itemId);
          if (entries.get(next.itemId)?.seq === next.seq)
            setEntry(next.itemId, { state: 'rejected', refusal: deps.refusalOf?.(error) });
          await deps.store.ack(next.itemId, next.seq).catch(() => undefined);
          emit();
          deps.onRejected?.(next.itemId, error);
          continue;
        }
        failures = 0;
        offline = false;
        const acked = Math.max(ack.seq, next.seq);
        const waiting = outbox.get(next.itemId);
        if (waiting && waiting.seq <= acked) outbox.delete(next.itemId);
        const entry = entries.get(next.itemId);
        if (entry && entry.seq <= acked) setEntry(next.itemId, { state: 'saved', onDevice: false });
        emit();
        await deps.store.ack(next.itemId, acked).catch(() => undefined);
      }
      if (wasOffline && !offline) deps.onRecovered?.();
    } finally {
      running = false;
    }
  }

  // Answers this device kept from before a reload go out without waiting for a new one.
  if (outbox.size > 0) queueMicrotask(() => void pump());

  return {
    getState: () => state,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async answer(itemId, submittedAnswer) {
      if (ended || stopped) return;
      lastSeq += 1;
      const pending: PendingAnswer = { itemId, submittedAnswer, seq: lastSeq };
      entries = new Map(entries);
      entries.set(itemId, { submittedAnswer, seq: pending.seq, state: 'pending', onDevice: false });
      outbox.set(itemId, pending);
      unwritten.add(pending.seq);
      emit();
      let kept = false;
      try {
        await deps.store.put(pending);
        kept = deps.store.isDurable;
      } catch {
        kept = false;
      }
      unwritten.delete(pending.seq);
      if (kept && entries.get(itemId)?.seq === pending.seq && outbox.has(itemId)) {
        setEntry(itemId, { onDevice: true });
        emit();
      }
      void pump();
    },
    retryNow() {
      if (cancelRetry) {
        cancelRetry();
        cancelRetry = undefined;
      }
      void pump();
    },
    whenIdle(timeoutMs) {
      if (outbox.size === 0) return Promise.resolve(true);
      if (ended || stopped) return Promise.resolve(false);
      return new Promise((resolve) => {
        const done = () => {
          idleWaiters.delete(done);
          cancel();
          resolve(outbox.size === 0);
        };
        const cancel = deps.setTimer(done, timeoutMs);
        idleWaiters.add(done);
      });
    },
    stop() {
      stopped = true;
      cancelRetry?.();
      cancelRetry = undefined;
      emit();
    },
  };
}
