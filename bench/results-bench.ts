// `npm run bench -- rankings|export|diplomas [--students n] [--duration s] [--connections n]
// [--rounds n]`:
// the end of a phase at scale, against a real server started in this process on PostgreSQL
// (DATABASE_URL, else the local one; PGlite only when NO_PG=1 for a quick try).
// - rankings: ranking pages over `students` results (default 100,000) with filters and paging;
//   latency percentiles (target p95 < 10 ms).
// - export: elevi.csv of every row (default 100,000; run again with --students 1000000),
//   its time (target < 2 s) and the server process's memory above its level before the
//   download (sampled every 20 ms), which must not grow with the rows.
// - diplomas: a closed phase of `students` results (default 1,000) made into one ZIP by the
//   background job (target < 5 s), with API latency and exam day's answer write (its p99 must
//   not move) measured before and while it runs, the answer write in `rounds` rounds (default
//   8) of a window without the job, one while it runs and one as long after it.

import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { getHeapStatistics } from 'node:v8';
import { withStatementTimeout } from '../server/db/statement-timeout.js';
import { systemClock } from '../server/lib/clock.js';
import { ensureFreshRanks } from '../server/modules/rankings/rankings.access.js';
import { DEFAULT_PHASE_RULES } from '../shared/schemas/rankings.js';
import { diplomas } from './diplomas-bench.js';
import { closedLoop, type Options, q, start } from './harness/results.js';
import { seedResults } from './seed-results.js';

const DEFAULT_PG = 'postgres://postgres@127.0.0.1:5432/postgres';

async function rankings(opts: Options) {
  const { t, base, headers } = await start();
  try {
    const ids = await seedResults(t.database, opts.students, false);
    const api = `${base}/api/v1/ranking-service/exams/${ids.exam}/editions/${ids.edition}/phases/${ids.phase}/rankings`;
    const first = performance.now();
    await fetch(`${api}?filter=${q({ limit: 10 })}`, { headers }).then((r) => r.arrayBuffer());
    console.log(`first page (ranks the phase once): ${(performance.now() - first).toFixed(0)} ms`);
    const pages = [
      { limit: 10, skip: 0 },
      { limit: 10, skip: 500 },
      { limit: 25, skip: 5000, where: { studentGrade: 7 } },
      { limit: 10, skip: 20, where: { studentCounty: 'Iași', studentGrade: 9 } },
      { limit: 10, skip: 0, where: { familyName: { ilike: '%țurc%' }, studentGrade: 6 } },
      { limit: 10, skip: 100, order: 'total DESC', where: { studentGrade: '' } },
    ];
    const urls = pages.map((f) => `${api}?filter=${q(f)}`);
    const count = `${api}/count?where=${q({ studentCounty: 'Cluj', studentGrade: 8 })}`;
    // The machine's own pace at this moment: a call with one database round trip.
    const health = await closedLoop([`${base}/api/v1/health`], headers, 1, opts.duration / 2);
    console.log('GET /health, 1 connection (the floor):', health);
    for (const connections of [1, opts.connections]) {
      const r = await closedLoop(urls, headers, connections, opts.duration);
      console.log(`pages, ${connections} connection(s):`, r);
    }
    for (const [i, page] of pages.entries()) {
      const r = await closedLoop([urls[i] ?? ''], headers, 1, opts.duration / 3);
      console.log(`  ${JSON.stringify(page)}: p50 ${r.p50} p95 ${r.p95} ms (${r.count} calls)`);
    }
    console.log(
      'count (Cluj, grade 8), 1 connection:',
      await closedLoop([count], headers, 1, opts.duration),
    );
  } finally {
    await t.close();
  }
}

async function exportCsv(opts: Options) {
  const { t, base, headers } = await start();
  try {
    const ids = await seedResults(t.database, opts.students, false);
    const api = `${base}/api/v1/ranking-service/exams/${ids.exam}/editions/${ids.edition}/phases/${ids.phase}/rankings`;
    // Rank once, outside any request (a phase of a million takes longer than a request may),
    // then settle the heap.
    const ranking = performance.now();
    await withStatementTimeout(0, () =>
      ensureFreshRanks(t.database.db, systemClock, ids.phase, DEFAULT_PHASE_RULES),
    );
    console.log(`ranked once in ${((performance.now() - ranking) / 1000).toFixed(1)} s`);
    await fetch(`${api}?filter=${q({ limit: 1 })}`, { headers }).then((r) => r.arrayBuffer());
    console.log(
      `heap limit ${(getHeapStatistics().heap_size_limit / 1024 / 1024).toFixed(0)} MB (NODE_OPTIONS=${process.env.NODE_OPTIONS ?? ''})`,
    );
    for (let run = 1; run <= 2; run += 1) {
      globalThis.gc?.();
      const baseline = process.memoryUsage();
      let peakRss = baseline.rss;
      let peakHeap = baseline.heapUsed;
      const sampler = setInterval(() => {
        const m = process.memoryUsage();
        peakRss = Math.max(peakRss, m.rss);
        peakHeap = Math.max(peakHeap, m.heapUsed);
      }, 20);
      const started = performance.now();
      const res = await fetch(`${api}/download?filter=${q({ where: { studentGrade: '' } })}`, {
        headers,
      });
      let bytes = 0;
      let lines = 0;
      const reader = res.body?.getReader();
      for (;;) {
        const chunk = await reader?.read();
        if (!chunk || chunk.done) break;
        bytes += chunk.value.length;
        for (const b of chunk.value) if (b === 10) lines += 1;
      }
      const seconds = (performance.now() - started) / 1000;
      clearInterval(sampler);
      const mb = (n: number) => `${(n / 1024 / 1024).toFixed(0)} MB`;
      console.log(
        `export run ${run}: status ${res.status}, ${(lines - 1).toLocaleString('en')} rows, ${mb(bytes)} in ${seconds.toFixed(2)} s; ` +
          `process RSS ${mb(baseline.rss)} before, peak +${mb(peakRss - baseline.rss)}; heap peak +${mb(peakHeap - baseline.heapUsed)}`,
      );
    }
  } finally {
    await t.close();
  }
}

export async function resultsBenchCli(name: string, argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      students: { type: 'string' },
      duration: { type: 'string', default: '10' },
      connections: { type: 'string', default: '8' },
      rounds: { type: 'string', default: '8' },
    },
  });
  if (!process.env.DATABASE_URL && process.env.NO_PG !== '1') process.env.DATABASE_URL = DEFAULT_PG;
  const defaults: Record<string, number> = { rankings: 100_000, export: 100_000, diplomas: 1_000 };
  const opts: Options = {
    students: Number(values.students ?? defaults[name] ?? 1000),
    duration: Number(values.duration),
    connections: Number(values.connections),
    rounds: Number(values.rounds),
  };
  // Counts are whole numbers from 1; the duration any positive number of seconds.
  const wrong = Object.entries(opts).filter(
    ([k, n]) => !(n > 0 && Number.isFinite(n) && (k === 'duration' || Number.isInteger(n))),
  );
  if (wrong.length > 0) {
    console.error(
      `Not a count from 1 or a positive duration: ${wrong.map(([k]) => `--${k}`).join(', ')}`,
    );
    return 2;
  }
  console.log(
    `${name}: ${JSON.stringify(opts)} on ${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'}`,
  );
  if (name === 'rankings') await rankings(opts);
  else if (name === 'export') await exportCsv(opts);
  else await diplomas(opts);
  return 0;
}
