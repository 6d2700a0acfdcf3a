// `npm run bench -- exam-day [--students 5000] [--seconds 120] [--rate 1500] …`
//
// Exam morning on real PostgreSQL with durable commits: a fresh database with N registered
// students (sessions created as sign-in does), one published online test; the Podium server
// runs as its own process exactly as `npm start` runs it. Every student starts within the
// start window, and the start answer carries the items as the player uses them (`--fetch-items`
// adds a GET …/items per student); answers then arrive at a fixed rate (open model) for
// the given seconds, then as fast as `--connections` closed-loop clients can send them, and
// every student finishes. Before the exam the same load goes to a bare Fastify route doing one
// upsert on the same database (bench/exam-day-bare.ts): the ceiling of this stack here.
// Every acknowledged answer is reconciled with the rows in `answers`.

import { createReadStream, mkdirSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { poolSizePerWorker } from '../server/lib/workers.js';
import {
  EVENT_STREAM_OPEN_SPREAD_MS,
  type PlayerState,
  type SubmittedAnswer,
} from '../shared/schemas/player.js';
import {
  ackSeqOf,
  answerCall,
  answerFor,
  finishCall,
  itemsCall,
  onStarted,
  PLAYER,
  type PlayerItemRef,
  type Reconciliation,
  reconcile,
  recordAck,
  startCall,
  type VirtualStudent,
  virtualStudent,
} from './exam-day-player.js';
import { seedExam } from './exam-day-seed.js';
import { CpuMonitor, cpuBetween, cpuSample } from './harness/cpu.js';
import { type BenchDatabase, createBenchDatabase } from './harness/database.js';
import { HttpClient, isOk, openEventStream, type Reply } from './harness/http.js';
import { closedLoop, type LoopResult, openLoop } from './harness/load.js';
import { type OwnPgbouncer, startPgbouncer } from './harness/own-postgres.js';
import { type ServerProcess, startServer } from './harness/processes.js';
import { CallStats, type CallSummary, type TimelineSlice } from './harness/stats.js';
import { ROOT, rng } from './harness/util.js';

export type ExamDayOptions = {
  students: number;
  /** Seconds of fixed-rate answers. */
  seconds: number;
  /** Answers per second during those seconds. */
  rate: number;
  items: number;
  /** Every student starts within this many seconds (evenly spread arrivals). */
  startWindow: number;
  /** Before the start, every student opens My tests within this many seconds (0: not). */
  arrival: number;
  /** Every student finishes within this many seconds. */
  finishWindow: number;
  /** Closed-loop clients for the maximum-throughput phases. */
  connections: number;
  /** Seconds of closed-loop answers (player and bare route); 0 skips both. */
  saturation: number;
  /** Measure the bare upsert route too. */
  baseline: boolean;
  /**
   * After starting, also GET …/items. The player does not (the start answer carries the
   * items, and a reload starts again); this measures the extra call a client could make.
   */
  fetchItems: boolean;
  /** Each started student opens the attempt's event stream as the player does. */
  events: boolean;
  /** Server processes (WORKERS), the same for the bare route; default one per core as the server picks. */
  workers: number;
  /**
   * The server reaches PostgreSQL through a PgBouncer of the bench's own in transaction mode
   * (DATABASE_POOLER=transaction) with as many server connections as its pools hold; the bare
   * route stays on PostgreSQL directly.
   */
  pgbouncer: boolean;
  /** The server's LOG_LEVEL (production default: info, one line per request). */
  logLevel: string;
  /** Write bench/results/exam-day-<time>.json and .md. */
  write: boolean;
  /** Keep the server's log (about 0.5 KB per request at info) beside the results. */
  keepLogs: boolean;
  seed: number;
  /** Run the server with `--cpu-prof`; the profile lands in bench/results. */
  profile: boolean;
  quiet: boolean;
};

export const EXAM_DAY_DEFAULTS: ExamDayOptions = {
  students: 5000,
  seconds: 120,
  rate: 1500,
  items: 20,
  startWindow: 10,
  arrival: 20,
  finishWindow: 10,
  connections: 64,
  saturation: 15,
  baseline: true,
  fetchItems: false,
  events: false,
  workers: os.availableParallelism(),
  pgbouncer: false,
  logLevel: 'info',
  write: true,
  keepLogs: false,
  seed: 1,
  profile: false,
  quiet: false,
};

/** Sockets the open-loop phases may use; arrivals beyond them wait in the client's queue. */
const OPEN_LOOP_SOCKETS = 256;

type PhaseCpu = ReturnType<typeof cpuBetween>;
type Target = { name: string; ok: boolean; value: string };

export type ExamDayResult = {
  at: string;
  command: string;
  options: ExamDayOptions;
  machine: { cpus: number; loadBefore: number[]; loadAfter: number[]; node: string };
  postgres: BenchDatabase['durability'];
  seedSeconds: number;
  calls: CallSummary[];
  cpu: Record<string, PhaseCpu>;
  loops: Record<string, LoopResult>;
  /** Cores busy every 5 s of the fixed-rate answer phase (server / PostgreSQL / generator). */
  answerCpuTimeline: CpuMonitor['slices'];
  /** Per call, latency by 1-second slices of due time (wall clock, to match server logs). */
  timeline: Record<string, TimelineSlice[]>;
  /** Lines the server logged at error level or above, with a few of them. */
  serverProblems: { errors: number; examples: string[] };
  /** Seconds from the first start to the last successful start. */
  allStartedWithin: number;
  /** Acknowledgements reporting a stored seq below the one written (must be 0). */
  ackAnomalies: number;
  reconciliation: Reconciliation;
  baselineReconciliation?: Reconciliation;
  attempts: { finished: number; scored: number; finishReplies: number };
  /** Sustained fixed-rate answer writes per second (acknowledged). */
  answerRate: number;
  /** Closed-loop maxima: player answer writes and the bare upsert route, per second. */
  answerMax?: number;
  bareMax?: number;
  /** answerMax / bareMax. */
  ratio?: number;
  /** 0 errors and 0 lost: what CI asserts. */
  correct: boolean;
  targets: Target[];
};

function say(opts: ExamDayOptions, msg: string) {
  if (!opts.quiet) console.log(msg);
}

/** Writes one answer through `write` and keeps its acknowledgement. */
function answerer(
  write: (
    s: VirtualStudent,
    item: PlayerItemRef,
    value: SubmittedAnswer,
    seq: number,
  ) => Promise<Reply>,
  r: (n: number) => number,
  onAnomaly: () => void,
) {
  return async (s: VirtualStudent, since: number, stats: CallStats) => {
    const item = s.items[r(s.items.length)];
    if (!item) return;
    s.seq += 1;
    const seq = s.seq;
    const value = answerFor(item, r);
    const reply = await write(s, item, value, seq);
    stats.add(since, reply);
    if (isOk(reply) && !recordAck(s, item.itemId, seq, value, ackSeqOf(reply))) onAnomaly();
  };
}

export async function runExamDay(options: Partial<ExamDayOptions> = {}): Promise<ExamDayResult> {
  const opts = { ...EXAM_DAY_DEFAULTS, ...options };
  const r = rng(opts.seed);
  const loadBefore = os.loadavg();
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const resultsDir = path.join(ROOT, 'bench', 'results');
  const scratch = await mkdtemp(path.join(os.tmpdir(), 'podium-exam-day-'));
  if (opts.write || opts.profile) mkdirSync(resultsDir, { recursive: true });
  const logDir = opts.write && opts.keepLogs ? resultsDir : scratch;

  const db = await createBenchDatabase('podium_bench');
  const pool = db.database.pool;
  if (!pool) throw new Error('PostgreSQL database without a pool');
  const children: ServerProcess[] = [];
  const clients: HttpClient[] = [];
  let bouncer: OwnPgbouncer | undefined;
  let bouncerDir: string | undefined;
  try {
    say(
      opts,
      `exam-day: PostgreSQL ${db.durability.version} (synchronous_commit=${db.durability.synchronousCommit}, fsync=${db.durability.fsync}, checkpoint_timeout=${db.durability.checkpointTimeout}), database ${db.name}`,
    );
    const phasesSeconds =
      opts.startWindow +
      opts.finishWindow +
      (opts.baseline ? 2 : 1) * (opts.seconds + opts.saturation);
    const seedStart = performance.now();
    const seeded = await seedExam(db.database.db, {
      students: opts.students,
      items: opts.items,
      // Long enough that no deadline falls inside the run.
      durationMinutes: 60 + Math.ceil(phasesSeconds / 60),
    });
    // As autovacuum would after a bulk load: fresh statistics for the planner.
    await db.database.exec('vacuum analyze');
    const seedSeconds = (performance.now() - seedStart) / 1000;
    say(
      opts,
      `seeded ${opts.students} students, ${opts.items} items in ${seedSeconds.toFixed(1)} s`,
    );

    const stats = {
      bareFixed: new CallStats(`bare upsert @${opts.rate}/s`),
      bareMax: new CallStats(`bare upsert max (${opts.connections} conn.)`),
      myTests: new CallStats('my tests (GET mytests)'),
      start: new CallStats('start (POST mytests/{id})'),
      items: new CallStats('items (GET …/items)'),
      events: new CallStats('event stream opened (GET …/events)'),
      answer: new CallStats(`answer @${opts.rate}/s (PUT)`),
      answerMax: new CallStats(`answer max (${opts.connections} conn.)`),
      finish: new CallStats('finish (PUT …/review)'),
    };
    const cpu: Record<string, PhaseCpu> = {};
    const loops: Record<string, LoopResult> = {};
    let ackAnomalies = 0;
    const anomaly = () => {
      ackAnomalies += 1;
    };
    const fixedCount = Math.round(opts.rate * opts.seconds);
    const seedItems: PlayerItemRef[] = seeded.items.map((i) => ({
      itemId: i.questionId,
      itemType: i.type,
      options: i.options,
    }));

    // ---- The ceiling: a bare upsert route on the same database, same load.
    let baselineReconciliation: Reconciliation | undefined;
    if (opts.baseline) {
      const bare = await startServer({
        script: 'bench/exam-day-bare.ts',
        env: { DATABASE_URL: db.url, WORKERS: String(opts.workers) },
        logFile: path.join(logDir, `exam-day-bare-${stamp}.log`),
        readyPath: '/health',
      });
      children.push(bare);
      const bareClient = new HttpClient(bare.base, OPEN_LOOP_SOCKETS);
      clients.push(bareClient);
      const bareStudents = seeded.students.map((s) => ({ ...virtualStudent(s), items: seedItems }));
      const bareWrite = answerer(
        (s, item, value, seq) =>
          bareClient.request(
            'PUT',
            `/answers/${seeded.bareTestId}`,
            s.headers,
            JSON.stringify({ studentId: s.id, itemId: item.itemId, submittedAnswer: value, seq }),
          ),
        r,
        anomaly,
      );
      say(opts, `bare upsert route: ${opts.rate}/s for ${opts.seconds} s…`);
      let c0 = await cpuSample(bare.pid, pool, db.name);
      loops.bareFixed = await openLoop({
        rate: opts.rate,
        count: fixedCount,
        fire: (i, due) =>
          bareWrite(bareStudents[i % bareStudents.length] as VirtualStudent, due, stats.bareFixed),
      });
      let c1 = await cpuSample(bare.pid, pool, db.name);
      cpu.bareFixed = cpuBetween(c0, c1, stats.bareFixed.count);
      if (opts.saturation > 0) {
        say(
          opts,
          `bare upsert route: closed loop, ${opts.connections} clients, ${opts.saturation} s…`,
        );
        const maxClient = new HttpClient(bare.base, opts.connections);
        clients.push(maxClient);
        const maxWrite = answerer(
          (s, item, value, seq) =>
            maxClient.request(
              'PUT',
              `/answers/${seeded.bareTestId}`,
              s.headers,
              JSON.stringify({ studentId: s.id, itemId: item.itemId, submittedAnswer: value, seq }),
            ),
          r,
          anomaly,
        );
        c0 = await cpuSample(bare.pid, pool, db.name);
        loops.bareMax = await closedLoop({
          concurrency: opts.connections,
          durationMs: opts.saturation * 1000,
          next: () =>
            maxWrite(
              bareStudents[r(bareStudents.length)] as VirtualStudent,
              performance.now(),
              stats.bareMax,
            ),
        });
        c1 = await cpuSample(bare.pid, pool, db.name);
        cpu.bareMax = cpuBetween(c0, c1, stats.bareMax.count);
      }
      await bare.stop();
      baselineReconciliation = await reconcile(pool, seeded.bareTestId, bareStudents);
    }

    // ---- The exam on the real server, through PgBouncer when asked.
    if (opts.pgbouncer) {
      const size = opts.workers * poolSizePerWorker(opts.workers);
      // Its own directory: PgBouncer runs as `postgres` when the bench runs as root.
      bouncerDir = await mkdtemp(path.join(os.tmpdir(), 'podium-exam-day-pgbouncer-'));
      bouncer = await startPgbouncer(
        { url: db.url, dir: bouncerDir },
        size,
        path.join(logDir, `exam-day-pgbouncer-${stamp}.log`),
      );
      say(opts, `PgBouncer in transaction mode, ${size} server connections`);
    }
    const sample = (pid: number) => cpuSample(pid, pool, db.name, bouncer?.pid);
    // Each phase's span on the monotonic clock a CPU profile's samples are timed by (µs), so
    // bench/exam-day-profile.ts can sum one phase alone.
    const spans: Record<string, [number, number]> = {};
    const clockUs = () => Number(process.hrtime.bigint() / 1000n);
    const span = (phase: string) => {
      const from = clockUs();
      return () => {
        spans[phase] = [from, clockUs()];
      };
    };
    const serverLog = path.join(logDir, `exam-day-server-${stamp}.log`);
    const server = await startServer({
      script: 'server/main.ts',
      env: {
        ...(bouncer
          ? {
              DATABASE_URL: bouncer.url(db.name),
              DATABASE_POOLER: 'transaction',
              DATABASE_DIRECT_URL: db.url,
            }
          : { DATABASE_URL: db.url }),
        WORKERS: String(opts.workers),
        LOG_LEVEL: opts.logLevel,
        DATA_DIR: path.join(scratch, 'data'),
        WEB_DIST: path.join(scratch, 'no-web'),
        PUBLIC_ORIGIN: 'http://podium.bench',
      },
      logFile: serverLog,
      readyPath: '/api/v1/health',
      nodeArgs: opts.profile ? ['--cpu-prof', '--cpu-prof-dir', resultsDir] : [],
    });
    children.push(server);
    const client = new HttpClient(server.base, OPEN_LOOP_SOCKETS);
    clients.push(client);
    const students = seeded.students.map(virtualStudent);
    const testId = seeded.testId;

    // Exam morning: every student signs in and opens My tests before the test opens (the
    // player's first page), spread over the minute before the start; this also means the
    // start is measured on a server that has been serving, not one started a second ago.
    if (opts.arrival > 0) {
      say(opts, `arrival: ${opts.students} students open My tests within ${opts.arrival} s…`);
      const a0 = await sample(server.pid);
      const arrivalEnd = span('arrival');
      loops.arrival = await openLoop({
        rate: opts.students / opts.arrival,
        count: students.length,
        fire: async (i, due) => {
          const s = students[i] as VirtualStudent;
          stats.myTests.add(due, await client.request('GET', PLAYER, s.headers));
        },
      });
      arrivalEnd();
      cpu.arrival = cpuBetween(a0, await sample(server.pid), students.length);
    }

    say(
      opts,
      `start: ${opts.students} students within ${opts.startWindow} s; the start answer carries the items${opts.fetchItems ? ', each then fetches them again' : ''}…`,
    );
    const streams: ReturnType<typeof openEventStream>[] = [];
    let c0 = await sample(server.pid);
    const startT0 = performance.now();
    let lastStarted = startT0;
    let spanEnd = span('start');
    loops.start = await openLoop({
      rate: opts.students / opts.startWindow,
      count: students.length,
      fire: async (i, due) => {
        const s = students[i] as VirtualStudent;
        const reply = await startCall(client, s, testId);
        stats.start.add(due, reply);
        if (!isOk(reply)) return;
        onStarted(s, reply);
        lastStarted = Math.max(lastStarted, performance.now());
        if (opts.events) {
          setTimeout(() => {
            const due = performance.now();
            const stream = openEventStream(server.base, `${PLAYER}/${testId}/events`, s.headers);
            streams.push(stream);
            void stream.opened.then((opened) => stats.events.add(due, opened));
          }, r(EVENT_STREAM_OPEN_SPREAD_MS));
        }
        if (!opts.fetchItems) return;
        const sent = performance.now();
        stats.items.add(sent, await itemsCall(client, s, testId));
      },
    });
    spanEnd();
    let c1 = await sample(server.pid);
    cpu.start = cpuBetween(c0, c1, stats.start.count + stats.items.count);
    const allStartedWithin = (lastStarted - startT0) / 1000;
    const started = students.filter((s) => s.started);

    const write = answerer(
      (s, item, value, seq) => answerCall(client, s, testId, item.itemId, value, seq),
      r,
      anomaly,
    );
    say(opts, `answers: ${opts.rate}/s for ${opts.seconds} s (open model)…`);
    const monitor = new CpuMonitor(server.pid, pool, db.name);
    await monitor.start();
    c0 = await sample(server.pid);
    spanEnd = span('answer');
    loops.answer = await openLoop({
      rate: opts.rate,
      count: started.length > 0 ? fixedCount : 0,
      fire: (i, due) => write(started[i % started.length] as VirtualStudent, due, stats.answer),
    });
    spanEnd();
    c1 = await sample(server.pid);
    cpu.answer = cpuBetween(c0, c1, stats.answer.count);
    const answerCpuTimeline = monitor.stop();

    if (opts.saturation > 0 && started.length > 0) {
      say(opts, `answers: closed loop, ${opts.connections} clients, ${opts.saturation} s…`);
      const maxClient = new HttpClient(server.base, opts.connections);
      clients.push(maxClient);
      const maxWrite = answerer(
        (s, item, value, seq) => answerCall(maxClient, s, testId, item.itemId, value, seq),
        r,
        anomaly,
      );
      c0 = await sample(server.pid);
      loops.answerMax = await closedLoop({
        concurrency: opts.connections,
        durationMs: opts.saturation * 1000,
        next: () =>
          maxWrite(
            started[r(started.length)] as VirtualStudent,
            performance.now(),
            stats.answerMax,
          ),
      });
      c1 = await sample(server.pid);
      cpu.answerMax = cpuBetween(c0, c1, stats.answerMax.count);
    }

    say(opts, `finish: every student within ${opts.finishWindow} s…`);
    let finishReplies = 0;
    c0 = await sample(server.pid);
    spanEnd = span('finish');
    loops.finish = await openLoop({
      rate: students.length / opts.finishWindow,
      count: students.length,
      fire: async (i, due) => {
        const s = students[i] as VirtualStudent;
        const reply = await finishCall(client, s, testId);
        stats.finish.add(due, reply);
        if (isOk(reply)) {
          const state = JSON.parse(reply.body) as PlayerState;
          if (state.state === 'finished' && state.score !== null) finishReplies += 1;
          s.finished = true;
        }
      },
    });
    spanEnd();
    c1 = await sample(server.pid);
    cpu.finish = cpuBetween(c0, c1, stats.finish.count);
    const streamsWithoutEvent = streams.filter((st) => st.events() === 0).length;
    for (const stream of streams) stream.close();
    if (opts.events) {
      say(opts, `event streams: ${streams.length} opened, ${streamsWithoutEvent} without an event`);
    }
    await server.stop();
    const serverProblems = await logProblems(serverLog);

    const reconciliation = await reconcile(pool, testId, students);
    const attemptRow = (
      await pool.query<{ finished: string; scored: string }>(
        `select count(*) filter (where at.state = 'finished') as finished,
                count(*) filter (where at.state = 'finished' and tr.test_id is not null) as scored
           from attempts at
           left join test_results tr on tr.test_id = at.test_id and tr.student_id = at.student_id
          where at.test_id = $1`,
        [testId],
      )
    ).rows[0];
    const attempts = {
      finished: Number(attemptRow?.finished ?? 0),
      scored: Number(attemptRow?.scored ?? 0),
      finishReplies,
    };

    const summaries = Object.fromEntries(
      Object.entries(stats).map(([k, v]) => [k, v.summary()]),
    ) as Record<keyof typeof stats, CallSummary>;
    const calls = Object.values(summaries).filter((c) => c.count > 0);
    const timeline = Object.fromEntries(
      Object.values(stats)
        .filter((st) => st.count > 0)
        .map((st) => [st.call, st.timeline(1000)]),
    );
    const errors = calls.reduce((a, c) => a + c.errors, 0);
    const answerRate = summaries.answer.ok / opts.seconds;
    const answerMax = opts.saturation > 0 ? summaries.answerMax.okPerSecond : undefined;
    const bareMax =
      opts.baseline && opts.saturation > 0 ? summaries.bareMax.okPerSecond : undefined;
    const ratio = answerMax !== undefined && bareMax ? answerMax / bareMax : undefined;
    const clean = (x: Reconciliation | undefined) =>
      !x || (x.lost === 0 && x.wrongValue === 0 && x.acknowledged === x.stored);
    const correct =
      errors === 0 &&
      serverProblems.errors === 0 &&
      ackAnomalies === 0 &&
      clean(reconciliation) &&
      clean(baselineReconciliation) &&
      attempts.finished === opts.students &&
      attempts.scored === opts.students;
    const ms = (x: number) => `${x.toFixed(1)} ms`;
    const targets: Target[] = [
      {
        name: 'errors = 0',
        ok: errors === 0 && serverProblems.errors === 0,
        value: `${errors} failed calls, ${serverProblems.errors} server errors logged`,
      },
      {
        name: 'lost = 0 (acknowledged = stored)',
        ok: clean(reconciliation) && clean(baselineReconciliation),
        value: `${reconciliation.lost} lost, ${reconciliation.acknowledged} acknowledged, ${reconciliation.stored} stored`,
      },
      {
        name: `all start within ${opts.startWindow} s`,
        ok: started.length === opts.students && allStartedWithin <= opts.startWindow + 1,
        value: `${started.length} in ${allStartedWithin.toFixed(1)} s`,
      },
      { name: 'start p99 < 300 ms', ok: summaries.start.p99 < 300, value: ms(summaries.start.p99) },
      {
        name: 'answer writes ≥ 1,500/s sustained',
        ok: answerRate >= 1500,
        value: `${answerRate.toFixed(0)}/s${opts.rate < 1500 ? ` (offered ${opts.rate}/s)` : ''}`,
      },
      {
        name: 'answer p99 < 50 ms',
        ok: summaries.answer.p99 < 50,
        value: ms(summaries.answer.p99),
      },
    ];
    if (ratio !== undefined) {
      targets.push({
        name: 'answer max ≥ 60% of bare upsert max',
        ok: ratio >= 0.6,
        value: `${(ratio * 100).toFixed(0)}% (${answerMax?.toFixed(0)} / ${bareMax?.toFixed(0)} per s)`,
      });
    }

    const result: ExamDayResult = {
      at: new Date().toISOString(),
      command: `npm run bench -- exam-day ${argsOf(opts)}`.trim(),
      options: opts,
      machine: {
        cpus: os.cpus().length,
        loadBefore,
        loadAfter: os.loadavg(),
        node: process.version,
      },
      postgres: db.durability,
      seedSeconds,
      calls,
      cpu,
      loops,
      timeline,
      answerCpuTimeline,
      serverProblems,
      allStartedWithin,
      ackAnomalies,
      reconciliation,
      baselineReconciliation,
      attempts,
      answerRate,
      answerMax,
      bareMax,
      ratio,
      correct,
      targets,
    };
    const report = formatReport(result);
    say(opts, `\n${report}`);
    if (opts.profile) {
      const file = path.join(resultsDir, `exam-day-${stamp}.phases.json`);
      writeFileSync(file, `${JSON.stringify(spans)}\n`);
      say(
        opts,
        `phases of the profile: ${path.relative(ROOT, file)} (npx tsx bench/exam-day-profile.ts <profile> 25 ${path.relative(ROOT, file)} arrival)`,
      );
    }
    if (opts.write) {
      const base = path.join(resultsDir, `exam-day-${stamp}`);
      writeFileSync(`${base}.json`, `${JSON.stringify(result, null, 2)}\n`);
      writeFileSync(`${base}.md`, `${report}\n`);
      say(
        opts,
        `\nwritten: ${path.relative(ROOT, base)}.{json,md}${opts.keepLogs ? ' and the server logs beside them' : ''}`,
      );
    }
    return result;
  } finally {
    for (const c of clients) c.close();
    for (const child of children) await child.kill9();
    await bouncer?.stop().catch(() => {});
    if (bouncerDir) await rm(bouncerDir, { recursive: true, force: true });
    await db.drop();
    await rm(scratch, { recursive: true, force: true });
  }
}

/** Counts the server's log lines at error level or above (pino: 50 error, 60 fatal). */
async function logProblems(file: string) {
  const out = { errors: 0, examples: [] as string[] };
  const lines = createInterface({
    input: createReadStream(file, 'utf8'),
    crlfDelay: Number.POSITIVE_INFINITY,
  });
  for await (const line of lines) {
    if (!line.includes('"level":50') && !line.includes('"level":60')) continue;
    out.errors += 1;
    if (out.examples.length < 3) out.examples.push(line.slice(0, 400));
  }
  return out;
}

/** The options that differ from the defaults, as command-line flags. */
function argsOf(opts: ExamDayOptions): string {
  const flags: string[] = [];
  for (const [k, v] of Object.entries(opts) as [keyof ExamDayOptions, unknown][]) {
    if (k === 'quiet' || v === EXAM_DAY_DEFAULTS[k]) continue;
    const flag = k.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
    flags.push(typeof v === 'boolean' ? (v ? `--${flag}` : `--no-${flag}`) : `--${flag} ${v}`);
  }
  return flags.join(' ');
}

const n0 = (x: number) => Math.round(x).toLocaleString('en-US');
const f1 = (x: number) => (x < 10 ? x.toFixed(1) : x.toFixed(0));

export function formatReport(x: ExamDayResult): string {
  const o = x.options;
  const lines: string[] = [];
  lines.push(
    `exam-day ${x.at}: ${n0(o.students)} students, ${o.items} items, answers ${n0(o.rate)}/s for ${o.seconds} s, closed loop ${o.connections} clients × ${o.saturation} s`,
  );
  lines.push(
    `PostgreSQL ${x.postgres.version} (synchronous_commit=${x.postgres.synchronousCommit}, fsync=${x.postgres.fsync}, checkpoint_timeout=${x.postgres.checkpointTimeout}, max_wal_size=${x.postgres.maxWalSize}); ${x.machine.cpus} cores, load ${x.machine.loadBefore.map((l) => l.toFixed(2)).join(' ')} before, ${x.machine.loadAfter.map((l) => l.toFixed(2)).join(' ')} after; server LOG_LEVEL=${o.logLevel}, ${o.workers} worker process(es) for the server and the bare route${o.pgbouncer ? '; the server through PgBouncer (transaction mode), the bare route on PostgreSQL directly' : ''}; Node ${x.machine.node}`,
  );
  lines.push('');
  lines.push('| call | count | ok | errors | ok/s | p50 ms | p99 ms | p99.9 ms | max ms |');
  lines.push('|---|---|---|---|---|---|---|---|---|');
  for (const c of x.calls) {
    lines.push(
      `| ${c.call} | ${n0(c.count)} | ${n0(c.ok)} | ${c.errors} | ${n0(c.okPerSecond)} | ${f1(c.p50)} | ${f1(c.p99)} | ${f1(c.p999)} | ${f1(c.max)} |`,
    );
  }
  const kinds = x.calls.filter((c) => c.errors > 0);
  for (const c of kinds) lines.push(`errors of ${c.call}: ${JSON.stringify(c.errorKinds)}`);
  for (const [call, slices] of Object.entries(x.timeline)) {
    if (slices.length < 20) continue;
    // p99 per 10 s: where in the run a high percentile comes from.
    const tens: string[] = [];
    for (let k = 0; k < slices.length; k += 10) {
      const group = slices.slice(k, k + 10);
      tens.push(f1(Math.max(...group.map((g) => g.p99))));
    }
    lines.push(`${call}, worst 1-s p99 in each 10 s from ${slices[0]?.at}: ${tens.join(' ')} ms`);
  }
  lines.push('');
  lines.push(
    `CPU per phase: average cores busy, and CPU ms per request (server or bare route / PostgreSQL / load generator${o.pgbouncer ? ' / PgBouncer' : ''}):`,
  );
  for (const [phase, c] of Object.entries(x.cpu)) {
    const lag = x.loops[phase]?.maxLagMs;
    const m = c.msPerRequest;
    const pooler = (v: number) => (o.pgbouncer ? ` / ${v.toFixed(2)}` : '');
    lines.push(
      `  ${phase.padEnd(10)} cores ${c.server.toFixed(2)} / ${c.postgres.toFixed(2)} / ${c.generator.toFixed(2)}${pooler(c.pooler)}   ms/request ${m.server.toFixed(2)} / ${m.postgres.toFixed(2)} / ${m.generator.toFixed(2)}${pooler(m.pooler)} (${n0(c.requests)} requests)${lag ? `   generator lag max ${lag.toFixed(0)} ms` : ''}${c.checkpoints > 0 ? `   checkpoints begun ${c.checkpoints}` : ''}`,
    );
  }
  // A student's morning before the first answer: My tests, then the start (issue target ≤ 2 ms).
  const arrival = x.cpu.arrival?.msPerRequest;
  const start = x.cpu.start?.msPerRequest;
  if (arrival && start) {
    const side = (k: 'server' | 'postgres' | 'pooler') => arrival[k] + start[k];
    const total = side('server') + side('postgres') + side('pooler');
    lines.push(
      `  CPU per student, My tests + start: server ${side('server').toFixed(2)} + PostgreSQL ${side('postgres').toFixed(2)}${o.pgbouncer ? ` + PgBouncer ${side('pooler').toFixed(2)}` : ''} = ${total.toFixed(2)} ms (target ≤ 2 ms: ${total <= 2 ? 'met' : 'missed'})`,
    );
  }
  if (x.answerCpuTimeline.length > 1) {
    const t = x.answerCpuTimeline;
    lines.push(
      `  answer phase every 5 s, cores server: ${t.map((c) => c.server.toFixed(2)).join(' ')}`,
    );
    lines.push(
      `  answer phase every 5 s, cores PostgreSQL: ${t.map((c) => c.postgres.toFixed(2)).join(' ')}`,
    );
  }
  lines.push('');
  const rec = (name: string, r: Reconciliation) =>
    `${name}: ${n0(r.acknowledged)} acknowledged (latest seq per item) vs ${n0(r.stored)} stored; lost ${r.lost}, wrong value ${r.wrongValue}, stored newer than acknowledged ${r.newerThanAcknowledged}, stored without acknowledgement ${r.unacknowledged}${r.examples.length ? `\n  ${r.examples.join('\n  ')}` : ''}`;
  lines.push(rec('reconciliation (player)', x.reconciliation));
  if (x.baselineReconciliation)
    lines.push(rec('reconciliation (bare route)', x.baselineReconciliation));
  lines.push(
    `server log: ${x.serverProblems.errors} lines at error level${x.serverProblems.examples.length ? `\n  ${x.serverProblems.examples.join('\n  ')}` : ''}`,
  );
  lines.push(
    `attempts: ${n0(x.attempts.finished)} finished, ${n0(x.attempts.scored)} scored, ${n0(x.attempts.finishReplies)} finish replies with a score; acknowledgement anomalies ${x.ackAnomalies}`,
  );
  lines.push('');
  lines.push('| target | result | |');
  lines.push('|---|---|---|');
  for (const t of x.targets) lines.push(`| ${t.name} | ${t.value} | ${t.ok ? 'met' : 'MISSED'} |`);
  lines.push('');
  lines.push(`command: ${x.command}`);
  return lines.join('\n');
}

/** Parses the command line; returns the process exit code (1 when anything was lost or failed). */
export async function examDayCli(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      students: { type: 'string' },
      seconds: { type: 'string' },
      rate: { type: 'string' },
      items: { type: 'string' },
      'start-window': { type: 'string' },
      arrival: { type: 'string' },
      'finish-window': { type: 'string' },
      connections: { type: 'string' },
      saturation: { type: 'string' },
      'no-baseline': { type: 'boolean' },
      'fetch-items': { type: 'boolean' },
      events: { type: 'boolean' },
      workers: { type: 'string' },
      pgbouncer: { type: 'boolean' },
      'log-level': { type: 'string' },
      'no-write': { type: 'boolean' },
      'keep-logs': { type: 'boolean' },
      seed: { type: 'string' },
      profile: { type: 'boolean' },
      strict: { type: 'boolean' },
    },
  });
  const num = (v: string | undefined, d: number) => {
    if (v === undefined) return d;
    const n = Number(v);
    if (!Number.isFinite(n) || n < 0) throw new Error(`Expected a number, got ${v}`);
    return n;
  };
  const d = EXAM_DAY_DEFAULTS;
  const result = await runExamDay({
    students: num(values.students, d.students),
    seconds: num(values.seconds, d.seconds),
    rate: num(values.rate, d.rate),
    items: num(values.items, d.items),
    startWindow: num(values['start-window'], d.startWindow),
    arrival: num(values.arrival, d.arrival),
    finishWindow: num(values['finish-window'], d.finishWindow),
    connections: num(values.connections, d.connections),
    saturation: num(values.saturation, d.saturation),
    baseline: !values['no-baseline'],
    fetchItems: values['fetch-items'] ?? false,
    events: values.events ?? false,
    workers: Math.max(1, Math.round(num(values.workers, d.workers))),
    pgbouncer: values.pgbouncer ?? false,
    logLevel: values['log-level'] ?? d.logLevel,
    write: !values['no-write'],
    keepLogs: values['keep-logs'] ?? false,
    seed: num(values.seed, d.seed),
    profile: values.profile ?? false,
  });
  if (!result.correct) return 1;
  // --strict: the speed targets too (CI asserts correctness only; speed is judged here).
  return values.strict && result.targets.some((t) => !t.ok) ? 1 : 0;
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.join(ROOT, 'bench', 'exam-day.ts')) {
  process.exit(await examDayCli(process.argv.slice(2)));
}
