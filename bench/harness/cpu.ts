// CPU accounting from Linux /proc: which process spent the machine's two cores.

import { readdirSync, readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import type pg from 'pg';

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
  /** CPU seconds of the connection pooler (PgBouncer) in front of PostgreSQL, 0 without one. */
  pooler: number;
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
  poolerPid?: number,
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
    pooler: poolerPid === undefined ? 0 : processTicks(poolerPid) / TICKS_PER_SECOND,
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
    pooler: b.pooler - a.pooler,
  };
  const perRequest = (x: number) => (requests > 0 ? round((x * 1000) / requests) : 0);
  return {
    server: round(used.server / s),
    postgres: round(used.postgres / s),
    generator: round(used.generator / s),
    pooler: round(used.pooler / s),
    checkpoints: b.checkpoints - a.checkpoints,
    requests,
    msPerRequest: {
      server: perRequest(used.server),
      postgres: perRequest(used.postgres),
      generator: perRequest(used.generator),
      pooler: perRequest(used.pooler),
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
