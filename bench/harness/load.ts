// Open- and closed-loop load.

import { performance } from 'node:perf_hooks';

export type LoopResult = {
  sent: number;
  elapsedMs: number;
  /** The worst delay between when a request was due and when it was sent (generator lag). */
  maxLagMs: number;
};

/**
 * Open model: request i is due at start + i / rate whatever happened to earlier ones, and its
 * latency counts from that due time, so a slow server cannot slow the arrivals down and hide
 * its queue (no coordinated omission).
 */
export function openLoop(opts: {
  rate: number;
  count: number;
  fire: (i: number, dueAt: number) => Promise<void>;
}): Promise<LoopResult> {
  const { rate, count, fire } = opts;
  const t0 = performance.now();
  let i = 0;
  let inFlight = 0;
  let maxLagMs = 0;
  return new Promise((resolve, reject) => {
    const maybeDone = () => {
      if (i >= count && inFlight === 0) {
        resolve({ sent: count, elapsedMs: performance.now() - t0, maxLagMs });
      }
    };
    const tick = () => {
      const now = performance.now();
      while (i < count) {
        const due = t0 + (i * 1000) / rate;
        if (due > now) break;
        maxLagMs = Math.max(maxLagMs, now - due);
        inFlight += 1;
        fire(i, due).then(() => {
          inFlight -= 1;
          maybeDone();
        }, reject);
        i += 1;
      }
      if (i < count) setTimeout(tick, Math.max(0, t0 + (i * 1000) / rate - performance.now()));
      else maybeDone();
    };
    if (count === 0) resolve({ sent: 0, elapsedMs: 0, maxLagMs: 0 });
    else tick();
  });
}

/** Closed model: `concurrency` workers each send their next request when the last returns. */
export async function closedLoop(opts: {
  concurrency: number;
  durationMs: number;
  next: () => Promise<void>;
}): Promise<LoopResult> {
  const t0 = performance.now();
  const end = t0 + opts.durationMs;
  let sent = 0;
  await Promise.all(
    Array.from({ length: opts.concurrency }, async () => {
      while (performance.now() < end) {
        sent += 1;
        await opts.next();
      }
    }),
  );
  return { sent, elapsedMs: performance.now() - t0, maxLagMs: 0 };
}
