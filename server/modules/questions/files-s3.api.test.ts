import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/app.js';
import { startS3 } from '../../test/s3.js';
import { startStalledServer } from '../../test/smtp.js';
import { codeOf, type Part, questionsKit, tinyPng } from './questions.fixtures.js';

type S3 = Awaited<ReturnType<typeof startS3>>;
// Each test starts apps of its own: slow on a busy machine; the bounds that matter are the
// storage's own timeouts.
const SLOW = { timeout: 120_000 };
const closers: { close(): Promise<void> }[] = [];
afterAll(async () => {
  for (const c of closers.reverse()) await c.close();
});

const png = (): Part => ({
  name: 'file',
  filename: 'figura.png',
  type: 'image/png',
  value: tinyPng(300),
});
const ready = async (t: TestApp) => (await t.app.inject({ url: '/api/v1/health/ready' })).json();

describe('statement images in an S3-compatible storage', SLOW, () => {
  let s3: S3;
  let t: TestApp;
  beforeAll(async () => {
    s3 = await startS3();
    closers.push(s3);
    t = await buildTestApp({ env: s3.env({ STORAGE_TIMEOUT_SECONDS: '1' }) });
    closers.push(t);
  });

  it('stores and reads back an image byte for byte, and readiness says the storage is fine', async () => {
    const kit = questionsKit(t);
    const w = await kit.world();
    const up = await kit.upload('/files', w.examAdmin.headers, [png()]);
    expect(up.statusCode).toBe(200);
    const read = await kit.call('GET', `/files/${up.json()._id}`, w.examAdmin.headers);
    expect(read.statusCode).toBe(200);
    expect(read.rawPayload.equals(tinyPng(300))).toBe(true);
    expect(await ready(t)).toMatchObject({
      status: 'ok',
      database: { status: 'ok' },
      storage: { status: 'ok', kind: 's3' },
      mail: { status: 'ok', kind: 'directory' },
    });
  });

  it('answers a clear, retryable STORAGE_UNAVAILABLE while the storage is down', async () => {
    const kit = questionsKit(t);
    const w = await kit.world();
    const up = await kit.upload('/files', w.examAdmin.headers, [png()]);
    const id = up.json()._id;
    await s3.stop();
    const failed = await kit.upload('/files', w.examAdmin.headers, [png()]);
    expect(failed.statusCode).toBe(503);
    expect(codeOf(failed)).toBe('STORAGE_UNAVAILABLE');
    const read = await kit.call('GET', `/files/${id}`, w.examAdmin.headers);
    expect(read.statusCode).toBe(503);
    expect(codeOf(read)).toBe('STORAGE_UNAVAILABLE');
    // Liveness stays up; readiness says what is wrong (checks are kept 10 s: a fresh app asks).
    expect((await t.app.inject({ url: '/api/v1/health' })).statusCode).toBe(200);
    const fresh = await buildTestApp({ env: s3.env({ STORAGE_TIMEOUT_SECONDS: '1' }) });
    closers.push(fresh);
    const res = await fresh.app.inject({ url: '/api/v1/health/ready' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      status: 'degraded',
      storage: { status: 'unavailable', detail: expect.stringMatching(/ECONNREFUSED|connection/) },
    });
  });
});

describe('a storage that accepts connections and never answers', SLOW, () => {
  it('fails the upload within the timeout instead of hanging', async () => {
    const stalled = await startStalledServer();
    closers.push(stalled);
    const t = await buildTestApp({
      env: {
        S3_ENDPOINT: `http://127.0.0.1:${stalled.port}`,
        S3_BUCKET: 'podium',
        S3_ACCESS_KEY_ID: 'x',
        S3_SECRET_ACCESS_KEY: 'y',
        STORAGE_TIMEOUT_SECONDS: '1',
      },
    });
    closers.push(t);
    const kit = questionsKit(t);
    const w = await kit.world();
    const up = await kit.upload('/files', w.examAdmin.headers, [png()]);
    expect(up.statusCode).toBe(503);
    expect(codeOf(up)).toBe('STORAGE_UNAVAILABLE');
    expect(up.json().error.message).toMatch(/no answer in time/);
    expect(await ready(t)).toMatchObject({ storage: { status: 'unavailable' } });
  });
});

describe('a wrong bucket', SLOW, () => {
  it('is reported by readiness and never passes for a missing file', async () => {
    const s3 = await startS3('podium');
    closers.push(s3);
    const right = await buildTestApp({ env: s3.env() });
    closers.push(right);
    const kit = questionsKit(right);
    const w = await kit.world();
    const id = (await kit.upload('/files', w.examAdmin.headers, [png()])).json()._id;

    const wrong = await buildTestApp({ env: s3.env({ S3_BUCKET: 'podium-typo' }) });
    closers.push(wrong);
    expect(await ready(wrong)).toMatchObject({
      status: 'degraded',
      storage: { status: 'unavailable', detail: expect.stringMatching(/podium-typo/) },
    });
    // The same file row read through the misconfigured storage: unavailable, not "not found".
    const storage = (await import('../../lib/files/storage.js')).createStorage(wrong.config);
    await expect(storage.get(`files/${id}`)).rejects.toMatchObject({ code: 'STORAGE_UNAVAILABLE' });
  });
});
