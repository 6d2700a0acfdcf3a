import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/app.js';
import { startS3 } from '../../test/s3.js';
import { freePort, startSmtp, startStalledServer } from '../../test/smtp.js';

// Liveness (/health) answers for the database alone; readiness (/health/ready) says what works
// of the database, the file storage and the mail server, against real servers that are up,
// down or silent, and never fails for the storage or the mail.

const closers: { close(): Promise<void> }[] = [];
/** Server processes still running (a test that timed out leaves none behind). */
const children = new Set<ChildProcess>();
afterAll(async () => {
  for (const child of children) child.kill('SIGKILL');
  for (const c of closers.reverse()) await c.close();
});
// Starting apps and server processes is slow on a busy machine; the bounds that matter are
// measured inside the tests.
const SLOW = { timeout: 120_000 };

async function app(env: NodeJS.ProcessEnv) {
  const t = await buildTestApp({ env: { MAIL_TIMEOUT_SECONDS: '1', ...env } });
  closers.push(t);
  return t;
}
const live = (t: TestApp) => t.app.inject({ url: '/api/v1/health' });
const ready = (t: TestApp) => t.app.inject({ url: '/api/v1/health/ready' });
const signup = (t: TestApp, email: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/v1/auth-service/auth/signup',
    payload: { email, password: 'parola-sigura-1', type: 'student', locale: 'ro' },
  });

describe('readiness with real mail and storage servers', SLOW, () => {
  it('is ok when the SMTP server and the bucket answer', async () => {
    const smtp = await startSmtp();
    closers.push(smtp);
    const s3 = await startS3();
    closers.push(s3);
    const t = await app(s3.env({ SMTP_URL: smtp.url }));
    const res = await ready(t);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      status: 'ok',
      database: { status: 'ok', kind: t.database.kind },
      storage: { status: 'ok', kind: 's3' },
      mail: { status: 'ok', kind: 'smtp', queued: 0, retrying: 0, failed: 0 },
    });
  });

  it('reports the mail server and the storage down, and the mail waiting, while liveness stays up', async () => {
    const s3 = await startS3();
    closers.push(s3);
    await s3.stop();
    const t = await app(
      s3.env({ SMTP_URL: `smtp://127.0.0.1:${await freePort()}`, STORAGE_TIMEOUT_SECONDS: '1' }),
    );
    // Two sign-ups queue their confirmations; one attempt fails and waits for a retry.
    expect((await signup(t, 'unu@example.ro')).statusCode).toBe(202);
    await t.deliverMail();
    expect((await signup(t, 'doi@example.ro')).statusCode).toBe(202);

    const res = await ready(t);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      status: 'degraded',
      database: { status: 'ok' },
      storage: { status: 'unavailable', kind: 's3', detail: expect.stringMatching(/ECONNREFUSED/) },
      mail: {
        status: 'unavailable',
        kind: 'smtp',
        detail: expect.stringMatching(/ECONNREFUSED/),
        queued: 1,
        retrying: 1,
        failed: 0,
      },
    });
    const liveness = await live(t);
    expect(liveness.statusCode).toBe(200);
    expect(liveness.json()).toMatchObject({ status: 'ok', database: 'ok' });
  });

  it('answers within its bound when the mail server and the storage accept connections and say nothing', async () => {
    const silentSmtp = await startStalledServer({ greet: false });
    closers.push(silentSmtp);
    const silentS3 = await startStalledServer();
    closers.push(silentS3);
    const t = await app({
      SMTP_URL: silentSmtp.url,
      S3_ENDPOINT: `http://127.0.0.1:${silentS3.port}`,
      S3_BUCKET: 'podium',
      S3_ACCESS_KEY_ID: 'x',
      S3_SECRET_ACCESS_KEY: 'y',
      STORAGE_TIMEOUT_SECONDS: '1',
    });
    const started = Date.now();
    const res = await ready(t);
    // Mail: two timeouts at most; storage: four; both asked at once. Seconds, not minutes
    // (with room for a busy machine).
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      status: 'degraded',
      storage: { status: 'unavailable', detail: expect.stringMatching(/no answer in time/) },
      mail: { status: 'unavailable', detail: expect.stringMatching(/timeout|No answer/i) },
    });
    expect((await live(t)).statusCode).toBe(200);
  });
});

describe('readiness of a stopping instance', SLOW, () => {
  it('answers 503 stopping once the instance is stopping, at once, while liveness stays up', async () => {
    const t = await app({});
    expect((await ready(t)).statusCode).toBe(200);
    // SIGTERM behind a balancer (server/main.ts): the balancer's checks must take the instance
    // out while it still serves what is sent to it.
    t.app.beginStopping();
    const res = await ready(t);
    expect(res.statusCode).toBe(503);
    expect(res.json()).toMatchObject({ status: 'stopping', database: { status: 'ok' } });
    expect((await live(t)).statusCode).toBe(200);
    // Everything else is still served.
    expect((await signup(t, 'trei@example.ro')).statusCode).toBe(202);
  });
});

/** Runs the real server (`server/main.ts`) until its log has a line matching `until`. */
async function serverLog(env: NodeJS.ProcessEnv, until: RegExp, ms = 170_000) {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'podium-start-'));
  const { DATABASE_URL: _shared, ...parent } = process.env;
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    env: {
      ...parent,
      DATA_DIR: dataDir,
      HOST: '127.0.0.1',
      PORT: String(await freePort()),
      WORKERS: '1',
      LOG_LEVEL: 'info',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  const lines: string[] = [];
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no such line:\n${lines.join('\n')}`)), ms);
      let rest = '';
      const read = (chunk: Buffer) => {
        rest += String(chunk);
        const parts = rest.split('\n');
        rest = parts.pop() ?? '';
        lines.push(...parts);
        if (parts.some((l) => until.test(l))) {
          clearTimeout(timer);
          resolve();
        }
      };
      child.stdout.on('data', read);
      child.stderr.on('data', read);
      child.on('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`server exited (${code}):\n${lines.join('\n')}`));
      });
    });
    return lines;
  } finally {
    child.removeAllListeners('exit');
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    children.delete(child);
    await rm(dataDir, { recursive: true, force: true });
  }
}

describe('the file storage checked at start', { timeout: 180_000 }, () => {
  it('logs a wrong bucket as an error naming it, and the server still starts', async () => {
    const s3 = await startS3('podium');
    closers.push(s3);
    const lines = await serverLog(s3.env({ S3_BUCKET: 'podium-gresit' }), /Server listening/);
    const logged = lines.filter((l) => l.startsWith('{')).map((l) => JSON.parse(l));
    const problem = logged.find((l) => /file storage unavailable at start/.test(l.msg));
    expect(problem).toMatchObject({
      level: 50,
      err: {
        code: 'STORAGE_UNAVAILABLE',
        message: expect.stringMatching(/no bucket podium-gresit/),
      },
    });
  });
});
