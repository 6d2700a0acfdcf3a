// What the results benchmarks share (bench/results-bench.ts, bench/diplomas-bench.ts): a server
// started in this process, latency percentiles, and callers in a closed loop.

import { performance } from 'node:perf_hooks';
import { buildTestApp } from '../../server/test/app.js';
import { percentile } from './stats.js';

/** The results benchmarks' options (`npm run bench -- rankings|export|diplomas …`). */
export type Options = { students: number; duration: number; connections: number; rounds: number };

/** Percentiles of latencies in ms. */
export function summary(latencies: number[]) {
  const sorted = Float64Array.from(latencies).sort();
  const at = (p: number) => percentile(sorted, p);
  const mean = sorted.reduce((a, b) => a + b, 0) / Math.max(1, sorted.length);
  return {
    count: sorted.length,
    mean: mean.toFixed(2),
    p50: at(0.5).toFixed(2),
    p95: at(0.95).toFixed(2),
    p99: at(0.99).toFixed(2),
    max: at(1).toFixed(2),
  };
}

/**
 * `connections` callers each sending the next request when the last one is answered, for
 * `seconds`, round-robin over `urls`; answers latencies and non-2xx count.
 */
export async function closedLoop(
  urls: string[],
  headers: Record<string, string>,
  connections: number,
  seconds: number,
  until?: () => boolean,
) {
  const latencies: number[] = [];
  let errors = 0;
  let next = 0;
  const end = performance.now() + seconds * 1000;
  const worker = async () => {
    while (performance.now() < end && !(until?.() ?? false)) {
      const url = urls[next % urls.length] ?? '';
      next += 1;
      const start = performance.now();
      const res = await fetch(url, { headers });
      await res.arrayBuffer();
      latencies.push(performance.now() - start);
      if (!res.ok) errors += 1;
    }
  };
  await Promise.all(Array.from({ length: connections }, worker));
  return { ...summary(latencies), errors };
}

export async function start() {
  const t = await buildTestApp({ env: { AUTH_RATE_LIMIT_PER_MINUTE: '100000000' } });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address();
  if (!address || typeof address === 'string') throw new Error('no address');
  const admin = await t.createUser({ type: 'admin' });
  const headers = await t.login(admin.email, admin.password);
  return { t, base: `http://127.0.0.1:${address.port}`, headers };
}

export const q = (value: object) => encodeURIComponent(JSON.stringify(value));
