/**
 * The server's time as seen from the browser (DESIGN.md "Exam day": the timer is the server's,
 * corrected for the client's clock offset). A sample pairs a `serverNow` with the midpoint of
 * the request on the page's monotonic clock (`performance.now()`), so a wrong or jumping wall
 * clock on the student's computer changes nothing while the page is open.
 */
export type ClockSample = {
  /** The server's time (ms since the epoch) at `monoMs`. */
  serverMs: number;
  /** The page's monotonic clock at the midpoint of the request. */
  monoMs: number;
  /** Round trip of the request: the error bound of the sample is half of it. */
  rttMs: number;
};

/** A sample from a response carrying the server's time, sent at `sentMono`, read at `receivedMono`. */
export function clockSample(
  serverNowIso: string,
  sentMono: number,
  receivedMono: number,
): ClockSample | undefined {
  const serverMs = Date.parse(serverNowIso);
  if (Number.isNaN(serverMs) || receivedMono < sentMono) return undefined;
  return { serverMs, monoMs: (sentMono + receivedMono) / 2, rttMs: receivedMono - sentMono };
}

/** Samples older than this give way to a fresh one even with a longer round trip (drift). */
export const SAMPLE_MAX_AGE_MS = 5 * 60_000;

/**
 * Keeps the more precise sample: the one with the shorter round trip, unless the kept one is
 * older than SAMPLE_MAX_AGE_MS (clocks drift) or the new one is much more precise.
 */
export function betterSample(
  kept: ClockSample | undefined,
  next: ClockSample | undefined,
): ClockSample | undefined {
  if (!next) return kept;
  if (!kept) return next;
  if (next.monoMs - kept.monoMs > SAMPLE_MAX_AGE_MS) return next;
  return next.rttMs <= kept.rttMs ? next : kept;
}

/** The server's time now, in ms since the epoch. */
export const serverTimeAt = (sample: ClockSample, nowMono: number) =>
  sample.serverMs + (nowMono - sample.monoMs);

/**
 * Offset of the server's clock from this computer's wall clock (server − client), kept with an
 * attempt so a reload without network can still show the server's remaining time.
 */
export const wallClockOffset = (sample: ClockSample, nowMono: number, nowWall: number) =>
  serverTimeAt(sample, nowMono) - nowWall;

/** Whole seconds left until `deadlineMs` at server time `serverNowMs`, never below 0. */
export function remainingSeconds(deadlineMs: number, serverNowMs: number): number {
  return Math.max(0, Math.ceil((deadlineMs - serverNowMs) / 1000));
}

/** '1:05:09', '05:09' — a timer a student reads at a glance. */
export function formatTimer(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const pad = (n: number) => String(n).padStart(2, '0');
  return h > 0 ? `${h}:${pad(m)}:${pad(s % 60)}` : `${pad(m)}:${pad(s % 60)}`;
}
