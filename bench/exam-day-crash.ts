// The kill -9 check: `node scripts/crash-test.mjs [--students 200] [--answers 40] [--kills 2]`.
//
// A scripted exam on PostgreSQL: every virtual student starts, fetches the items, answers
// with increasing sequence numbers and finishes, retrying each call with backoff until the
// server acknowledges it (as the player does with the answers it keeps in IndexedDB). At
// random points of the exam the server process gets SIGKILL; with the server down, every
// answer acknowledged before the kill is looked up in the database; then the server starts
// again on the same port and the students carry on. At the end every student must have
// finished and every acknowledged answer must be stored.

import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import {
  type Reconciliation,
  reconcile,
  type VirtualStudent,
  virtualStudent,
} from './exam-day-player.js';
import { seedExam } from './exam-day-seed.js';
import { createBenchDatabase } from './harness/database.js';
import { HttpClient } from './harness/http.js';
import { freePort, type ServerProcess, startServer } from './harness/processes.js';
import { retryingState, takeExam } from './harness/retrying-exam.js';
import { ROOT, rng, sleep } from './harness/util.js';

export type CrashOptions = {
  students: number;
  /** Answers each student sends before finishing. */
  answers: number;
  /** Pause between a student's answers: uniform in [0, 2 × thinkMs). */
  thinkMs: number;
  kills: number;
  items: number;
  /** Seeds the kill points and the answers; printed so a failing run can be repeated. */
  seed: number;
  /** A student gives up when a call has not been acknowledged for this long. */
  patienceMs: number;
  quiet: boolean;
};

export const CRASH_DEFAULTS: CrashOptions = {
  students: 200,
  answers: 40,
  thinkMs: 60,
  kills: 2,
  items: 20,
  seed: Date.now() % 1_000_000,
  patienceMs: 60_000,
  quiet: false,
};

export type KillReport = {
  /** Milliseconds into the exam. */
  atMs: number;
  /** Share of all answers acknowledged when the kill came. */
  progress: number;
  /** Requests the clients had in flight at that moment. */
  inFlight: number;
  /** Acknowledged answers (latest per item) checked in the database while the server was down. */
  checked: number;
  lost: number;
  /** Seconds from the kill until the new process answered. */
  downSeconds: number;
};

export type CrashResult = {
  seed: number;
  options: CrashOptions;
  kills: KillReport[];
  /** Students whose finish was acknowledged. */
  completed: number;
  /** Calls that had to be sent again (connection refused or reset, 5xx). */
  retries: number;
  /** Calls refused with a 4xx (no retry can help): each is a failure. */
  refused: Record<string, number>;
  reconciliation: Reconciliation;
  finishedAttempts: number;
  ackAnomalies: number;
  ok: boolean;
  seconds: number;
};

export async function runCrashCheck(options: Partial<CrashOptions> = {}): Promise<CrashResult> {
  const opts = { ...CRASH_DEFAULTS, ...options };
  const say = (msg: string) => {
    if (!opts.quiet) console.log(msg);
  };
  const r = rng(opts.seed);
  const t0 = performance.now();
  const scratch = await mkdtemp(path.join(os.tmpdir(), 'podium-crash-'));
  const db = await createBenchDatabase('podium_crash');
  const pool = db.database.pool;
  if (!pool) throw new Error('PostgreSQL database without a pool');
  let server: ServerProcess | undefined;
  let client: HttpClient | undefined;
  try {
    const seeded = await seedExam(db.database.db, {
      students: opts.students,
      items: opts.items,
      durationMinutes: 60,
    });
    const port = await freePort();
    const start = () =>
      startServer({
        script: 'server/main.ts',
        port,
        env: {
          DATABASE_URL: db.url,
          LOG_LEVEL: 'warn',
          DATA_DIR: path.join(scratch, 'data'),
          WEB_DIST: path.join(scratch, 'no-web'),
          PUBLIC_ORIGIN: 'http://podium.crash',
        },
        logFile: path.join(scratch, 'server.log'),
        readyPath: '/api/v1/health',
      });
    server = await start();
    say(
      `crash check (seed ${opts.seed}): ${opts.students} students × ${opts.answers} answers, ${opts.kills} kill(s), server pid ${server.pid} on port ${port}`,
    );
    const c = new HttpClient(server.base, 128);
    client = c;
    const testId = seeded.testId;
    const students = seeded.students.map(virtualStudent);
    const state = retryingState();
    const total = opts.students * opts.answers;
    // Arrivals spread over the first half second, as a lab's students click start.
    const exam = (s: VirtualStudent) =>
      takeExam(c, s, testId, {
        state,
        r,
        patienceMs: opts.patienceMs,
        thinkMs: opts.thinkMs,
        arrivalMs: 500,
        keepAnswering: (k) => k < opts.answers,
      });

    // Kill points: one random share of the exam's answers in each of `kills` equal slices of
    // 15%–85%, so kills are spread over the exam rather than bunched together.
    const slice = 0.7 / Math.max(1, opts.kills);
    const points = Array.from(
      { length: opts.kills },
      (_, k) => 0.15 + k * slice + (r(1000) / 1000) * slice,
    );
    const kills: KillReport[] = [];
    const examStart = performance.now();
    const examDone = Promise.all(students.map(exam));
    let over = false;
    void examDone.then(() => {
      over = true;
    });
    for (const point of points) {
      // Also wait for a few answers through the restarted server before killing it again.
      const resumedFrom = state.acked;
      while (
        !over &&
        (state.acked < point * total ||
          (kills.length > 0 && state.acked < resumedFrom + opts.students))
      ) {
        await sleep(2);
      }
      if (over) break;
      // What the students hold as acknowledged at the instant of the kill.
      const snapshot = students.flatMap((s) =>
        [...s.acked].map(([itemId, a]) => ({
          studentId: s.id,
          itemId,
          seq: a.seq,
          value: a.value,
        })),
      );
      const inFlight = state.inFlight;
      const atMs = performance.now() - examStart;
      const progress = state.acked / total;
      const killedAt = performance.now();
      await server.kill9();
      // The server is gone: only PostgreSQL can answer for the acknowledged answers now.
      const { rows } = await pool.query<{
        student_id: string;
        question_id: string;
        seq: number;
        submitted_answer: unknown;
      }>('select student_id, question_id, seq, submitted_answer from answers where test_id = $1', [
        testId,
      ]);
      const stored = new Map(rows.map((row) => [`${row.student_id}|${row.question_id}`, row]));
      let lost = 0;
      for (const a of snapshot) {
        const row = stored.get(`${a.studentId}|${a.itemId}`);
        const sameValue = row && JSON.stringify(row.submitted_answer) === JSON.stringify(a.value);
        if (!row || row.seq < a.seq || (row.seq === a.seq && !sameValue)) lost += 1;
      }
      say(
        `kill -9 at ${(atMs / 1000).toFixed(1)} s (${(progress * 100).toFixed(0)}% of answers, ${inFlight} requests in flight): ${snapshot.length} acknowledged answers checked, ${lost} lost`,
      );
      // Down long enough that clients see refused connections and back off.
      await sleep(300 + r(700));
      server = await start();
      const downSeconds = (performance.now() - killedAt) / 1000;
      say(`restarted (pid ${server.pid}) after ${downSeconds.toFixed(1)} s`);
      kills.push({ atMs, progress, inFlight, checked: snapshot.length, lost, downSeconds });
    }
    await examDone;

    const reconciliation = await reconcile(pool, testId, students);
    const finishedAttempts = Number(
      (
        await pool.query<{ n: string }>(
          `select count(*) as n from attempts where test_id = $1 and state = 'finished'`,
          [testId],
        )
      ).rows[0]?.n ?? 0,
    );
    const ok =
      kills.length === opts.kills &&
      kills.every((k) => k.lost === 0) &&
      reconciliation.lost === 0 &&
      reconciliation.wrongValue === 0 &&
      reconciliation.acknowledged === reconciliation.stored &&
      state.completed === opts.students &&
      finishedAttempts === opts.students &&
      state.ackAnomalies === 0 &&
      state.refused.size === 0;
    const result: CrashResult = {
      seed: opts.seed,
      options: opts,
      kills,
      completed: state.completed,
      retries: state.retries,
      refused: Object.fromEntries(state.refused),
      reconciliation,
      finishedAttempts,
      ackAnomalies: state.ackAnomalies,
      ok,
      seconds: (performance.now() - t0) / 1000,
    };
    say(
      [
        `students completed: ${state.completed}/${opts.students}; attempts finished in the database: ${finishedAttempts}`,
        `answers acknowledged (latest per item): ${reconciliation.acknowledged}, stored: ${reconciliation.stored}, lost: ${reconciliation.lost}, wrong value: ${reconciliation.wrongValue}`,
        `retried calls: ${state.retries}; refused calls: ${JSON.stringify(result.refused)}; acknowledgement anomalies: ${state.ackAnomalies}`,
        ...reconciliation.examples,
        `${ok ? 'PASSED' : 'FAILED'} in ${result.seconds.toFixed(1)} s (seed ${opts.seed})`,
      ].join('\n'),
    );
    return result;
  } finally {
    client?.close();
    await server?.kill9();
    await db.drop();
    await rm(scratch, { recursive: true, force: true });
  }
}

export async function crashCli(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      students: { type: 'string' },
      answers: { type: 'string' },
      'think-ms': { type: 'string' },
      kills: { type: 'string' },
      items: { type: 'string' },
      seed: { type: 'string' },
    },
  });
  const num = (v: string | undefined, d: number) => (v === undefined ? d : Number(v));
  const d = CRASH_DEFAULTS;
  const result = await runCrashCheck({
    students: num(values.students, d.students),
    answers: num(values.answers, d.answers),
    thinkMs: num(values['think-ms'], d.thinkMs),
    kills: num(values.kills, d.kills),
    items: num(values.items, d.items),
    seed: num(values.seed, d.seed),
  });
  return result.ok ? 0 : 1;
}

if (
  process.argv[1] &&
  path.resolve(process.argv[1]) === path.join(ROOT, 'bench', 'exam-day-crash.ts')
) {
  process.exit(await crashCli(process.argv.slice(2)));
}
