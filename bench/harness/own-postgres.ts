// A PostgreSQL server and a PgBouncer in front of it, both of the test's own: started from
// Debian's binaries into a scratch directory on free ports, restarted and stopped at will,
// never the machine's shared server. As root, both run as the `postgres` user (neither runs as
// root).

import { type ChildProcess, execFile, spawn, spawnSync } from 'node:child_process';
import { chownSync, closeSync, existsSync, openSync, readdirSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { promisify } from 'node:util';
import pg from 'pg';
import { freePort } from './processes.js';
import { sleep } from './util.js';

const isRoot = process.getuid?.() === 0;

/** Debian's newest PostgreSQL binaries (/usr/lib/postgresql/<major>/bin). */
function postgresBin(): string {
  const root = '/usr/lib/postgresql';
  const majors = existsSync(root)
    ? readdirSync(root)
        .filter((v) => existsSync(path.join(root, v, 'bin', 'initdb')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (!majors[0]) throw new Error('PostgreSQL server binaries not found under /usr/lib/postgresql');
  return path.join(root, majors[0], 'bin');
}

/** A command as the `postgres` user when this process is root. */
const asPostgres = (cmd: string, args: string[]): [string, string[]] =>
  isRoot ? ['runuser', ['-u', 'postgres', '--', cmd, ...args]] : [cmd, args];

function run(cmd: string, args: string[]) {
  const [c, a] = asPostgres(cmd, args);
  const done = spawnSync(c, a, { encoding: 'utf8' });
  if (done.status !== 0) {
    throw new Error(`${cmd} ${args.join(' ')} failed:\n${done.stderr || done.error || ''}`);
  }
}

/** Answers once a plain connection to `url` works (or throws after `ms`). */
async function answering(url: string, ms: number) {
  const deadline = Date.now() + ms;
  for (;;) {
    const c = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1_000 });
    try {
      await c.connect();
      await c.query('select 1');
      await c.end();
      return;
    } catch (err) {
      await c.end().catch(() => {});
      if (Date.now() > deadline) throw err;
      await sleep(100);
    }
  }
}

export type OwnPostgres = {
  /** `postgres://postgres@127.0.0.1:<port>/postgres`, trust authentication. */
  url: string;
  dir: string;
  /** `pg_ctl restart -m fast`: every connection ended, the server back; answers its length. */
  restart(): Promise<number>;
  /**
   * `pg_ctl stop -m fast`, `ms` with no server at all (connections refused), then started again;
   * answers the whole length, until a connection works again.
   */
  away(ms: number): Promise<number>;
  stop(): Promise<void>;
};

export async function startOwnPostgres(): Promise<OwnPostgres> {
  const bin = postgresBin();
  const dir = await mkdtemp(path.join(os.tmpdir(), 'podium-pg-'));
  if (isRoot) chownSync(dir, ...postgresIds());
  const data = path.join(dir, 'data');
  const port = await freePort();
  const pgCtl = path.join(bin, 'pg_ctl');
  // The scratch cluster itself may be lost (--no-sync); the server writes durably (fsync on,
  // as the bench database's check requires).
  run(path.join(bin, 'initdb'), [
    '-D',
    data,
    '-U',
    'postgres',
    '--auth=trust',
    '-E',
    'UTF8',
    '--no-sync',
    '--no-instructions',
  ]);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c max_connections=200`;
  const log = path.join(dir, 'postgres.log');
  run(pgCtl, ['-D', data, '-l', log, '-o', options, '-w', 'start']);
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  await answering(url, 30_000);
  return {
    url,
    dir,
    async restart() {
      const t0 = performance.now();
      // Not spawnSync: the students keep answering while it runs. The server it starts writes
      // to the log, not to this process's pipes (pg_ctl would wait on them).
      const [c, a] = asPostgres(pgCtl, ['-D', data, '-l', log, '-m', 'fast', '-w', 'restart']);
      await promisify(execFile)(c, a);
      await answering(url, 30_000);
      return performance.now() - t0;
    },
    async away(ms: number) {
      const t0 = performance.now();
      const [c, a] = asPostgres(pgCtl, ['-D', data, '-m', 'fast', '-w', 'stop']);
      await promisify(execFile)(c, a);
      await sleep(Math.max(0, ms - (performance.now() - t0)));
      const [c2, a2] = asPostgres(pgCtl, ['-D', data, '-l', log, '-o', options, '-w', 'start']);
      await promisify(execFile)(c2, a2);
      await answering(url, 30_000);
      return performance.now() - t0;
    },
    async stop() {
      try {
        run(pgCtl, ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
  };
}

function postgresIds(): [number, number] {
  const id = (flag: string) =>
    Number(spawnSync('id', [flag, 'postgres'], { encoding: 'utf8' }).stdout);
  return [id('-u'), id('-g')];
}

/** PgBouncer as the cluster test runs it (docs/OPERATIONS.md shows the same settings). */
export function pgbouncerConfig(opts: {
  listen: number;
  postgresPort: number;
  authFile: string;
  poolSize: number;
}): string {
  return `[databases]
* = host=127.0.0.1 port=${opts.postgresPort}

[pgbouncer]
listen_addr = 127.0.0.1
listen_port = ${opts.listen}
unix_socket_dir =
auth_type = trust
auth_file = ${opts.authFile}
pool_mode = transaction
; Server connections per database and user: all the instances' statements share these.
default_pool_size = ${opts.poolSize}
max_client_conn = 500
; PostgreSQL restarted: try to log in again after a second, not fifteen, and tell a client
; that waits for a server connection no longer than this (Podium answers 503 meanwhile).
server_login_retry = 1
server_connect_timeout = 3
query_wait_timeout = 10
`;
}

export type OwnPgbouncer = {
  url: (database: string) => string;
  pid: number;
  stop(): Promise<void>;
};

/**
 * PgBouncer in the foreground in front of `postgres` (the test's own server, or any one reached
 * as `postgres` without a password: its URL and a scratch directory for the configuration), in
 * transaction mode; resolves once it answers.
 */
export async function startPgbouncer(
  postgres: Pick<OwnPostgres, 'url' | 'dir'>,
  poolSize: number,
  logFile: string,
): Promise<OwnPgbouncer> {
  const listen = await freePort();
  const authFile = path.join(postgres.dir, 'pgbouncer-users.txt');
  writeFileSync(authFile, '"postgres" ""\n');
  const config = path.join(postgres.dir, 'pgbouncer.ini');
  writeFileSync(
    config,
    pgbouncerConfig({
      listen,
      postgresPort: Number(new URL(postgres.url).port),
      authFile,
      poolSize,
    }),
  );
  if (isRoot) {
    const ids = postgresIds();
    chownSync(postgres.dir, ...ids);
    chownSync(authFile, ...ids);
    chownSync(config, ...ids);
  }
  const log = openSync(logFile, 'a');
  let child: ChildProcess;
  try {
    child = spawn('pgbouncer', [...(isRoot ? ['-u', 'postgres'] : []), config], {
      stdio: ['ignore', log, log],
    });
  } finally {
    closeSync(log);
  }
  const failed = new Promise<never>((_, reject) => {
    child.once('error', () =>
      reject(new Error('PgBouncer is not installed (Debian: apt-get install pgbouncer)')),
    );
    child.once('exit', (code) => reject(new Error(`PgBouncer exited (${code}); see ${logFile}`)));
  });
  failed.catch(() => {});
  const url = (database: string) => `postgres://postgres@127.0.0.1:${listen}/${database}`;
  await Promise.race([answering(url('postgres'), 15_000), failed]);
  return {
    url,
    pid: child.pid ?? 0,
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGINT');
      await exited;
    },
  };
}
