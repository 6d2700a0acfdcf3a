// `npm run test:cluster` (after bench/cluster-check.ts), or alone:
// `node --import tsx bench/cluster-pgbouncer.ts [--students 150 --seed n]`. Podium behind
// PgBouncer in transaction mode, and the database restarted under exam-day load. The test
// starts a PostgreSQL of its own (Debian's binaries, a scratch directory, a free port: the
// machine's server is never touched) and PgBouncer in front of it with a small pool; two
// instances reach PostgreSQL through PgBouncer (DATABASE_POOLER=transaction, LISTEN and
// migrations on DATABASE_DIRECT_URL) behind HAProxy. Students answer through the proxy,
// retrying as the player does, while PostgreSQL is restarted (`pg_ctl restart -m fast`).
// Checked: every acknowledged answer stored, what was refused meanwhile was 503 with
// Retry-After, both instances still the same processes and ready again by themselves, a notice
// sent from one instance reaches a player on the other before and after the restart, and the
// role's statement limit is what statements through the pooler run under. The gap and the
// refusals are printed (bench/README.md keeps the figures). `npm run bench -- db-outage` runs
// the same with PostgreSQL stopped for 30 s instead (`--away`), through PgBouncer or straight on
// PostgreSQL (`--direct`), and also checks that readiness said the database was away for as long
// and that the students' calls were refused for as long, then all stored.

import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { makeUser } from '../server/db/factories.js';
import { DEFAULT_STATEMENT_TIMEOUTS } from '../server/db/statement-timeout.js';
import { startS3 } from '../server/test/s3.js';
import { startHaproxy } from './cluster-check.js';
import { PLAYER, reconcile, virtualStudent } from './exam-day-player.js';
import { seedExam } from './exam-day-seed.js';
import { runCheckCli } from './harness/check-cli.js';
import { createBenchDatabase } from './harness/database.js';
import { HttpClient, openEventStream } from './harness/http.js';
import { startOwnPostgres, startPgbouncer } from './harness/own-postgres.js';
import { freePort, type ServerProcess, startServer } from './harness/processes.js';
import { retryingState, takeExam } from './harness/retrying-exam.js';
import { ROOT, rng, sleep } from './harness/util.js';

export type PgbouncerOptions = {
  students: number;
  thinkMs: number;
  seed: number;
  /** 0: `pg_ctl restart -m fast`; else the seconds PostgreSQL is stopped (connections refused). */
  awaySeconds: number;
  /** Through PgBouncer (transaction mode); false: the instances straight on PostgreSQL. */
  pooler: boolean;
};

export const PGBOUNCER_DEFAULTS: PgbouncerOptions = {
  students: 150,
  thinkMs: 300,
  seed: Date.now() % 1_000_000,
  awaySeconds: 0,
  pooler: true,
};

/** PgBouncer's server connections for both instances together (each instance pools 20). */
const SERVER_POOL = 6;
/** Start and stop of PostgreSQL and the probes' pace: readiness may miss this much of an outage. */
const AWAY_SLACK_SECONDS = 3;
const PASSWORD = 'Cluster-check-2026!';

export async function runPgbouncerCheck(options: Partial<PgbouncerOptions> = {}) {
  const opts = { ...PGBOUNCER_DEFAULTS, ...options };
  const failures: string[] = [];
  let passed = 0;
  const expect = (ok: boolean, what: string) => {
    if (ok) passed += 1;
    else failures.push(what);
    console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}`);
  };
  const r = rng(opts.seed);
  const t0 = performance.now();
  const scratch = await mkdtemp(path.join(os.tmpdir(), 'podium-pgbouncer-'));
  const postgres = await startOwnPostgres();
  const instances: ServerProcess[] = [];
  let stopBouncer: (() => Promise<void>) | undefined;
  let proxy: Awaited<ReturnType<typeof startHaproxy>> | undefined;
  let client: HttpClient | undefined;
  const s3 = await startS3('podium-pgbouncer');
  const db = await createBenchDatabase('podium_pgbouncer', postgres.url);
  try {
    const pool = db.database.pool;
    if (!pool) throw new Error('PostgreSQL database without a pool');
    const bouncer = opts.pooler
      ? await startPgbouncer(postgres, SERVER_POOL, path.join(scratch, 'pgbouncer.log'))
      : undefined;
    stopBouncer = bouncer?.stop;
    const seeded = await seedExam(db.database.db, {
      students: opts.students,
      items: 20,
      durationMinutes: 60,
    });
    const admin = await makeUser(db.database.db, { type: 'admin', password: PASSWORD });
    const ports = [await freePort(), await freePort()];
    const start = (i: number) =>
      startServer({
        script: 'server/main.ts',
        port: ports[i],
        env: {
          ...(bouncer
            ? {
                DATABASE_URL: bouncer.url(db.name),
                DATABASE_POOLER: 'transaction',
                DATABASE_DIRECT_URL: db.url,
              }
            : { DATABASE_URL: db.url }),
          WORKERS: '1',
          LOG_LEVEL: 'warn',
          DATA_DIR: path.join(scratch, `instance-${i + 1}`),
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
    const pids = instances.map((i) => i.pid);
    proxy = await startHaproxy(scratch, await freePort(), ports);
    const disruption =
      opts.awaySeconds > 0
        ? `PostgreSQL stopped for ${opts.awaySeconds} s`
        : 'PostgreSQL restarted';
    console.log(
      `${disruption} (seed ${opts.seed}): ${opts.students} students; two instances ${bouncer ? `through PgBouncer (transaction mode, ${SERVER_POOL} server connections)` : 'straight on PostgreSQL'} behind HAProxy`,
    );
    const direct = (i: number) => `http://127.0.0.1:${ports[i]}`;

    // Statements through the pooler run under the exam-day limit, the role's default that the
    // instances set on the direct connection (no start-up parameter reaches PostgreSQL).
    if (bouncer) {
      const through = new pg.Client({ connectionString: bouncer.url(db.name) });
      await through.connect();
      const limit = (
        await through.query<{ setting: string }>(
          `select setting from pg_settings where name = 'statement_timeout'`,
        )
      ).rows[0]?.setting;
      await through.end();
      expect(
        limit === String(DEFAULT_STATEMENT_TIMEOUTS.examDayMs),
        `statements through PgBouncer run under the exam-day limit (statement_timeout ${limit} ms)`,
      );
    }

    const signIn = await fetch(`${proxy.base}/api/v1/auth-service/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: admin.email, password: PASSWORD }),
    });
    const token = signIn.status === 200 ? ((await signIn.json()) as { token: string }).token : '';
    // A list (the `request` limit, SET LOCAL through the pooler) on both instances.
    const lists = await Promise.all(
      [0, 1].map((i) =>
        fetch(`${direct(i)}/api/v1/exam-mgmt/exams`, {
          headers: { authorization: `Bearer ${token}` },
        }).then((res) => res.status),
      ),
    );
    expect(
      token !== '' && lists.every((s) => s === 200),
      `an admin signed in through the proxy; lists answer on both instances (${lists.join(', ')})`,
    );

    const c = new HttpClient(proxy.base, 128);
    client = c;
    const testId = seeded.testId;
    const students = seeded.students.map(virtualStudent);
    const state = retryingState();
    let answering = true;
    const examDone = Promise.all(
      students.map((s) =>
        takeExam(c, s, testId, {
          state,
          r,
          patienceMs: 90_000,
          thinkMs: opts.thinkMs,
          arrivalMs: 1000,
          keepAnswering: (k) => answering && k < 500,
        }),
      ),
    );
    const answersSoFar = async (n: number) => {
      while (state.acked < n) await sleep(20);
    };

    /**
     * Staff give student `s` a minute on instance 1; the student's event stream on instance 2
     * hears of it (LISTEN on the direct connection, NOTIFY through the pooler). Sent again
     * every 2 s for up to `ms`: after a restart the listener reconnects with a backoff.
     */
    const noticeCrosses = async (s: (typeof students)[number], ms: number) => {
      const stream = openEventStream(direct(1), `${PLAYER}/${testId}/events`, s.headers);
      try {
        if ((await stream.opened).status !== 200) return false;
        const deadline = Date.now() + ms;
        while (stream.events() < 1 && Date.now() < deadline) await sleep(20);
        while (Date.now() < deadline) {
          const before = stream.events();
          const given = await fetch(
            `${direct(0)}/api/v1/test-player/tests/${testId}/students/${s.id}/extra-time`,
            {
              method: 'POST',
              headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
              body: JSON.stringify({ minutes: 1, reason: 'Verificare între instanțe' }),
            },
          );
          if (given.status !== 200)
            console.log(`extra time: ${given.status} ${await given.text()}`);
          for (let i = 0; i < 100 && stream.events() === before; i++) await sleep(20);
          if (stream.events() > before) return true;
        }
        return false;
      } finally {
        stream.close();
      }
    };

    await answersSoFar(opts.students * 3);
    const [first, second] = students.filter((s) => s.started);
    expect(
      first !== undefined && (await noticeCrosses(first, 10_000)),
      'a notice from one instance reaches a player on the other',
    );

    // Readiness of each instance, every 100 ms, until the end of the exam: when it answers 503,
    // does it say that the database is what is missing?
    const notReady = [0, 1].map(() => ({
      from: 0,
      to: 0,
      count: 0,
      otherwise: 0,
      kinds: new Map<string, number>(),
    }));
    let probing = true;
    const probes = [0, 1].map(async (i) => {
      const probe = new HttpClient(direct(i), 1);
      while (probing) {
        const res = await probe.request('GET', '/api/v1/health/ready', {}, undefined, 2_000);
        const seen = notReady[i];
        if (res.status !== 200 && seen) {
          const now = performance.now();
          if (seen.count === 0) seen.from = now;
          seen.to = now;
          seen.count += 1;
          const said = (() => {
            try {
              return (JSON.parse(res.body) as { database?: { status?: string } }).database?.status;
            } catch {
              return undefined;
            }
          })();
          // A probe with no answer within 2 s (a busy machine) says nothing either way.
          if (res.status !== 0 && (res.status !== 503 || said !== 'unavailable')) {
            seen.otherwise += 1;
          }
          const kind = `${res.status} ${said ?? res.error ?? ''}`.trim();
          seen.kinds.set(kind, (seen.kinds.get(kind) ?? 0) + 1);
        }
        await sleep(100);
      }
      probe.close();
    });

    await answersSoFar(state.acked + opts.students * 2);
    const ackedBefore = state.acked;
    console.log(
      opts.awaySeconds > 0
        ? `stopping PostgreSQL for ${opts.awaySeconds} s (pg_ctl stop -m fast, then start) after ${ackedBefore} answers`
        : `restarting PostgreSQL (pg_ctl restart -m fast) after ${ackedBefore} answers`,
    );
    const restartAt = performance.now();
    const restartMs =
      opts.awaySeconds > 0
        ? await postgres.away(opts.awaySeconds * 1000)
        : await postgres.restart();
    // Back when an answer is acknowledged again through the proxy after the restart.
    const afterRestart = state.acked;
    await answersSoFar(afterRestart + 1);
    const backMs = performance.now() - restartAt;
    await answersSoFar(state.acked + opts.students * 2);
    expect(
      second !== undefined && (await noticeCrosses(second, 20_000)),
      'after the restart, a notice from one instance still reaches a player on the other',
    );
    answering = false;
    await examDone;
    probing = false;
    await Promise.all(probes);

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
    const failed = Object.fromEntries(state.failed);
    // What a student's device met while the database was away: 503 with Retry-After, or (a
    // request the proxy could not hand on) no answer at all. Never a 500.
    const unexpected = [...state.failed.keys()].filter(
      (k) => !/^503 DATABASE_UNAVAILABLE Retry-After: \d+$/.test(k) && !k.startsWith('0 '),
    );
    expect(
      unexpected.length === 0,
      `calls sent again were refused as 503 with Retry-After (${JSON.stringify(failed)})`,
    );
    const alive = await Promise.all(
      instances.map((i) => Promise.race([i.exited.then(() => false), sleep(50).then(() => true)])),
    );
    expect(
      alive.every(Boolean) && instances.every((i, n) => i.pid === pids[n]),
      'both instances lived through the restart as the same processes',
    );
    const ready = await Promise.all(
      [0, 1].map((i) => fetch(`${direct(i)}/api/v1/health/ready`).then((res) => res.status)),
    );
    expect(
      ready.every((s) => s === 200),
      `both instances ready again (${ready.join(', ')})`,
    );
    if (opts.awaySeconds > 0) {
      // Away long enough to be seen: readiness said so for (nearly) all of it, the students'
      // calls met refusals for as long, and everything they kept arrived afterwards.
      const span = (n: (typeof notReady)[number]) => (n.to - n.from) / 1000;
      const awayFor = opts.awaySeconds - AWAY_SLACK_SECONDS;
      expect(
        notReady.every((n) => span(n) >= awayFor && n.otherwise === 0),
        `while PostgreSQL was away each instance's readiness answered 503 with the database unavailable for ≥ ${awayFor} s and answered nothing else (${notReady.map((n) => `${span(n).toFixed(1)} s, ${n.otherwise} other answers`).join('; ')})`,
      );
      const refusedFor = Math.max(0, ...state.failedAt.map((t) => t - restartAt)) / 1000;
      expect(
        refusedFor >= awayFor,
        `students' calls were refused while it was away and stored after (the last refusal ${refusedFor.toFixed(1)} s after it went away)`,
      );
    }

    const gap = (n: number) => (n / 1000).toFixed(1);
    const retried = [...state.failed.values()].reduce((a, b) => a + b, 0);
    const since = state.failedAt.map((t) => t - restartAt);
    const before = since.filter((t) => t < 0).length;
    const last = Math.max(0, ...since);
    console.log(
      `${opts.awaySeconds > 0 ? `away: stopped, ${opts.awaySeconds} s, started and answering again in` : 'restart: pg_ctl restart'} ${gap(restartMs)} s; first answer acknowledged again ${gap(backMs)} s after it began; ${retried} calls refused (${JSON.stringify(failed)}), ${before} before the restart, the last ${gap(last)} s after it began; readiness probes not ready: ${notReady
        .map(
          (n, i) =>
            `instance ${i + 1} ${n.count} over ${gap(n.to - n.from)} s ${JSON.stringify(Object.fromEntries(n.kinds))}`,
        )
        .join(', ')}; ${state.acked} answers acknowledged, ${state.retries} calls sent again`,
    );

    const ok = failures.length === 0;
    const seconds = (performance.now() - t0) / 1000;
    console.log(`${ok ? 'PASSED' : 'FAILED'} in ${seconds.toFixed(1)} s (seed ${opts.seed})`);
    if (!ok) {
      console.log(`failed: ${failures.join('; ')}`);
      console.log(`logs kept in ${scratch}`);
      for (const f of [
        ...(opts.pooler ? ['pgbouncer.log'] : []),
        'instance-1.log',
        'instance-2.log',
      ]) {
        const tail = readFileSync(path.join(scratch, f), 'utf8').split('\n').slice(-15);
        console.log(`--- ${f}\n${tail.join('\n')}`);
      }
    }
    return { ok, passed, failures };
  } finally {
    client?.close();
    proxy?.stop();
    for (const i of instances) await i?.kill9();
    await stopBouncer?.().catch(() => {});
    await s3.close();
    await db.database.close().catch(() => {});
    await postgres.stop();
    if (failures.length === 0) await rm(scratch, { recursive: true, force: true });
  }
}

export const pgbouncerCli = (argv: string[]): Promise<number> =>
  runCheckCli(argv, PGBOUNCER_DEFAULTS, runPgbouncerCheck);

/**
 * `npm run bench -- db-outage [--away 30] [--direct] [--students 150] [--think-ms 300]
 * [--seed n]`: the same check with PostgreSQL stopped for `--away` seconds (0: restarted), through
 * PgBouncer or, with `--direct`, the instances straight on PostgreSQL. Too long for CI.
 */
export async function outageCli(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      away: { type: 'string' },
      direct: { type: 'boolean' },
      students: { type: 'string' },
      'think-ms': { type: 'string' },
      seed: { type: 'string' },
    },
  });
  const num = (v: string | undefined, d: number) => (v === undefined ? d : Number(v));
  const result = await runPgbouncerCheck({
    students: num(values.students, PGBOUNCER_DEFAULTS.students),
    thinkMs: num(values['think-ms'], PGBOUNCER_DEFAULTS.thinkMs),
    seed: num(values.seed, PGBOUNCER_DEFAULTS.seed),
    awaySeconds: num(values.away, 30),
    pooler: !values.direct,
  });
  console.log(`${result.passed} passed, ${result.failures.length} failed`);
  return result.ok ? 0 : 1;
}

if (
  process.argv[1] &&
  path.resolve(process.argv[1]) === path.join(ROOT, 'bench', 'cluster-pgbouncer.ts')
) {
  process.exit(await pgbouncerCli(process.argv.slice(2)));
}
