/**
 * When this process last began serving a request (ms since the epoch), in memory its worker
 * threads share: a background thread reads it to step aside while requests are being served
 * (diploma-zip.thread.ts). The server notes every request's start (app.ts).
 */
export const requestActivity = new BigInt64Array(new SharedArrayBuffer(8));

export function noteRequest(activity: BigInt64Array = requestActivity): void {
  Atomics.store(activity, 0, BigInt(Date.now()));
}

/** Milliseconds since a request last began, as `activity` (shared with the server) says. */
export function msSinceRequest(activity: BigInt64Array): number {
  return Date.now() - Number(Atomics.load(activity, 0));
}
