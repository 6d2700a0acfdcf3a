// The pieces the exam-day benchmark and the crash check share: a throwaway PostgreSQL database,
// server processes (started, awaited, killed), a lean HTTP client, per-call latency records,
// open- and closed-loop load, and CPU accounting per process.

import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, openSync, readdirSync, readFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { type Database, openDatabase } from '../server/db/client.js';
import { migrate } from '../server/db/migrate.js';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DEFAULT_PG = 'postgres://postgres@127.0.0.1:5432/postgres';

// ---------------------------------------------------------------------------------------
// Database

export type BenchDatabase = {
  url: string;
  name: string;
  database: Database;
  /**
   * Server settings that decide whether an acknowledged commit survives a crash, and when
   * PostgreSQL checkpoints (after one, the first change of every page logs the whole page).
   */
  durability: {
    synchronousCommit: string;
    fsync: string;
    version: string;
    checkpointTimeout: string;
    maxWalSize: string;
  };
  drop(): Promise<void>;
};

async function adminQuery(url: string, text: string) {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    await c.query(text);
  } finally {
    await c.end();
  }
}

/**
 * A fresh, migrated database on the PostgreSQL server of DATABASE_URL (else the local one),
 * refused unless commits are durable: a benchmark on `synchronous_commit = off` or
 * `fsync = off` would measure acknowledgements that a crash can take back.
 */
export async function createBenchDatabase(prefix: string): Promise<BenchDatabase> {
  const base = process.env.DATABASE_URL || DEFAULT_PG;
  const name = `${prefix}_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  await adminQuery(base, `create database ${name}`);
  const drop = () => adminQuery(base, `drop database if exists ${name} with (force)`);
  const u = new URL(base);
  u.pathname = `/${name}`;
  const url = u.toString();
  const database = await openDatabase({ databaseUrl: url, poolSize: 4 });
  try {
    await migrate(database);
    const pool = database.pool;
    if (!pool) throw new Error('PostgreSQL database without a pool');
    const setting = async (n: string) =>
      String((await pool.query(`select current_setting('${n}') as v`)).rows[0]?.v);
    const durability = {
      synchronousCommit: await setting('synchronous_commit'),
      fsync: await setting('fsync'),
      version: await setting('server_version'),
      checkpointTimeout: await setting('checkpoint_timeout'),
      maxWalSize: await setting('max_wal_size'),
    };
    if (durability.synchronousCommit === 'off' || durability.fsync !== 'on') {
      throw new Error(
        `PostgreSQL commits are not durable (synchronous_commit=${durability.synchronousCommit}, fsync=${durability.fsync}); the benchmark measures durable acknowledgements only`,
      );
    }
    return {
      url,
      name,
      database,
      durability,
      drop: async () => {
        await database.close().catch(() => {});
        await drop();
      },
    };
  } catch (err) {
    await database.close().catch(() => {});
    await drop().catch(() => {});
    throw err;
  }
}

// ---------------------------------------------------------------------------------------
// Processes

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const address = s.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      s.close(() => resolve(port));
    });
  });
}

export type ServerProcess = {
  pid: number;
  port: number;
  base: string;
  /** Resolves with the exit code (null when killed by a signal). */
  exited: Promise<number | null>;
  /** SIGKILL: no shutdown hooks, no flushing, as a power cut or an OOM kill. */
  kill9(): Promise<void>;
  /** SIGTERM and wait (SIGKILL after 10 s). */
  stop(): Promise<void>;
};

export type StartOptions = {
  /** Script relative to the repository root, run as `node --import tsx <script>`. */
  script: string;
  env: Record<string, string>;
  port?: number;
  /** stdout and stderr go straight to this file (appended), not through this process. */
  logFile: string;
  /** A GET path answering 200 once the server is ready. */
  readyPath: string;
  timeoutMs?: number;
  /** Extra Node flags, e.g. `--cpu-prof` to profile the server. */
  nodeArgs?: string[];
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function tail(file: string, lines = 30) {
  try {
    return readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n');
  } catch {
    return '';
  }
}

/** Starts a Node server process the way `npm start` does and waits until it answers. */
export async function startServer(opts: StartOptions): Promise<ServerProcess> {
  const port = opts.port ?? (await freePort());
  const fd = openSync(opts.logFile, 'a');
  let child: ChildProcess;
  try {
    child = spawn(process.execPath, [...(opts.nodeArgs ?? []), '--import', 'tsx', opts.script], {
      cwd: ROOT,
      env: { ...process.env, ...opts.env, PORT: String(port), HOST: '127.0.0.1' },
      stdio: ['ignore', fd, fd],
    });
  } finally {
    closeSync(fd);
  }
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => resolve(code)),
  );
  let gone = false;
  void exited.then(() => {
    gone = true;
  });
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + (opts.timeoutMs ?? 60_000);
  const probe = new HttpClient(base, 1);
  try {
    for (;;) {
      if (gone) throw new Error(`${opts.script} exited while starting:\n${tail(opts.logFile)}`);
      const r = await probe.request('GET', opts.readyPath, {}, undefined, 2_000);
      if (r.status === 200) break;
      if (Date.now() > deadline) {
        child.kill('SIGKILL');
        throw new Error(`${opts.script} not ready in time:\n${tail(opts.logFile)}`);
      }
      await sleep(100);
    }
  } finally {
    probe.close();
  }
  const pid = child.pid ?? 0;
  return {
    pid,
    port,
    base,
    exited,
    async kill9() {
      // Every process of the server at once: a clustered server's workers die with it.
      if (!gone) {
        for (const p of processTree(pid)) {
          try {
            process.kill(p, 'SIGKILL');
          } catch {
            // Already gone.
          }
        }
      }
      await exited;
    },
    async stop() {
      if (gone) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

// ---------------------------------------------------------------------------------------
// HTTP

export type Reply = {
  /** 0 when no HTTP answer arrived (connection refused or reset, timeout). */
  status: number;
  body: string;
  /** The network error's code when status is 0. */
  error?: string;
};

type Pending = {
  head: Buffer;
  body: Buffer | undefined;
  timeoutMs: number;
  resolve: (r: Reply) => void;
};

const CRLF2 = Buffer.from('\r\n\r\n');

/**
 * One keep-alive HTTP/1.1 connection carrying one request at a time. A minimal client (no
 * redirects, no compression) so the load generator, which shares the machine with the server
 * and PostgreSQL, spends as little CPU per request as it can.
 */
class Connection {
  private readonly socket: net.Socket;
  private current: Pending | undefined;
  private buffer: Buffer = Buffer.alloc(0);
  private timer: NodeJS.Timeout | undefined;
  closed = false;

  constructor(
    host: string,
    port: number,
    private readonly onIdle: (c: Connection) => void,
    private readonly onClosed: (c: Connection) => void,
  ) {
    this.socket = net.connect({ host, port, noDelay: true });
    this.socket.on('data', (chunk: Buffer) => this.onData(chunk));
    this.socket.on('error', (e: NodeJS.ErrnoException) => this.fail(e.code ?? e.message));
    this.socket.on('close', () => this.fail('ECONNRESET'));
  }

  send(p: Pending) {
    this.current = p;
    this.buffer = Buffer.alloc(0);
    this.timer = setTimeout(() => this.fail('TIMEOUT'), p.timeoutMs);
    if (p.body) this.socket.write(Buffer.concat([p.head, p.body]));
    else this.socket.write(p.head);
  }

  private onData(chunk: Buffer) {
    this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
    const end = this.buffer.indexOf(CRLF2);
    if (end < 0 || !this.current) return;
    const head = this.buffer.toString('latin1', 0, end);
    const status = Number(head.slice(9, 12));
    const lower = head.toLowerCase();
    const lengthAt = lower.indexOf('\r\ncontent-length:');
    let body: string | undefined;
    let consumed = 0;
    if (lengthAt >= 0) {
      const lineEnd = lower.indexOf('\r\n', lengthAt + 2);
      const length = Number.parseInt(
        lower.slice(lengthAt + 17, lineEnd < 0 ? undefined : lineEnd),
        10,
      );
      if (this.buffer.length < end + 4 + length) return;
      body = this.buffer.toString('utf8', end + 4, end + 4 + length);
      consumed = end + 4 + length;
    } else if (lower.includes('\r\ntransfer-encoding: chunked')) {
      const parts: Buffer[] = [];
      let at = end + 4;
      for (;;) {
        const lineEnd = this.buffer.indexOf('\r\n', at);
        if (lineEnd < 0) return;
        const size = Number.parseInt(this.buffer.toString('latin1', at, lineEnd), 16);
        if (this.buffer.length < lineEnd + 2 + size + 2) return;
        if (size === 0) {
          consumed = lineEnd + 4;
          break;
        }
        parts.push(this.buffer.subarray(lineEnd + 2, lineEnd + 2 + size));
        at = lineEnd + 2 + size + 2;
      }
      body = Buffer.concat(parts).toString('utf8');
    } else {
      // No length: the body runs to the end of the connection (not sent by Fastify).
      body = '';
      consumed = end + 4;
    }
    const p = this.current;
    this.current = undefined;
    clearTimeout(this.timer);
    this.buffer = this.buffer.subarray(consumed);
    p.resolve({ status, body });
    if (lower.includes('\r\nconnection: close')) this.destroy();
    else this.onIdle(this);
  }

  private fail(error: string) {
    clearTimeout(this.timer);
    const p = this.current;
    this.current = undefined;
    if (!this.closed) {
      this.closed = true;
      this.socket.destroy();
      this.onClosed(this);
    }
    p?.resolve({ status: 0, body: '', error });
  }

  destroy() {
    this.fail('CLOSED');
  }
}

/**
 * A keep-alive HTTP/1.1 client with a bounded pool of connections, like a proxy's upstream
 * pool: beyond `maxSockets` requests wait in its queue (and that wait counts in latency).
 */
export class HttpClient {
  private readonly host: string;
  private readonly port: number;
  private readonly idle: Connection[] = [];
  private readonly queue: Pending[] = [];
  private open = 0;
  private closed = false;

  constructor(
    base: string,
    private readonly maxSockets: number,
  ) {
    const u = new URL(base);
    this.host = u.hostname;
    this.port = Number(u.port);
  }

  request(
    method: string,
    pathname: string,
    headers: Record<string, string>,
    body?: string,
    timeoutMs = 30_000,
  ): Promise<Reply> {
    return new Promise((resolve) => {
      let head = `${method} ${pathname} HTTP/1.1\r\nhost: ${this.host}:${this.port}\r\n`;
      for (const [k, v] of Object.entries(headers)) head += `${k}: ${v}\r\n`;
      const bytes = body === undefined ? undefined : Buffer.from(body, 'utf8');
      if (bytes) head += `content-type: application/json\r\ncontent-length: ${bytes.length}\r\n`;
      head += '\r\n';
      this.dispatch({ head: Buffer.from(head, 'latin1'), body: bytes, timeoutMs, resolve });
    });
  }

  private dispatch(p: Pending) {
    if (this.closed) {
      p.resolve({ status: 0, body: '', error: 'CLOSED' });
      return;
    }
    const c = this.idle.pop();
    if (c) c.send(p);
    else if (this.open < this.maxSockets) {
      this.open += 1;
      new Connection(
        this.host,
        this.port,
        (conn) => this.onIdle(conn),
        (conn) => this.onClosed(conn),
      ).send(p);
    } else this.queue.push(p);
  }

  private onIdle(c: Connection) {
    const next = this.queue.shift();
    if (next) c.send(next);
    else this.idle.push(c);
  }

  private onClosed(c: Connection) {
    this.open -= 1;
    const i = this.idle.indexOf(c);
    if (i >= 0) this.idle.splice(i, 1);
    // A request queued behind a connection that died gets a fresh connection.
    const next = this.queue.shift();
    if (next) this.dispatch(next);
  }

  close() {
    this.closed = true;
    for (const c of [...this.idle]) c.destroy();
    for (const p of this.queue.splice(0)) p.resolve({ status: 0, body: '', error: 'CLOSED' });
  }
}

/**
 * One player's event stream (`GET …/events`, text/event-stream) on its own connection, as a
 * browser holds it: `opened` resolves with the status once the response head arrives (body
 * empty), `events` counts the events read so far, `close` ends it.
 */
export function openEventStream(base: string, pathname: string, headers: Record<string, string>) {
  const u = new URL(base);
  const socket = net.connect({ host: u.hostname, port: Number(u.port), noDelay: true });
  let head = `GET ${pathname} HTTP/1.1\r\nhost: ${u.hostname}:${u.port}\r\naccept: text/event-stream\r\n`;
  for (const [k, v] of Object.entries(headers)) head += `${k}: ${v}\r\n`;
  socket.write(`${head}\r\n`);
  let seen = '';
  let events = 0;
  let settle: (r: Reply) => void = () => {};
  const opened = new Promise<Reply>((resolve) => {
    settle = resolve;
  });
  socket.on('data', (chunk: Buffer) => {
    const text = chunk.toString('utf8');
    if (seen.length < 1024) {
      seen += text;
      const end = seen.indexOf('\r\n\r\n');
      if (end >= 0) settle({ status: Number(seen.slice(9, 12)), body: '' });
    }
    events += text.split('\nevent: ').length - 1 + (text.startsWith('event: ') ? 1 : 0);
  });
  socket.on('error', (e: NodeJS.ErrnoException) => settle({ status: 0, body: '', error: e.code }));
  socket.on('close', () => settle({ status: 0, body: '', error: 'ECONNRESET' }));
  return {
    opened,
    events: () => events,
    close: () => socket.destroy(),
  };
}

export const isOk = (r: Reply) => r.status >= 200 && r.status < 300;

/** The error code of a Podium error body, if any. */
export function errorCodeOf(r: Reply): string | undefined {
  try {
    return (JSON.parse(r.body) as { error?: { code?: string } }).error?.code;
  } catch {
    return undefined;
  }
}

// ---------------------------------------------------------------------------------------
// Latency records

export type CallSummary = {
  call: string;
  count: number;
  ok: number;
  errors: number;
  /** What went wrong, by status (`409 TEST_NOT_ACTIVE`) or network error (`ECONNRESET`). */
  errorKinds: Record<string, number>;
  /** Successful calls per second over the span from the first send to the last answer. */
  okPerSecond: number;
  p50: number;
  p99: number;
  p999: number;
  max: number;
  mean: number;
};

/** One slice of a call's timeline: requests due in it and their latencies. */
export type TimelineSlice = {
  /** Wall-clock start of the slice (to line up with the PostgreSQL log). */
  at: string;
  count: number;
  errors: number;
  p50: number;
  p99: number;
  max: number;
};

const percentile = (sorted: Float64Array, p: number) =>
  sorted.length === 0
    ? 0
    : (sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)] ?? 0);

export class CallStats {
  private latencies: number[] = [];
  private dueAt: number[] = [];
  private failed: number[] = [];
  private kinds = new Map<string, number>();
  private ok = 0;
  private first = Number.POSITIVE_INFINITY;
  private last = 0;

  constructor(readonly call: string) {}

  /** `since` is when the call was due (open model) or sent (closed model), performance.now(). */
  add(since: number, r: Reply) {
    const now = performance.now();
    this.latencies.push(now - since);
    this.dueAt.push(since);
    this.first = Math.min(this.first, since);
    this.last = Math.max(this.last, now);
    if (isOk(r)) {
      this.ok += 1;
      return;
    }
    this.failed.push(this.latencies.length - 1);
    const kind =
      r.status === 0 ? (r.error ?? 'network') : `${r.status} ${errorCodeOf(r) ?? ''}`.trim();
    this.kinds.set(kind, (this.kinds.get(kind) ?? 0) + 1);
  }

  get count() {
    return this.latencies.length;
  }

  summary(): CallSummary {
    const sorted = Float64Array.from(this.latencies).sort();
    const n = sorted.length;
    const span = (this.last - this.first) / 1000;
    return {
      call: this.call,
      count: n,
      ok: this.ok,
      errors: n - this.ok,
      errorKinds: Object.fromEntries(this.kinds),
      okPerSecond: span > 0 ? this.ok / span : 0,
      p50: percentile(sorted, 0.5),
      p99: percentile(sorted, 0.99),
      p999: percentile(sorted, 0.999),
      max: n === 0 ? 0 : (sorted[n - 1] ?? 0),
      mean: n === 0 ? 0 : sorted.reduce((a, b) => a + b, 0) / n,
    };
  }

  /** Latency by slices of `sliceMs` of due time: shows when a phase slowed down, not just that it did. */
  timeline(sliceMs: number): TimelineSlice[] {
    const slices: number[][] = [];
    const errors: number[] = [];
    this.latencies.forEach((ms, i) => {
      const k = Math.floor(((this.dueAt[i] ?? 0) - this.first) / sliceMs);
      const slice = slices[k] ?? [];
      slice.push(ms);
      slices[k] = slice;
    });
    for (const i of this.failed) {
      const k = Math.floor(((this.dueAt[i] ?? 0) - this.first) / sliceMs);
      errors[k] = (errors[k] ?? 0) + 1;
    }
    const wallOffset = Date.now() - performance.now();
    return Array.from(slices, (list, k) => {
      const sorted = Float64Array.from(list ?? []).sort();
      return {
        at: new Date(wallOffset + this.first + k * sliceMs).toISOString(),
        count: sorted.length,
        errors: errors[k] ?? 0,
        p50: percentile(sorted, 0.5),
        p99: percentile(sorted, 0.99),
        max: sorted.length === 0 ? 0 : (sorted[sorted.length - 1] ?? 0),
      };
    });
  }
}

// ---------------------------------------------------------------------------------------
// Load

export type LoopResult = {
  sent: number;
  elapsedMs: number;
  /** The worst delay between when a request was due and when it was sent (generator lag). */
  maxLagMs: number;
};

/**
 * Open model: request i is due at start + i / rate whatever happened to earlier ones, and its
 * latency counts from that due time, so a slow server cannot slow the arrivals down and hide
 * its queue (no coordinated omission).
 */
export function openLoop(opts: {
  rate: number;
  count: number;
  fire: (i: number, dueAt: number) => Promise<void>;
}): Promise<LoopResult> {
  const { rate, count, fire } = opts;
  const t0 = performance.now();
  let i = 0;
  let inFlight = 0;
  let maxLagMs = 0;
  return new Promise((resolve, reject) => {
    const maybeDone = () => {
      if (i >= count && inFlight === 0) {
        resolve({ sent: count, elapsedMs: performance.now() - t0, maxLagMs });
      }
    };
    const tick = () => {
      const now = performance.now();
      while (i < count) {
        const due = t0 + (i * 1000) / rate;
        if (due > now) break;
        maxLagMs = Math.max(maxLagMs, now - due);
        inFlight += 1;
        fire(i, due).then(() => {
          inFlight -= 1;
          maybeDone();
        }, reject);
        i += 1;
      }
      if (i < count) setTimeout(tick, Math.max(0, t0 + (i * 1000) / rate - performance.now()));
      else maybeDone();
    };
    if (count === 0) resolve({ sent: 0, elapsedMs: 0, maxLagMs: 0 });
    else tick();
  });
}

/** Closed model: `concurrency` workers each send their next request when the last returns. */
export async function closedLoop(opts: {
  concurrency: number;
  durationMs: number;
  next: () => Promise<void>;
}): Promise<LoopResult> {
  const t0 = performance.now();
  const end = t0 + opts.durationMs;
  let sent = 0;
  await Promise.all(
    Array.from({ length: opts.concurrency }, async () => {
      while (performance.now() < end) {
        sent += 1;
        await opts.next();
      }
    }),
  );
  return { sent, elapsedMs: performance.now() - t0, maxLagMs: 0 };
}

// ---------------------------------------------------------------------------------------
// CPU accounting (Linux /proc): which process spent the machine's two cores

const TICKS_PER_SECOND = 100;

/** The process and every process under it (a clustered server's workers). */
export function processTree(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      const list = children.get(ppid) ?? [];
      list.push(Number(entry));
      children.set(ppid, list);
    } catch {
      // The process ended while we looked.
    }
  }
  const tree = [pid];
  for (let i = 0; i < tree.length; i += 1) tree.push(...(children.get(tree[i] ?? -1) ?? []));
  return tree;
}

function processTicks(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command (which may contain spaces) start after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return 0;
  }
}

/**
 * The PostgreSQL processes working for the bench: the backends connected to its database and
 * the WAL writer (other people's databases on the same server are left out).
 */
async function postgresPids(pool: pg.Pool, database: string): Promise<number[]> {
  const { rows } = await pool.query<{ pid: number }>(
    `select pid from pg_stat_activity where datname = $1 or backend_type = 'walwriter'`,
    [database],
  );
  return rows.map((r) => r.pid);
}

export type CpuSample = {
  at: number;
  server: number;
  /** CPU seconds per PostgreSQL process. */
  postgres: Map<number, number>;
  generator: number;
  /** Checkpoints PostgreSQL has begun so far (timed or requested). */
  checkpoints: number;
};

/** Checkpoints begun since the statistics were reset (pg_stat_checkpointer from PostgreSQL 17). */
async function checkpointsBegun(pool: pg.Pool): Promise<number> {
  const { rows } = await pool
    .query<{ n: string }>('select checkpoints_timed + checkpoints_req as n from pg_stat_bgwriter')
    .catch(() =>
      pool.query<{ n: string }>('select num_timed + num_requested as n from pg_stat_checkpointer'),
    );
  return Number(rows[0]?.n ?? 0);
}

/** CPU seconds used so far by the server process, the bench's PostgreSQL processes and this one. */
export async function cpuSample(
  serverPid: number,
  pool: pg.Pool,
  database: string,
): Promise<CpuSample> {
  const pids = await postgresPids(pool, database);
  const self = process.cpuUsage();
  return {
    at: performance.now(),
    // A clustered server: its workers' CPU counts (the supervisor's is next to nothing).
    server:
      processTree(serverPid).reduce((sum, pid) => sum + processTicks(pid), 0) / TICKS_PER_SECOND,
    postgres: new Map(pids.map((pid) => [pid, processTicks(pid) / TICKS_PER_SECOND])),
    generator: (self.user + self.system) / 1e6,
    checkpoints: await checkpointsBegun(pool),
  };
}

/**
 * Average cores busy between two samples per process group, and CPU milliseconds per request
 * (`requests` sent in between): what one answer costs the server, PostgreSQL and the generator.
 */
export function cpuBetween(a: CpuSample, b: CpuSample, requests: number) {
  const s = (b.at - a.at) / 1000;
  const round = (x: number) => Math.round(x * 100) / 100;
  // A backend that appeared in between (the pool grew) counts from zero; one that ended in
  // between is missed, and the bench's own query connection costs next to nothing.
  let postgres = 0;
  for (const [pid, seconds] of b.postgres) postgres += seconds - (a.postgres.get(pid) ?? 0);
  const used = {
    server: b.server - a.server,
    postgres,
    generator: b.generator - a.generator,
  };
  const perRequest = (x: number) => (requests > 0 ? round((x * 1000) / requests) : 0);
  return {
    server: round(used.server / s),
    postgres: round(used.postgres / s),
    generator: round(used.generator / s),
    checkpoints: b.checkpoints - a.checkpoints,
    requests,
    msPerRequest: {
      server: perRequest(used.server),
      postgres: perRequest(used.postgres),
      generator: perRequest(used.generator),
    },
  };
}

/** Cores busy per slice of a phase, sampled every `everyMs`: which process ran out first, and when. */
export class CpuMonitor {
  readonly slices: { at: string; server: number; postgres: number; generator: number }[] = [];
  private timer: NodeJS.Timeout | undefined;
  private previous: CpuSample | undefined;
  private busy = false;

  constructor(
    private readonly serverPid: number,
    private readonly pool: pg.Pool,
    private readonly database: string,
    private readonly everyMs = 5000,
  ) {}

  async start() {
    this.previous = await cpuSample(this.serverPid, this.pool, this.database);
    this.timer = setInterval(() => void this.sample(), this.everyMs);
  }

  private async sample() {
    if (this.busy || !this.previous) return;
    this.busy = true;
    try {
      const now = await cpuSample(this.serverPid, this.pool, this.database);
      const c = cpuBetween(this.previous, now, 0);
      this.slices.push({
        at: new Date().toISOString(),
        server: c.server,
        postgres: c.postgres,
        generator: c.generator,
      });
      this.previous = now;
    } finally {
      this.busy = false;
    }
  }

  stop() {
    clearInterval(this.timer);
    return this.slices;
  }
}

// ---------------------------------------------------------------------------------------
// Small helpers

/** A deterministic pseudo-random generator (mulberry32): r(n) is an integer in [0, n). */
export function rng(seed: number) {
  let a = seed;
  return (n: number) => {
    a = (a + 0x6d2b79f5) | 0;
    let x = Math.imul(a ^ (a >>> 15), 1 | a);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return Math.floor((((x ^ (x >>> 14)) >>> 0) / 4_294_967_296) * n);
  };
}

export { sleep };
