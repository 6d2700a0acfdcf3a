/**
 * When this process last began serving a request (ms since the epoch), in memory its worker
 * threads share: a background thread reads it to step aside while requests are being served
 * (`stepAside` below, on the diploma and booklet threads). The server notes every request's start (app.ts).
 */
export const requestActivity = new BigInt64Array(new SharedArrayBuffer(8));

export function noteRequest(activity: BigInt64Array = requestActivity): void {
  Atomics.store(activity, 0, BigInt(Date.now()));
}

/** Milliseconds since a request last began, as `activity` (shared with the server) says. */
export function msSinceRequest(activity: BigInt64Array): number {
  return Date.now() - Number(Atomics.load(activity, 0));
}

const resting = new Int32Array(new SharedArrayBuffer(4));
/** Requests begun this recently mean the server is serving: the thread steps aside. */
const BUSY_WITHIN_MS = 50;
/** While it is, the thread rests this many times as long as it worked: a tenth of a core. */
const REST_PER_WORK = 9;

/**
 * For a worker thread's background work (diplomas, booklets): the function returned, called
 * after each piece of it, rests the thread nine times as long as it worked on that piece while
 * the server is serving requests; when nobody is asking anything the thread works flat out. A
 * lower priority alone did not keep diplomas from slowing exam day's answer writes (p50 twice,
 * p99 six times as long, bench/README.md), as when two cores share one core's execution units:
 * a busy thread then slows its sibling whatever its priority.
 */
export function stepAside(activity: BigInt64Array): () => void {
  let since = performance.now();
  return () => {
    if (msSinceRequest(activity) < BUSY_WITHIN_MS) {
      Atomics.wait(resting, 0, 0, REST_PER_WORK * (performance.now() - since));
    }
    since = performance.now();
  };
}
