// `npm run test:cluster [-- --students 300 --seed n]`: Podium deployed as a county or national
// phase runs it, on this one machine. One PostgreSQL (DATABASE_URL's server, else the local
// one), one S3-compatible server, two Podium instances with their own DATA_DIR, and HAProxy
// (Debian's package) in front: round robin, health checks on readiness, a refused connection
// sent to the other instance. Through the proxy: teachers sign in, an image is stored through
// one instance and read through the other, and a few hundred students take an online test
// while one instance is killed with SIGKILL and started again, then both are restarted one
// after the other: each stopped by SIGTERM with calls in flight and event streams open on it,
// which must exit 0 within its drain time, end its streams, and reset no student's call nor
// refuse one without Retry-After (the other instance takes the new ones). Checked at the end: no acknowledged answer lost, every
// session valid on either instance, every attempt ended exactly once, every mail sent exactly
// once, and a pg_dump restores into a database Podium serves.

import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { closeSync, openSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { makeUser } from '../server/db/factories.js';
import { tinyPng } from '../server/modules/questions/questions.fixtures.js';
import { startS3 } from '../server/test/s3.js';
import { PLAYER, type Reconciliation, reconcile, virtualStudent } from './exam-day-player.js';
import { seedExam } from './exam-day-seed.js';
import { runCheckCli } from './harness/check-cli.js';
import { createBenchDatabase } from './harness/database.js';
import { HttpClient, openEventStream } from './harness/http.js';
import { freePort, type ServerProcess, startServer } from './harness/processes.js';
import { retryingState, takeExam } from './harness/retrying-exam.js';
import { ROOT, rng, sleep } from './harness/util.js';

export type ClusterOptions = {
  students: number;
  /** Pause between a student's answers: uniform in [0, 2 × thinkMs). */
  thinkMs: number;
  /** Password resets asked for through the proxy during the exam. */
  mails: number;
  seed: number;
  quiet: boolean;
};

export const CLUSTER_DEFAULTS: ClusterOptions = {
  students: 300,
  thinkMs: 300,
  mails: 12,
  seed: Date.now() % 1_000_000,
  quiet: false,
};

export type ClusterResult = {
  ok: boolean;
  /** The checks that held, and what did not. */
  passed: number;
  failures: string[];
  reconciliation: Reconciliation;
  completed: number;
  retries: number;
  seconds: number;
};

const PASSWORD = 'Cluster-check-2026!';
/** Calls in flight (through the proxy, on both instances) when an instance gets SIGTERM. */
const IN_FLIGHT_ON_STOP = 8;
/** Players' event streams open on an instance when it gets SIGTERM. */
const STREAMS_ON_STOP = 5;
/** server/main.ts exits 1 when closing takes longer than this. */
const DRAIN_TIMEOUT_MS = 10_000;

/** HAProxy as the cluster test runs it (docs/OPERATIONS.md shows the same settings). */
export function haproxyConfig(listen: number, instances: readonly number[]): string {
  return `global
  maxconn 4096
  log stdout format raw local0

defaults
  mode http
  # Errors, retries and instances going down or up, one line each (the rest is not logged).
  log global
  option httplog
  option dontlog-normal
  timeout connect 2s
  timeout client 60s
  timeout server 60s
  # An instance that refuses the connection (killed, restarting) never saw the request:
  # send it to another. A request that reached an instance is never sent twice.
  retries 3
  retry-on conn-failure
  option redispatch
  # No instance ready (each one's readiness fails while the database is away): answer as an
  # instance would, 503 with Retry-After, so that players wait and send their answers again.
  http-error status 503 content-type application/json string "{\\"error\\":{\\"statusCode\\":503,\\"code\\":\\"DATABASE_UNAVAILABLE\\",\\"message\\":\\"no instance is ready\\"}}" hdr retry-after 2

frontend podium
  bind 127.0.0.1:${listen}
  default_backend instances

backend instances
  balance roundrobin
  # Readiness every 0.5 s: an instance refused, cut off from the database or stopping (503)
  # leaves after 2 failed checks. A busy one may take longer than that to answer while it
  # serves well: it stays in unless it is 2 s late.
  option httpchk GET /api/v1/health/ready
  http-check expect status 200
  default-server inter 500ms fall 2 rise 1
  timeout check 2s
${instances.map((port, i) => `  server podium${i + 1} 127.0.0.1:${port} check`).join('\n')}
`;
}

/** HAProxy in the foreground on a generated configuration; resolves once it answers. */
export async function startHaproxy(scratch: string, listen: number, instances: number[]) {
  const config = path.join(scratch, 'haproxy.cfg');
  writeFileSync(config, haproxyConfig(listen, instances));
  const check = spawnSync('haproxy', ['-c', '-q', '-f', config], { encoding: 'utf8' });
  if (check.error) throw new Error('HAProxy is not installed (Debian: apt-get install haproxy)');
  if (check.status !== 0) throw new Error(`HAProxy refused its configuration:\n${check.stderr}`);
  const log = openSync(path.join(scratch, 'haproxy.log'), 'a');
  const child: ChildProcess = spawn('haproxy', ['-db', '-f', config], {
    stdio: ['ignore', log, log],
  });
  closeSync(log);
  const base = `http://127.0.0.1:${listen}`;
  for (let i = 0; i < 100; i++) {
    const ok = await fetch(`${base}/api/v1/health`).then(
      (r) => r.status === 200,
      () => false,
    );
    if (ok) return { base, stop: () => child.kill('SIGTERM') };
    await sleep(100);
  }
  child.kill('SIGKILL');
  throw new Error('HAProxy did not answer in time');
}

export async function runClusterCheck(
  options: Partial<ClusterOptions> = {},
): Promise<ClusterResult> {
  const opts = { ...CLUSTER_DEFAULTS, ...options };
  const say = (msg: string) => {
    if (!opts.quiet) console.log(msg);
  };
  const failures: string[] = [];
  let passed = 0;
  const expect = (ok: boolean, what: string) => {
    if (ok) passed += 1;
    else failures.push(what);
    say(`${ok ? 'ok  ' : 'FAIL'} ${what}`);
  };
  const r = rng(opts.seed);
  const t0 = performance.now();
  const scratch = await mkdtemp(path.join(os.tmpdir(), 'podium-cluster-'));
  const db = await createBenchDatabase('podium_cluster');
  const pool = db.database.pool;
  if (!pool) throw new Error('PostgreSQL database without a pool');
  const s3 = await startS3('podium-cluster');
  const instances: ServerProcess[] = [];
  let proxy: Awaited<ReturnType<typeof startHaproxy>> | undefined;
  let client: HttpClient | undefined;
  try {
    const seeded = await seedExam(db.database.db, {
      students: opts.students,
      items: 20,
      durationMinutes: 60,
    });
    const teachers = await Promise.all(
      [1, 2, 3].map(() => makeUser(db.database.db, { type: 'teacher', password: PASSWORD })),
    );
    const ports = [await freePort(), await freePort()];
    const dataDirs = ports.map((_, i) => path.join(scratch, `instance-${i + 1}`));
    const start = (i: number) =>
      startServer({
        script: 'server/main.ts',
        port: ports[i],
        env: {
          DATABASE_URL: db.url,
          WORKERS: '1',
          LOG_LEVEL: 'warn',
          DATA_DIR: dataDirs[i] ?? '',
          WEB_DIST: path.join(scratch, 'no-web'),
          PUBLIC_ORIGIN: 'http://podium.cluster',
          TRUST_PROXY: 'true',
          SWEEP_INTERVAL_SECONDS: '1',
          ...(s3.env() as Record<string, string>),
        },
        logFile: path.join(scratch, `instance-${i + 1}.log`),
        readyPath: '/api/v1/health/ready',
      });
    instances[0] = await start(0);
    instances[1] = await start(1);
    const listen = await freePort();
    proxy = await startHaproxy(scratch, listen, ports);
    say(
      `cluster check (seed ${opts.seed}): ${opts.students} students; instances on ${ports.join(', ')}, HAProxy on ${listen}`,
    );
    const direct = (i: number) => `http://127.0.0.1:${ports[i]}`;

    // Teachers sign in through the proxy; each session works on either instance.
    const tokens: string[] = [];
    for (const t of teachers) {
      const res = await fetch(`${proxy.base}/api/v1/auth-service/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: t.email, password: PASSWORD }),
      });
      if (res.status === 200) tokens.push(((await res.json()) as { token: string }).token);
    }
    expect(
      tokens.length === teachers.length,
      `${teachers.length} teachers signed in through the proxy`,
    );
    const sessionsEverywhere = async () => {
      let valid = 0;
      for (const token of tokens) {
        for (const i of [0, 1]) {
          const res = await fetch(`${direct(i)}/api/v1/exam-mgmt/exams`, {
            headers: { authorization: `Bearer ${token}` },
          });
          if (res.status === 200) valid += 1;
        }
      }
      return valid === tokens.length * 2;
    };
    expect(await sessionsEverywhere(), 'every session is valid on both instances');

    // An image stored through the first instance is read through the second (one bucket).
    const png = tinyPng();
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'figura.png');
    const stored = await fetch(`${direct(0)}/api/v1/resource-mgmt/files`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tokens[0]}` },
      body: form,
    });
    const fileId = stored.status === 200 ? ((await stored.json()) as { _id: string })._id : '';
    const read = fileId
      ? await fetch(`${direct(1)}/api/v1/resource-mgmt/files/${fileId}`, {
          headers: { authorization: `Bearer ${tokens[0]}` },
        })
      : undefined;
    const bytes = read?.status === 200 ? Buffer.from(await read.arrayBuffer()) : undefined;
    expect(
      bytes?.equals(png) === true,
      'an image stored through one instance is read, byte for byte, through the other',
    );

    // The exam: every student through the proxy, retrying as the player does.
    const c = new HttpClient(proxy.base, 128);
    client = c;
    const testId = seeded.testId;
    const students = seeded.students.map(virtualStudent);
    const state = retryingState();
    let answering = true;
    // Answers go on until the restarts are over (and 500 at the most).
    const exam = (s: (typeof students)[number]) =>
      takeExam(c, s, testId, {
        state,
        r,
        patienceMs: 90_000,
        thinkMs: opts.thinkMs,
        arrivalMs: 1000,
        keepAnswering: (k) => answering && k < 500,
      });
    const examDone = Promise.all(students.map(exam));
    const answersSoFar = async (n: number) => {
      while (state.acked < n) await sleep(20);
    };

    await answersSoFar(opts.students * 5);
    // Password resets asked for through the proxy while the exam runs.
    for (let i = 0; i < opts.mails; i++) {
      await fetch(`${proxy.base}/api/v1/auth-service/auth/password/forgot`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: `elev${i}@examen.bench.podium.ro` }),
      });
    }
    await answersSoFar(opts.students * 8);
    say(`kill -9 of instance 1 after ${state.acked} answers`);
    await instances[0].kill9();
    await sleep(500 + r(1000));
    instances[0] = await start(0);
    say(`instance 1 back (pid ${instances[0].pid}) after ${state.acked} answers`);
    const afterKill = state.acked;
    await answersSoFar(afterKill + opts.students * 3);
    // Rolling restart, each stop graceful: SIGTERM while answers are in flight. The instance
    // stops taking connections (HAProxy sends new requests to the other), finishes what it
    // was answering, ends the event streams open on it, and exits 0 within its drain time.
    // No student's call may be reset or refused without Retry-After meanwhile; nothing lost.
    const sentAgain = () => [...state.failed.values()].reduce((a, b) => a + b, 0);
    const failedSince = (before: Map<string, number>) =>
      JSON.stringify(
        Object.fromEntries(
          [...state.failed]
            .map(([k, n]) => [k, n - (before.get(k) ?? 0)] as const)
            .filter(([, n]) => n > 0),
        ),
      );
    for (const i of [0, 1]) {
      const instance = instances[i];
      if (!instance) continue;
      const streams = students
        .filter((s) => s.started && !s.finished)
        .slice(0, STREAMS_ON_STOP)
        .map((s) => openEventStream(direct(i), `${PLAYER}/${testId}/events`, s.headers));
      const opened = await Promise.all(streams.map((st) => st.opened));
      while (state.inFlight < IN_FLIGHT_ON_STOP) await sleep(1);
      const inFlight = state.inFlight;
      const failedBefore = sentAgain();
      const failedKinds = new Map(state.failed);
      const ackedBefore = state.acked;
      say(
        `rolling restart: instance ${i + 1} (SIGTERM) after ${state.acked} answers, ${inFlight} calls in flight`,
      );
      const t = performance.now();
      const code = await instance.stop();
      const stopMs = performance.now() - t;
      const ackedMeanwhile = state.acked - ackedBefore;
      const streamsEnded = await Promise.race([
        Promise.all(streams.map((st) => st.ended)).then(() => true),
        sleep(1000).then(() => false),
      ]);
      for (const st of streams) st.close();
      instances[i] = await start(i);
      await answersSoFar(state.acked + opts.students);
      const failedMeanwhile = sentAgain() - failedBefore;
      // A 503 with Retry-After is what an overloaded or cut-off instance (or HAProxy, with none
      // ready) answers, and the player waits it out; a stop that drains badly shows instead as
      // resets, calls left unanswered and bare 503s. When each came, from the SIGTERM, says
      // which step of the drain it was.
      const badSince = state.failedKind
        .map((kind, k) => ({ kind, at: (state.failedAt[k] ?? 0) - t }))
        .slice(failedBefore)
        .filter(({ kind }) => !/^503 DATABASE_UNAVAILABLE Retry-After: \d+$/.test(kind));
      const resets = badSince.filter(({ kind }) => kind === '0 ECONNRESET').length;
      const when = badSince
        .slice(0, 5)
        .map(({ kind, at }) => `${kind} at ${(at / 1000).toFixed(2)} s`)
        .join(', ');
      expect(
        code === 0 && stopMs < DRAIN_TIMEOUT_MS,
        `instance ${i + 1} stopped by SIGTERM with ${inFlight} calls in flight exits 0 within its drain time (code ${code}, ${(stopMs / 1000).toFixed(1)} s)`,
      );
      expect(
        opened.every((o) => o.status === 200) && streamsEnded,
        `the ${streams.length} event streams open on instance ${i + 1} were ended by it`,
      );
      expect(
        badSince.length === 0 && ackedMeanwhile > 0,
        `while instance ${i + 1} stopped and started again, no call was reset, refused without Retry-After or failed otherwise (${failedMeanwhile} sent again: ${failedSince(failedKinds)}; ${resets} reset${when ? `; ${when} after the SIGTERM` : ''}); the other instance acknowledged ${ackedMeanwhile} answers during the stop`,
      );
    }
    answering = false;
    await examDone;
    say(`exam over: ${state.acked} answers acknowledged, ${state.retries} calls sent again`);

    const reconciliation = await reconcile(pool, testId, students);
    expect(
      reconciliation.lost === 0 &&
        reconciliation.wrongValue === 0 &&
        reconciliation.acknowledged === reconciliation.stored,
      `every acknowledged answer stored (${reconciliation.acknowledged} acknowledged, ${reconciliation.stored} stored, ${reconciliation.lost} lost, ${reconciliation.wrongValue} wrong)`,
    );
    expect(state.ackAnomalies === 0, `no acknowledgement out of order (${state.ackAnomalies})`);
    expect(
      state.refused.size === 0,
      `no call refused (${JSON.stringify(Object.fromEntries(state.refused))})`,
    );
    expect(
      state.completed === opts.students,
      `${state.completed} of ${opts.students} students finished`,
    );
    const ends = await pool.query<{ attempts: string; ended: string; twice: string }>(
      `select (select count(*) from attempts where test_id = $1 and state = 'finished') as attempts,
              count(*) as ended,
              count(*) - count(distinct entity_id) as twice
         from audit_events where action = 'attempt.finish'
          and entity_id in (select id::text from attempts where test_id = $1)`,
      [testId],
    );
    const e = ends.rows[0];
    expect(
      Number(e?.attempts) === opts.students &&
        Number(e?.ended) === opts.students &&
        e?.twice === '0',
      `every attempt ended exactly once (${e?.attempts} finished, ${e?.ended} endings recorded)`,
    );
    expect(await sessionsEverywhere(), 'sessions still valid on both instances after the restarts');

    // Every mail sent exactly once, by whichever instance took it.
    let pending = 1;
    for (let i = 0; i < 150 && pending > 0; i++) {
      const q = await pool.query<{ n: string }>(
        `select count(*) as n from mail_outbox where state in ('queued', 'sending', 'retrying')`,
      );
      pending = Number(q.rows[0]?.n ?? 0);
      if (pending > 0) await sleep(200);
    }
    const sent = await pool.query<{ id: string; to_address: string }>(
      `select id, to_address from mail_outbox where state = 'sent'`,
    );
    const files = dataDirs.flatMap((dir) => {
      try {
        return readdirSync(path.join(dir, 'outbox'))
          .filter((f) => f.endsWith('.eml'))
          .map((f) => readFileSync(path.join(dir, 'outbox', f), 'utf8'));
      } catch {
        return [];
      }
    });
    const perAddress = (to: string) => files.filter((f) => f.includes(to)).length;
    expect(
      sent.rows.length === opts.mails &&
        files.length === opts.mails &&
        sent.rows.every((m) => perAddress(m.to_address) === 1),
      `every mail sent exactly once (${opts.mails} asked, ${sent.rows.length} sent, ${files.length} written, ${pending} waiting)`,
    );

    // The backup restores: the database dumped as pg_dump makes it, restored into a fresh one,
    // and Podium started on it answers with the same answers and attempts.
    const restoredName = `${db.name}_restored`;
    const restoredUrl = new URL(db.url);
    restoredUrl.pathname = `/${restoredName}`;
    const dump = path.join(scratch, 'podium.dump');
    const run = (cmd: string, args: string[]) => spawnSync(cmd, args, { encoding: 'utf8' });
    const dumped = run('pg_dump', ['--format=custom', `--file=${dump}`, db.url]);
    const admin = new URL(db.url);
    admin.pathname = '/postgres';
    const created = run('psql', [admin.toString(), '-qc', `create database ${restoredName}`]);
    const restored = run('pg_restore', ['--no-owner', `--dbname=${restoredUrl}`, dump]);
    let restoredOk = false;
    if (dumped.status === 0 && created.status === 0 && restored.status === 0) {
      const again = await startServer({
        script: 'server/main.ts',
        env: {
          DATABASE_URL: restoredUrl.toString(),
          WORKERS: '1',
          LOG_LEVEL: 'warn',
          DATA_DIR: path.join(scratch, 'restored'),
          WEB_DIST: path.join(scratch, 'no-web'),
          PUBLIC_ORIGIN: 'http://podium.cluster',
          SWEEP_INTERVAL_SECONDS: '0',
          ...(s3.env() as Record<string, string>),
        },
        logFile: path.join(scratch, 'restored.log'),
        readyPath: '/api/v1/health/ready',
      });
      try {
        const counts = `select (select count(*) from answers) as answers,
            (select count(*) from attempts where state = 'finished') as attempts,
            (select count(*) from audit_events) as audit`;
        const before = (await pool.query(counts)).rows[0];
        const check = new pg.Client({ connectionString: restoredUrl.toString() });
        await check.connect();
        const after = (await check.query(counts)).rows[0];
        await check.end();
        const someone = students[0];
        const items = someone
          ? await fetch(`${again.base}/api/v1/test-player/mytests/${testId}/items`, {
              headers: someone.headers,
            })
          : undefined;
        restoredOk = JSON.stringify(before) === JSON.stringify(after) && items?.status === 200;
      } finally {
        await again.stop();
      }
    }
    expect(
      restoredOk,
      `a pg_dump of the database restores into a fresh one, and Podium serves it (dump ${dumped.status}, restore ${restored.status})`,
    );
    run('psql', [admin.toString(), '-qc', `drop database if exists ${restoredName} with (force)`]);

    const ok = failures.length === 0;
    const seconds = (performance.now() - t0) / 1000;
    say(`${ok ? 'PASSED' : 'FAILED'} in ${seconds.toFixed(1)} s (seed ${opts.seed})`);
    if (!ok) {
      say(`failed: ${failures.join('; ')}`);
      say(`logs kept in ${scratch}`);
      for (const f of ['haproxy.log', 'instance-1.log', 'instance-2.log']) {
        say(
          `--- ${f}\n${readFileSync(path.join(scratch, f), 'utf8').split('\n').slice(-15).join('\n')}`,
        );
      }
    }
    return {
      ok,
      passed,
      failures,
      reconciliation,
      completed: state.completed,
      retries: state.retries,
      seconds,
    };
  } finally {
    client?.close();
    proxy?.stop();
    for (const i of instances) await i?.kill9();
    await s3.close();
    await db.drop();
    if (failures.length === 0) await rm(scratch, { recursive: true, force: true });
  }
}

export const clusterCli = (argv: string[]): Promise<number> =>
  runCheckCli(argv, CLUSTER_DEFAULTS, runClusterCheck);

if (
  process.argv[1] &&
  path.resolve(process.argv[1]) === path.join(ROOT, 'bench', 'cluster-check.ts')
) {
  process.exit(await clusterCli(process.argv.slice(2)));
}
