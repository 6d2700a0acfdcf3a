// Per-call latency records: percentiles, errors by kind and per-second timelines.

import { performance } from 'node:perf_hooks';
import { errorCodeOf, isOk, type Reply } from './http.js';

export type CallSummary = {
  call: string;
  count: number;
  ok: number;
  errors: number;
  /** What went wrong, by status (`409 TEST_NOT_ACTIVE`) or network error (`ECONNRESET`). */
  errorKinds: Record<string, number>;
  /** Successful calls per second over the span from the first send to the last answer. */
  okPerSecond: number;
  p50: number;
  p99: number;
  p999: number;
  max: number;
  mean: number;
};

/** One slice of a call's timeline: requests due in it and their latencies. */
export type TimelineSlice = {
  /** Wall-clock start of the slice (to line up with the PostgreSQL log). */
  at: string;
  count: number;
  errors: number;
  p50: number;
  p99: number;
  max: number;
};

/** The value at share `p` (0–1) of `sorted`, ascending; 0 when empty. */
export const percentile = (sorted: Float64Array, p: number) =>
  sorted.length === 0
    ? 0
    : (sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)] ?? 0);

export class CallStats {
  private latencies: number[] = [];
  private dueAt: number[] = [];
  private failed: number[] = [];
  private kinds = new Map<string, number>();
  private ok = 0;
  private first = Number.POSITIVE_INFINITY;
  private last = 0;

  constructor(readonly call: string) {}

  /** `since` is when the call was due (open model) or sent (closed model), performance.now(). */
  add(since: number, r: Reply) {
    const now = performance.now();
    this.latencies.push(now - since);
    this.dueAt.push(since);
    this.first = Math.min(this.first, since);
    this.last = Math.max(this.last, now);
    if (isOk(r)) {
      this.ok += 1;
      return;
    }
    this.failed.push(this.latencies.length - 1);
    const kind =
      r.status === 0 ? (r.error ?? 'network') : `${r.status} ${errorCodeOf(r) ?? ''}`.trim();
    this.kinds.set(kind, (this.kinds.get(kind) ?? 0) + 1);
  }

  get count() {
    return this.latencies.length;
  }

  summary(): CallSummary {
    const sorted = Float64Array.from(this.latencies).sort();
    const n = sorted.length;
    const span = (this.last - this.first) / 1000;
    return {
      call: this.call,
      count: n,
      ok: this.ok,
      errors: n - this.ok,
      errorKinds: Object.fromEntries(this.kinds),
      okPerSecond: span > 0 ? this.ok / span : 0,
      p50: percentile(sorted, 0.5),
      p99: percentile(sorted, 0.99),
      p999: percentile(sorted, 0.999),
      max: n === 0 ? 0 : (sorted[n - 1] ?? 0),
      mean: n === 0 ? 0 : sorted.reduce((a, b) => a + b, 0) / n,
    };
  }

  /** Latency by slices of `sliceMs` of due time: shows when a phase slowed down, not just that it did. */
  timeline(sliceMs: number): TimelineSlice[] {
    const slices: number[][] = [];
    const errors: number[] = [];
    this.latencies.forEach((ms, i) => {
      const k = Math.floor(((this.dueAt[i] ?? 0) - this.first) / sliceMs);
      const slice = slices[k] ?? [];
      slice.push(ms);
      slices[k] = slice;
    });
    for (const i of this.failed) {
      const k = Math.floor(((this.dueAt[i] ?? 0) - this.first) / sliceMs);
      errors[k] = (errors[k] ?? 0) + 1;
    }
    const wallOffset = Date.now() - performance.now();
    return Array.from(slices, (list, k) => {
      const sorted = Float64Array.from(list ?? []).sort();
      return {
        at: new Date(wallOffset + this.first + k * sliceMs).toISOString(),
        count: sorted.length,
        errors: errors[k] ?? 0,
        p50: percentile(sorted, 0.5),
        p99: percentile(sorted, 0.99),
        max: sorted.length === 0 ? 0 : (sorted[sorted.length - 1] ?? 0),
      };
    });
  }
}

/**
 * A 95% interval of `statistic` by the bootstrap: `samples` (whole units, such as a benchmark's
 * rounds) drawn again with replacement `times` times, the statistic of each draw, and its 2.5th
 * and 97.5th percentiles.
 */
export function bootstrapInterval<T>(
  samples: readonly T[],
  statistic: (drawn: T[]) => number,
  times = 1000,
): [number, number] {
  const values = new Float64Array(times);
  for (let i = 0; i < times; i += 1) {
    const drawn = Array.from(
      { length: samples.length },
      () => samples[Math.floor(Math.random() * samples.length)] as T,
    );
    values[i] = statistic(drawn);
  }
  values.sort();
  return [percentile(values, 0.025), percentile(values, 0.975)];
}

/**
 * Latencies counted in bins of `BIN_MS`, so that a high percentile of several sets pooled is
 * found by walking down the top bins instead of sorting all of them again: the bootstrap of a
 * p99 over rounds of ~10,000 writes each drew and sorted 500,000 values 2,000 times (minutes).
 */
export class LatencyCounts {
  static readonly BIN_MS = 0.01;
  /** Latencies above this fall in the last bin. */
  static readonly MAX_MS = 5_000;
  readonly counts: Uint32Array;
  readonly total: number;
  /** The highest bin holding a latency (-1 when none). */
  readonly top: number;

  constructor(latencies: readonly number[]) {
    const bins = Math.ceil(LatencyCounts.MAX_MS / LatencyCounts.BIN_MS) + 1;
    this.counts = new Uint32Array(bins);
    let top = -1;
    for (const ms of latencies) {
      const bin = Math.min(bins - 1, Math.max(0, Math.floor(ms / LatencyCounts.BIN_MS)));
      this.counts[bin] = (this.counts[bin] ?? 0) + 1;
      top = Math.max(top, bin);
    }
    this.total = latencies.length;
    this.top = top;
  }
}

/**
 * `percentile` (nearest rank) of the sets pooled, to one bin (its middle); quick for high `p`,
 * which reads only the bins above the answer.
 */
export function pooledPercentile(sets: readonly LatencyCounts[], p: number): number {
  const total = sets.reduce((n, set) => n + set.total, 0);
  if (total === 0) return 0;
  // The value at rank ceil(p·n) from the bottom has n − ceil(p·n) + 1 values at or above it.
  const wanted = total - Math.max(1, Math.ceil(p * total)) + 1;
  let atOrAbove = 0;
  for (let bin = Math.max(...sets.map((set) => set.top)); bin >= 0; bin -= 1) {
    for (const set of sets) atOrAbove += set.counts[bin] ?? 0;
    if (atOrAbove >= wanted) return (bin + 0.5) * LatencyCounts.BIN_MS;
  }
  return 0;
}

/** The value at share `p` (0–1) of unsorted `values`. */
export const percentileOf = (values: readonly number[], p: number) =>
  percentile(Float64Array.from(values).sort(), p);
