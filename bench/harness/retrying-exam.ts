// A student who keeps trying, as the player does with the answers it keeps on the device: every
// call is sent again with backoff until the server acknowledges it. The kill -9 check and the
// cluster check run their exams with it while servers die and come back under them.

import { performance } from 'node:perf_hooks';
import type { PlayerState, SubmittedAnswer } from '../../shared/schemas/player.js';
import {
  ackSeqOf,
  answerCall,
  answerFor,
  finishCall,
  itemsCall,
  onStarted,
  recordAck,
  startCall,
  type VirtualStudent,
} from '../exam-day-player.js';
import { errorCodeOf, type HttpClient, isOk, type Reply } from './http.js';
import { sleep } from './util.js';

/** What the students of one exam have met: calls sent again, refused, in flight now. */
export type Retrying = {
  retries: number;
  /** The answers that were sent again, by status, error code and Retry-After. */
  failed: Map<string, number>;
  /** When each of them came (performance.now()), and its kind as in `failed`. */
  failedAt: number[];
  failedKind: string[];
  refused: Map<string, number>;
  inFlight: number;
  /** Answers acknowledged so far, and acknowledgements out of order. */
  acked: number;
  ackAnomalies: number;
  /** Students whose finish was acknowledged. */
  completed: number;
};

export const retryingState = (): Retrying => ({
  retries: 0,
  failed: new Map(),
  failedAt: [],
  failedKind: [],
  refused: new Map(),
  inFlight: 0,
  acked: 0,
  ackAnomalies: 0,
  completed: 0,
});

/** Sends a call until it is acknowledged; undefined when it is refused or patience runs out. */
export async function untilAcknowledged(
  send: () => Promise<Reply>,
  state: Retrying,
  patienceMs: number,
  r: (n: number) => number,
): Promise<Reply | undefined> {
  const giveUpAt = performance.now() + patienceMs;
  for (let attempt = 0; ; attempt++) {
    state.inFlight += 1;
    const reply = await send();
    state.inFlight -= 1;
    if (isOk(reply)) return reply;
    if (reply.status >= 400 && reply.status < 500) {
      const kind = `${reply.status} ${reply.body.slice(0, 120)}`;
      state.refused.set(kind, (state.refused.get(kind) ?? 0) + 1);
      return undefined;
    }
    const kind = `${reply.status} ${errorCodeOf(reply) ?? reply.error ?? ''}${reply.retryAfter === undefined ? '' : ` Retry-After: ${reply.retryAfter}`}`;
    state.failed.set(kind, (state.failed.get(kind) ?? 0) + 1);
    const now = performance.now();
    state.failedAt.push(now);
    state.failedKind.push(kind);
    if (now > giveUpAt) return undefined;
    state.retries += 1;
    // Exponential backoff with jitter, capped at 1 s, like the player's resend queue.
    const wait = Math.min(1000, 50 * 2 ** attempt);
    await sleep(wait / 2 + r(wait / 2));
  }
}

/**
 * One student's exam: arrives within `arrivalMs`, starts, fetches the items, answers random
 * items with increasing sequence numbers while `keepAnswering(k)` says so (k answers given),
 * pausing up to 2 × `thinkMs` between them, and finishes.
 */
export async function takeExam(
  c: HttpClient,
  s: VirtualStudent,
  testId: string,
  how: {
    state: Retrying;
    r: (n: number) => number;
    patienceMs: number;
    thinkMs: number;
    arrivalMs: number;
    keepAnswering: (k: number) => boolean;
  },
): Promise<void> {
  const { state, r, patienceMs } = how;
  const acknowledged = (send: () => Promise<Reply>) =>
    untilAcknowledged(send, state, patienceMs, r);
  await sleep(r(how.arrivalMs));
  const started = await acknowledged(() => startCall(c, s, testId));
  if (!started) return;
  onStarted(s, started);
  if (!(await acknowledged(() => itemsCall(c, s, testId)))) return;
  for (let k = 0; how.keepAnswering(k); k++) {
    const item = s.items[r(s.items.length)];
    if (!item) return;
    s.seq += 1;
    const seq = s.seq;
    const value: SubmittedAnswer = answerFor(item, r);
    const reply = await acknowledged(() => answerCall(c, s, testId, item.itemId, value, seq));
    if (!reply) return;
    if (!recordAck(s, item.itemId, seq, value, ackSeqOf(reply))) state.ackAnomalies += 1;
    state.acked += 1;
    await sleep(r(2 * how.thinkMs));
  }
  const finished = await acknowledged(() => finishCall(c, s, testId));
  if (finished && (JSON.parse(finished.body) as PlayerState).state === 'finished') {
    s.finished = true;
    state.completed += 1;
  }
}
