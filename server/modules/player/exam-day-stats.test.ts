import { describe, expect, it } from 'vitest';
import { bucketOf, LATENCY_BOUNDS_MS, quantileOf } from './exam-day-stats.js';

describe('answer-write latency buckets', () => {
  it('puts a latency in the first bucket whose bound holds it, the slowest in the last', () => {
    expect(bucketOf(0.3)).toBe(0);
    expect(bucketOf(2)).toBe(0);
    expect(bucketOf(2.1)).toBe(1);
    expect(bucketOf(60_000)).toBe(LATENCY_BOUNDS_MS.length);
  });

  it('reads the p99 of merged counts as the bound of the bucket it falls in', () => {
    const buckets = new Array(LATENCY_BOUNDS_MS.length + 1).fill(0);
    expect(quantileOf(buckets, 0.99)).toBeNull();
    buckets[bucketOf(4)] = 98; // ≤ 5 ms
    buckets[bucketOf(150)] = 1; // ≤ 200 ms
    buckets[bucketOf(900)] = 1; // ≤ 1000 ms
    // 99 of 100 are at most 200 ms.
    expect(quantileOf(buckets, 0.99)).toBe(200);
    expect(quantileOf(buckets, 0.5)).toBe(5);
    buckets[LATENCY_BOUNDS_MS.length] = 100;
    expect(quantileOf(buckets, 0.99)).toBe(LATENCY_BOUNDS_MS.at(-1));
  });
});
