import cluster from 'node:cluster';
import { availableParallelism } from 'node:os';

/** A setting that must be a whole number above zero, or undefined (unset or anything else). */
function wholeAboveZero(value: string | undefined): number | undefined {
  const n = value === undefined || value === '' ? Number.NaN : Number(value);
  return Number.isInteger(n) && n >= 1 ? n : undefined;
}

/**
 * How many server processes to run. The embedded database lives inside one process, so PGlite
 * always gets one; on PostgreSQL `WORKERS` decides, else one per core: a process is one event
 * loop, and on exam day thousands of starts in the same minute need every core.
 */
export function workerCount(env: NodeJS.ProcessEnv = process.env): number {
  if (!env.DATABASE_URL) return 1;
  const wanted = wholeAboveZero(env.WORKERS);
  if (wanted) return Math.min(wanted, 64);
  return availableParallelism();
}

/**
 * Database connections each server process keeps: `DATABASE_POOL_SIZE` when it is a whole
 * number above zero, else 6, shared down so that all processes together stay within 80 (under
 * PostgreSQL's default of 100 connections, leaving room for the migrations, psql and backups).
 * Few on purpose: queries beyond the database's cores only queue inside it, and PostgreSQL
 * plans a prepared statement afresh on each of its first five runs on a connection, so every
 * extra connection adds planning to the first second of exam day's burst. Measured on the
 * 2-core bench machine: 20 per process, start p99 298–515 ms and finish p99 10–12 s; 6 per
 * process, 26 ms and 6.7 s (bench/README.md).
 */
const DEFAULT_POOL_SIZE = 6;

export function poolSizePerWorker(workers: number, env: NodeJS.ProcessEnv = process.env): number {
  const wanted = wholeAboveZero(env.DATABASE_POOL_SIZE);
  if (wanted) return wanted;
  return Math.max(2, Math.min(DEFAULT_POOL_SIZE, Math.floor(80 / Math.max(1, workers))));
}

type Log = (message: string) => void;

/**
 * Runs `count` worker processes of this script sharing one port, replaces one that dies (any
 * process may be killed at any moment: only PostgreSQL holds state), and passes SIGTERM/SIGINT
 * on, exiting once they are gone.
 */
export function superviseWorkers(count: number, log: Log): void {
  let stopping = false;
  const recentDeaths: number[] = [];

  // Each worker accepts its own connections from the shared socket. The default (the first
  // process accepts and hands each connection over, one at a time per worker, through a message
  // the worker must answer) made exam day's burst of new connections wait seconds behind the
  // workers' busy event loops; a busy worker now simply leaves the next connection to an idle one.
  cluster.schedulingPolicy = cluster.SCHED_NONE;
  const fork = () => cluster.fork();
  for (let i = 0; i < count; i += 1) fork();

  cluster.on('exit', (worker, code, signal) => {
    if (stopping) {
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0);
      return;
    }
    log(`worker ${worker.process.pid} ended (${signal ?? `code ${code}`}); starting another`);
    const now = Date.now();
    recentDeaths.push(now);
    while (recentDeaths.length > 0 && (recentDeaths[0] ?? now) < now - 60_000) recentDeaths.shift();
    // A worker that cannot start (bad settings, database down) should not spin the machine.
    setTimeout(fork, recentDeaths.length > count * 3 ? 5_000 : 0);
  });

  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    log(`${signal}: stopping ${Object.keys(cluster.workers ?? {}).length} workers`);
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill(signal);
    const force = setTimeout(() => process.exit(1), 12_000);
    force.unref();
    if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0);
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}
