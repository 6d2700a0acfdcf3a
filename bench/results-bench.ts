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
import { buildTestApp } from '../server/test/app.js';
import { DEFAULT_PHASE_RULES } from '../shared/schemas/rankings.js';
import { answerFor, onStarted, PLAYER, virtualStudent } from './exam-day-player.js';
import { seedExam } from './exam-day-seed.js';
import { bootstrapInterval } from './harness/stats.js';
import { seedResults } from './seed-results.js';

type Options = { students: number; duration: number; connections: number; rounds: number };

const DEFAULT_PG = 'postgres://postgres@127.0.0.1:5432/postgres';

/** The API and answer writes are timed beside a running diploma job for at most this long. */
const BUSY_WINDOW_S = 15;

/** Percentiles of latencies in ms. */
function summary(latencies: number[]) {
  const sorted = Float64Array.from(latencies).sort();
  const at = (p: number) =>
    sorted.length === 0
      ? 0
      : (sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)] ?? 0);
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
async function closedLoop(
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

/**
 * Exam day's answer write beside a job: `students` of an open test (bench/exam-day-seed.ts)
 * start their attempts, then `connections` callers each write the next answer (a student, an
 * item, a rising seq) when the last is acknowledged, for `seconds` or until `until()`.
 */
async function answerWriters(base: string, t: Awaited<ReturnType<typeof buildTestApp>>) {
  const exam = await seedExam(t.database.db, { students: 40, items: 20, durationMinutes: 120 });
  const writers = await Promise.all(
    exam.students.map(async (s) => {
      const student = virtualStudent(s);
      const res = await fetch(`${base}${PLAYER}/${exam.testId}`, {
        method: 'POST',
        headers: { ...student.headers, 'content-type': 'application/json' },
        body: JSON.stringify({ termsAccepted: true }),
      });
      if (!res.ok) throw new Error(`start: ${res.status} ${await res.text()}`);
      onStarted(student, { status: res.status, body: await res.text() });
      return student;
    }),
  );
  let next = 0;
  return async (connections: number, seconds: number, until?: () => boolean) => {
    const latencies: number[] = [];
    let errors = 0;
    const end = performance.now() + seconds * 1000;
    const worker = async () => {
      while (performance.now() < end && !(until?.() ?? false)) {
        const s = writers[next % writers.length];
        next += 1;
        const item = s?.items[next % s.items.length];
        if (!s || !item) throw new Error('no student or item');
        s.seq += 1;
        const started = performance.now();
        const res = await fetch(`${base}${PLAYER}/${exam.testId}`, {
          method: 'PUT',
          headers: { ...s.headers, 'content-type': 'application/json' },
          body: JSON.stringify({
            itemId: item.itemId,
            submittedAnswer: answerFor(item, (n) => Math.floor(Math.random() * n)),
            seq: s.seq,
          }),
        });
        await res.arrayBuffer();
        latencies.push(performance.now() - started);
        if (!res.ok) errors += 1;
      }
    };
    await Promise.all(Array.from({ length: connections }, worker));
    return { latencies, errors };
  };
}

async function start() {
  const t = await buildTestApp({ env: { AUTH_RATE_LIMIT_PER_MINUTE: '100000000' } });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address();
  if (!address || typeof address === 'string') throw new Error('no address');
  const admin = await t.createUser({ type: 'admin' });
  const headers = await t.login(admin.email, admin.password);
  return { t, base: `http://127.0.0.1:${address.port}`, headers };
}

const q = (value: object) => encodeURIComponent(JSON.stringify(value));

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

async function diplomas(opts: Options) {
  const { t, base, headers } = await start();
  try {
    const ids = await seedResults(t.database, opts.students, true);
    const whoami = `${base}/api/v1/auth-service/auth/whoami`;
    const page = `${base}/api/v1/ranking-service/exams/${ids.exam}/editions/${ids.edition}/phases/${ids.phase}/rankings?filter=${q({ limit: 10 })}`;
    await fetch(page, { headers }).then((r) => r.arrayBuffer());
    // Warm the fonts and the code paths with a small job of the same phase's first teacher.
    const create = async (body: object) => {
      const res = await fetch(`${base}/api/v1/diploma-generator/jobs`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({
          examId: ids.exam,
          editionId: ids.edition,
          phaseId: ids.phase,
          ...body,
        }),
      });
      if (res.status !== 202) throw new Error(`job: ${res.status} ${await res.text()}`);
      return (await res.json()) as { _id: string; total: number };
    };
    const teacher = (await t.database.db.execute(
      `select id from users where type = 'teacher' and email like 'profesor%@bench.podium.ro' limit 1`,
    )) as unknown as { rows: { id: string }[] };
    await create({ teacherId: teacher.rows[0]?.id });
    await t.app.diplomaJobs.runPending();

    const report = async (label: string, jobId: string, seconds: number) => {
      const status = await fetch(`${base}/api/v1/diploma-generator/jobs/${jobId}`, {
        headers,
      }).then((r) => r.json() as Promise<{ state: string; done: number; total: number }>);
      const file = await fetch(`${base}/api/v1/diploma-generator/jobs/${jobId}/file`, { headers });
      const size = (await file.arrayBuffer()).byteLength;
      console.log(
        `${label}: ${status.state}, ${status.done}/${status.total} diplomas in ${seconds.toFixed(2)} s (${((seconds * 1000) / status.total).toFixed(2)} ms each), ZIP ${(size / 1024 / 1024).toFixed(1)} MB`,
      );
    };
    console.log(
      'GET /health, 1 connection (the floor):',
      await closedLoop([`${base}/api/v1/health`], headers, 1, 2),
    );

    // The job alone: how long a phase's diplomas take.
    const alone = await create({});
    let started = performance.now();
    await t.app.diplomaJobs.runPending();
    await report('job alone', alone._id, (performance.now() - started) / 1000);

    // The API while nothing else runs, then while the same job runs again.
    const before = await closedLoop([whoami, page], headers, 4, opts.duration);
    console.log('API before (whoami + ranking page, 4 connections):', before);
    const job = await create({});
    let running = true;
    started = performance.now();
    const made = t.app.diplomaJobs.runPending().finally(() => {
      running = false;
    });
    const during = await closedLoop([whoami, page], headers, 4, BUSY_WINDOW_S, () => !running);
    const loaded = (performance.now() - started) / 1000;
    await made;
    await report(
      `job under API load for its first ${loaded.toFixed(1)} s`,
      job._id,
      (performance.now() - started) / 1000,
    );
    console.log('API while the job ran (same calls):', during);

    // Exam day's answer write while the job runs, against windows as long without any job on
    // both sides of it: each round is "none, job, none", so that what drifts through a minute
    // (the collector, the database's checkpoints) falls on both sides alike. The job's side is
    // compared with the two no-job sides pooled, and the no-job side before with the one after
    // (the same comparison with no job at all: how far two sides differ by chance). Each
    // change comes with a 95% interval from resampling whole rounds.
    const answers = await answerWriters(base, t);
    await answers(2, 2);
    // A first job under the writes, not counted, gives the first round's window its length.
    const warm = await create({});
    running = true;
    started = performance.now();
    const warming = t.app.diplomaJobs.runPending().finally(() => {
      running = false;
    });
    await answers(2, BUSY_WINDOW_S, () => !running);
    await warming;
    let length = Math.min((performance.now() - started) / 1000, BUSY_WINDOW_S);
    const underWrites = [{ id: warm._id, seconds: length, label: 'warm-up job' }];
    const rounds: { before: number[]; job: number[]; after: number[]; errors: number }[] = [];
    for (let round = 0; round < opts.rounds; round += 1) {
      const before = await answers(2, length);
      const job = await create({});
      running = true;
      started = performance.now();
      const making = t.app.diplomaJobs.runPending().finally(() => {
        running = false;
      });
      const during = await answers(2, BUSY_WINDOW_S, () => !running);
      await making;
      const seconds = (performance.now() - started) / 1000;
      underWrites.push({ id: job._id, seconds, label: `job of round ${round + 1}` });
      length = Math.min(seconds, BUSY_WINDOW_S);
      const after = await answers(2, length);
      rounds.push({
        before: before.latencies,
        job: during.latencies,
        after: after.latencies,
        errors: before.errors + during.errors + after.errors,
      });
    }
    // The ZIPs are fetched (65 MB each, in this process) only now, not between the windows.
    for (const job of underWrites) {
      await report(`${job.label} under answer writes`, job.id, job.seconds);
    }
    const p99 = (latencies: number[]) => Number(summary(latencies).p99);
    const change = (a: number, b: number) => b / a - 1;
    const pct = (x: number) => `${x >= 0 ? '+' : ''}${(x * 100).toFixed(1)}%`;
    console.log('answer writes by round (2 connections), p99 before / while the job ran / after:');
    for (const [i, r] of rounds.entries()) {
      console.log(
        `  round ${i + 1}: ${p99(r.before).toFixed(2)} / ${p99(r.job).toFixed(2)} / ${p99(r.after).toFixed(2)} ms (${r.before.length} / ${r.job.length} / ${r.after.length} writes)`,
      );
    }
    const pooled = (picked: typeof rounds, side: (r: (typeof rounds)[number]) => number[][]) =>
      picked.flatMap((r) => side(r).flat());
    const jobEffect = (picked: typeof rounds) =>
      change(p99(pooled(picked, (r) => [r.before, r.after])), p99(pooled(picked, (r) => [r.job])));
    const chance = (picked: typeof rounds) =>
      change(p99(pooled(picked, (r) => [r.before])), p99(pooled(picked, (r) => [r.after])));
    const interval = (of: (picked: typeof rounds) => number) => {
      const [low, high] = bootstrapInterval(rounds, of);
      return `${pct(of(rounds))} (95% interval ${pct(low)} to ${pct(high)})`;
    };
    const errors = rounds.reduce((n, r) => n + r.errors, 0);
    console.log(
      'answer writes without the job:',
      summary(pooled(rounds, (r) => [r.before, r.after])),
    );
    console.log('answer writes while the job ran:', summary(pooled(rounds, (r) => [r.job])));
    console.log(`answer writes failed: ${errors}`);
    console.log(
      `p99 while the job ran against as long without it: ${interval(jobEffect)}; ` +
        `rounds where it was higher: ${rounds.filter((r) => jobEffect([r]) > 0).length} of ${rounds.length}`,
    );
    console.log(
      `p99 after against before, no job on either side: ${interval(chance)}; ` +
        `rounds where it was higher: ${rounds.filter((r) => chance([r]) > 0).length} of ${rounds.length}`,
    );
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
