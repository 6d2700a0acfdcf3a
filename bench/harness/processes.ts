// Server processes for a benchmark: started the way `npm start` does, awaited, killed.

import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import net from 'node:net';
import { processTree } from './cpu.js';
import { HttpClient } from './http.js';
import { ROOT, sleep } from './util.js';

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
  /** SIGTERM and wait (SIGKILL after 10 s); answers the exit code (null when killed). */
  stop(): Promise<number | null>;
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
  // A machine busy with other work can take minutes to start a server (tsx compiles it first).
  const deadline = Date.now() + (opts.timeoutMs ?? 180_000);
  const probe = new HttpClient(base, 1);
  try {
    for (;;) {
      if (gone) throw new Error(`${opts.script} exited while starting:\n${tail(opts.logFile)}`);
      const r = await probe.request('GET', opts.readyPath, {}, undefined, 2_000);
      if (r.status === 200) break;
      if (Date.now() > deadline) {
        // The whole tree: a clustered server's workers would otherwise live on.
        for (const p of processTree(child.pid ?? 0)) {
          try {
            process.kill(p, 'SIGKILL');
          } catch {
            // Already gone.
          }
        }
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
      if (gone) return exited;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      const code = await exited;
      clearTimeout(timer);
      return code;
    },
  };
}
