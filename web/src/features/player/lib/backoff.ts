/** Retry delays of unsent answers: quick at first, then no more than one try per `maxMs`. */
export type BackoffOptions = { baseMs: number; maxMs: number; factor: number };

export const ANSWER_BACKOFF: BackoffOptions = { baseMs: 1_000, maxMs: 15_000, factor: 2 };

/**
 * The wait before retry number `failures` (1 = after the first failure): base × factor^(n-1),
 * capped, with jitter in [50%, 100%] of that value so a whole school lab coming back online
 * does not retry in the same millisecond.
 */
export function backoffDelay(
  failures: number,
  random: () => number = Math.random,
  { baseMs, maxMs, factor }: BackoffOptions = ANSWER_BACKOFF,
): number {
  if (failures <= 0) return 0;
  const ceiling = Math.min(maxMs, baseMs * factor ** (failures - 1));
  return Math.round(ceiling * (0.5 + 0.5 * random()));
}
