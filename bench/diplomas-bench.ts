// `npm run bench -- diplomas`: a closed phase's diplomas made into one ZIP by the background job,
// alone, beside API calls and beside exam day's answer writes (bench/results-bench.ts parses the
// options and starts it).

import { performance } from 'node:perf_hooks';
import type { buildTestApp } from '../server/test/app.js';
import { answerFor, onStarted, PLAYER, virtualStudent } from './exam-day-player.js';
import { seedExam } from './exam-day-seed.js';
import { closedLoop, type Options, q, start, summary } from './harness/results.js';
import {
  bootstrapInterval,
  LatencyCounts,
  percentileOf,
  pooledPercentile,
} from './harness/stats.js';
import { seedResults } from './seed-results.js';

/**
 * The API and answer writes are timed beside a running diploma job for at most this long: a
 * job of 1,025 diplomas takes 10–21 s beside the answer writes, and all of it is measured.
 */
const BUSY_WINDOW_S = 25;

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

export async function diplomas(opts: Options) {
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
    const p99 = (latencies: number[]) => percentileOf(latencies, 0.99);
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
    // The changes and their intervals are read from each round's latencies counted once.
    const counted = rounds.map((r) => ({
      before: new LatencyCounts(r.before),
      job: new LatencyCounts(r.job),
      after: new LatencyCounts(r.after),
    }));
    type Counted = (typeof counted)[number];
    const p99Of = (picked: Counted[], side: (r: Counted) => LatencyCounts[]) =>
      pooledPercentile(picked.flatMap(side), 0.99);
    const jobEffect = (picked: Counted[]) =>
      change(
        p99Of(picked, (r) => [r.before, r.after]),
        p99Of(picked, (r) => [r.job]),
      );
    const chance = (picked: Counted[]) =>
      change(
        p99Of(picked, (r) => [r.before]),
        p99Of(picked, (r) => [r.after]),
      );
    const interval = (of: (picked: Counted[]) => number) => {
      const [low, high] = bootstrapInterval(counted, of);
      return `${pct(of(counted))} (95% interval ${pct(low)} to ${pct(high)})`;
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
        `rounds where it was higher: ${counted.filter((r) => jobEffect([r]) > 0).length} of ${rounds.length}`,
    );
    console.log(
      `p99 after against before, no job on either side: ${interval(chance)}; ` +
        `rounds where it was higher: ${counted.filter((r) => chance([r]) > 0).length} of ${rounds.length}`,
    );
  } finally {
    await t.close();
  }
}
