/**
 * The verdicts of the connection check a teacher runs in a school lab before a test: is the
 * server reachable, how quickly it answers, how far this computer's clock is from the
 * server's, and whether the browser can keep answers on the device.
 */

export type Level = 'ok' | 'warn' | 'fail';

/** Round trips above these make the test feel slow (warn) or unreliable (fail). */
export const LATENCY_OK_MS = 300;
export const LATENCY_FAIL_MS = 1500;
/** A clock further off than this is worth fixing, though the test's timer does not depend on it. */
export const CLOCK_WARN_MS = 60_000;

export const median = (values: readonly number[]) => {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
};

/** Latency by the median round trip; a lost request is a failure (schools lose packets too). */
export function latencyLevel(roundTrips: readonly number[], lost: number): Level {
  if (roundTrips.length === 0) return 'fail';
  const m = median(roundTrips);
  if (m >= LATENCY_FAIL_MS) return 'fail';
  if (lost > 0 || m >= LATENCY_OK_MS) return 'warn';
  return 'ok';
}

/**
 * The server's clock minus this computer's, from an HTTP `Date` header (whole seconds, so
 * the middle of its second is taken) and the request's start and end on this computer.
 */
export function offsetFromDateHeader(
  dateHeader: string | null,
  sentWall: number,
  receivedWall: number,
): number | undefined {
  if (!dateHeader) return undefined;
  const server = Date.parse(dateHeader);
  if (Number.isNaN(server)) return undefined;
  return server + 500 - (sentWall + receivedWall) / 2;
}

export const clockLevel = (offsetMs: number | undefined): Level =>
  offsetMs === undefined ? 'warn' : Math.abs(offsetMs) > CLOCK_WARN_MS ? 'warn' : 'ok';

export type Verdict = 'ready' | 'remarks' | 'notReady';

/** Ready when nothing failed; remarks when something only deserves attention. */
export function verdictOf(levels: readonly Level[]): Verdict {
  if (levels.includes('fail')) return 'notReady';
  if (levels.includes('warn')) return 'remarks';
  return 'ready';
}
