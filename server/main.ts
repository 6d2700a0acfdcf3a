import cluster from 'node:cluster';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { buildApp } from './app.js';
import { loadConfig, retiredVariables } from './config.js';
import { openDatabase, warmPool } from './db/client.js';
import { migrate, poolerStatementTimeout } from './db/migrate.js';
import { createStorage } from './lib/files/storage.js';
import { createMailer } from './lib/mail/mailer.js';
import { answerClusterScrapes, clusterRegistry, listenMetrics } from './lib/metrics.js';
import { originWarning } from './lib/origin.js';
import { startBanner } from './lib/start-banner.js';
import { flushTracing, startTracing } from './lib/tracing.js';
import { poolSizePerWorker, superviseWorkers, workerCount } from './lib/workers.js';
import { ensureAdmin } from './modules/auth/index.js';
import { warmPlayerConnection } from './modules/player/index.js';
import { usersService } from './modules/users/index.js';

/**
 * Reads the configuration, opens and migrates the database, and serves until told to stop. On
 * PostgreSQL several processes serve one port (`WORKERS`, default one per core); each one
 * migrates under the migration lock and runs the sweeper, which shares its work by row locks.
 */
const LISTEN_BACKLOG = 4096;
/**
 * Behind a balancer, a stopping instance keeps serving at least this long: above the
 * balancer's time to see its readiness fail (the HAProxy settings of docs/OPERATIONS.md:
 * checks every 0.5 s, out after 2 failed).
 */
const DRAIN_MIN_MS = 2_000;
/** ...and until no request but a health check has come for this long: the balancer is gone. */
const DRAIN_QUIET_MS = 500;
/**
 * ...but no longer than this (a balancer that never checks readiness, or whose checks time out
 * slowly), leaving time to finish what is in flight.
 */
const DRAIN_MAX_MS = 7_000;
/** A stopping process that has not closed by then exits with code 1. */
const DRAIN_TIMEOUT_MS = 10_000;
const HEALTH_PATH = '/api/v1/health';

async function main() {
  const workers = workerCount();
  if (cluster.isPrimary && workers > 1) {
    const log = (msg: string) =>
      console.log(
        process.stdout.isTTY
          ? msg
          : JSON.stringify({ level: 30, time: Date.now(), pid: process.pid, msg }),
      );
    superviseWorkers(workers, log);
    // One scrape answers for every worker: the first process gathers theirs.
    const { metrics } = loadConfig();
    if (metrics.port !== undefined) {
      const at = await listenMetrics({
        ...metrics,
        port: metrics.port,
        registry: clusterRegistry(),
        aggregate: true,
      });
      log(`metrics of ${workers} workers on http://${metrics.host}:${at.port}/metrics`);
    }
    return;
  }
  const config = loadConfig();
  // Before the database and the app, so that their errors and requests are traced too.
  await startTracing(config);
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    pgliteDir: path.join(config.dataDir, 'pgdata'),
    poolSize: poolSizePerWorker(workers),
    keepConnections: true,
    statementTimeoutMs: config.statementTimeouts.examDayMs,
    ...(config.databaseDirectUrl === undefined ? {} : { directUrl: config.databaseDirectUrl }),
  });
  await migrate(database, config.statementTimeouts.examDayMs);
  // Every connection open and exam day's statements planned before the first request. Through
  // a transaction pooler a statement is planned on whichever server connection takes it: there
  // is nothing to plan ahead.
  if (database.pool && database.directUrl === undefined) {
    await warmPool(database.pool, warmPlayerConnection);
  }

  const log = { info: (obj: object, msg?: string) => app.log.info(obj, msg) };
  const storage = createStorage(config);
  const app = await buildApp({
    config,
    database,
    mailer: createMailer(config, log),
    storage,
    runJobs: true,
    logger: {
      level: config.logLevel,
      ...(process.stdout.isTTY ? { transport: { target: 'pino-pretty' } } : {}),
    },
  });

  // A wrong bucket or unreachable storage would make every file look missing: say so at once
  // (the server still starts: online tests need no files; /api/v1/health/ready keeps saying it).
  await storage
    .check()
    .catch((err: unknown) =>
      app.log.error({ err }, 'file storage unavailable at start (check S3_* settings)'),
    );
  // On a terminal the start-up banner says it all once, readably; elsewhere (a service's
  // journal, a container's log) the same facts go out as log lines.
  const banner = process.stdout.isTTY === true;
  const bootstrap = await ensureAdmin({
    db: database.db,
    users: usersService({ db: database.db }),
    config,
    log: banner ? { warn: () => {} } : app.log,
  });
  if (database.kind === 'pglite' && !banner) {
    app.log.warn(
      'Running on the embedded database (PGlite): fine for trying Podium and small events; graded exams belong on PostgreSQL (set DATABASE_URL).',
    );
  }
  const poolerLimit = await poolerStatementTimeout(database, config.statementTimeouts.examDayMs);
  if (poolerLimit) {
    app.log.warn(
      `statements through the pooler run under statement_timeout ${poolerLimit}, not STATEMENT_TIMEOUT_EXAM_DAY_MS: its connections opened before the role's default changed (PgBouncer: RECONNECT), or it connects as another role (docs/OPERATIONS.md)`,
    );
  }
  const originProblem = originWarning(config);
  const warnings = [...(originProblem ? [originProblem] : []), ...retiredVariables()];
  if (!banner) for (const warning of warnings) app.log.warn(warning);
  const newAdmin = bootstrap.created ? bootstrap : undefined;

  // SIGTERM drains. Without a balancer in front (TRUST_PROXY unset) nobody sends on a kept
  // connection: it stops taking connections and closes at once. Behind a balancer it must not
  // close anything while the balancer may still be sending on it: closing the listening socket
  // resets the connections the kernel has accepted and the process not yet taken (a request
  // may already be on them), and closing a kept connection resets a request sent on it that
  // was not read yet (HAProxy then drops the client's connection without an answer: the
  // cluster check's resets of 0–21 calls a stop). So readiness answers 503 `stopping` at once
  // and the instance goes on serving, every answer closing its connection, until the balancer's
  // checks have taken it out (DRAIN_MIN_MS) and no request but a check has come for
  // DRAIN_QUIET_MS (DRAIN_MAX_MS at the most). Then Fastify closes: event streams end (players
  // reconnect elsewhere), idle connections close, in-flight requests finish, the sweeper and
  // jobs finish their step.
  let draining = false;
  let lastRequestAt = 0;
  let servedWhileDraining = 0;
  app.server.prependListener('request', (req, res) => {
    if (!draining) return;
    res.setHeader('connection', 'close');
    if (req.url?.startsWith(HEALTH_PATH)) return;
    lastRequestAt = performance.now();
    servedWhileDraining += 1;
  });
  /** Resolves once the balancer sends nothing more: true, or false when DRAIN_MAX_MS ran out. */
  const balancerGone = async (since: number) => {
    for (;;) {
      await sleep(50);
      // A request whose bytes wait unread (the event loop was busy) is read in this turn's
      // poll phase, before setImmediate's: it counts before the quiet is believed.
      await new Promise((resolve) => setImmediate(resolve));
      const now = performance.now();
      if (now - since >= DRAIN_MAX_MS) return false;
      if (now - since >= DRAIN_MIN_MS && now - lastRequestAt >= DRAIN_QUIET_MS) return true;
    }
  };
  const shutdown = async (signal: string) => {
    if (draining) return;
    draining = true;
    const since = performance.now();
    lastRequestAt = since;
    app.beginStopping();
    app.log.info({ signal }, 'shutting down');
    const force = setTimeout(() => {
      app.log.error(`still closing after ${DRAIN_TIMEOUT_MS} ms; leaving anyway`);
      process.exit(1);
    }, DRAIN_TIMEOUT_MS);
    force.unref();
    if (config.trustProxy) {
      const gone = await balancerGone(since);
      const drained = {
        ms: Math.round(performance.now() - since),
        served: servedWhileDraining,
        lastRequestMsAgo: Math.round(performance.now() - lastRequestAt),
      };
      if (gone) app.log.info(drained, 'the balancer sends no more; closing');
      else {
        app.log.warn(
          drained,
          `the balancer still sends after ${DRAIN_MAX_MS} ms (are its health checks on /api/v1/health/ready?); closing anyway`,
        );
      }
    }
    await app.close().catch((err) => app.log.error({ err }, 'close failed'));
    await database.close().catch(() => {});
    await flushTracing().catch(() => {});
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  // Exam day opens thousands of connections in a minute (each player also holds its event
  // stream): a deep accept queue (Linux caps it at net.core.somaxconn) keeps a worker busy for a
  // moment from making new connections wait for TCP's 1-, 3- and 7-second retries.
  try {
    await app.listen({ port: config.port, host: config.host, backlog: LISTEN_BACKLOG });
  } catch (err) {
    // The admin exists now: its password must not be lost with the failed start.
    if (banner && newAdmin?.generatedPassword) {
      console.log(`First admin ${newAdmin.email}, password ${newAdmin.generatedPassword}`);
    }
    throw err;
  }
  // One banner per start: the process that created the admin, or the first worker.
  if (banner && (newAdmin || !cluster.isWorker || cluster.worker?.id === 1)) {
    const port = (app.server.address() as AddressInfo | null)?.port ?? config.port;
    console.log(
      startBanner({ config, databaseKind: database.kind, port, admin: newAdmin, warnings }),
    );
  }
  if (app.metrics && config.metrics.port !== undefined) {
    if (cluster.isWorker) answerClusterScrapes(app.metrics);
    else {
      const at = await listenMetrics({
        ...config.metrics,
        port: config.metrics.port,
        registry: app.metrics.registry,
      });
      app.log.info(`metrics on http://${config.metrics.host}:${at.port}/metrics`);
    }
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
