import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Test } from '../../../shared/schemas/tests.js';
import { files } from '../../db/schema.js';
import { createStorage } from '../../lib/files/storage.js';
import { uuidv7 } from '../../lib/ids.js';
import { buildTestApp, type TestApp } from '../../test/app.js';
import { startS3 } from '../../test/s3.js';
import { startStalledServer } from '../../test/smtp.js';
import { codeOf, makePng, testBody, testsKit } from './tests.fixtures.js';

// Printing a test paper whose figure lives in an S3-compatible storage: it prints with the
// figure, or fails with a clear, logged error — never a paper without it.

const hasChromium = existsSync(process.env.CHROMIUM_PATH ?? '/usr/bin/chromium');
const hasPoppler = existsSync('/usr/bin/pdfimages');
type S3 = Awaited<ReturnType<typeof startS3>>;
// Each test builds a whole competition (a dozen sign-ins): slow on a busy machine; the
// bounds that matter are measured inside the tests.
const SLOW = { timeout: 120_000 };
const closers: { close(): Promise<void> }[] = [];
afterAll(async () => {
  for (const c of closers.reverse()) await c.close();
});

/** An app whose error log the test reads. */
async function loggedApp(env: NodeJS.ProcessEnv) {
  const errors: { msg: string; err?: { message?: string } }[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      errors.push(JSON.parse(String(chunk)));
      done();
    },
  });
  const t = await buildTestApp({ env, logger: { level: 'error', stream } });
  closers.push(t);
  return { t, errors };
}

/**
 * A grade-5 test of one question whose figure is file `figure`; its bytes are put in
 * `storeIn` (the app's own storage unless another is given, none when null).
 */
async function paperWithFigure(t: TestApp, storeIn: TestApp['config'] | null = t.config) {
  const kit = testsKit(t);
  const w = await kit.world();
  const data = makePng(64);
  const figure = uuidv7();
  if (storeIn) await createStorage(storeIn).put(`files/${figure}`, data, 'image/png');
  await t.database.db.insert(files).values({
    id: figure,
    storageKey: `files/${figure}`,
    mime: 'image/png',
    size: data.length,
    sha256: createHash('sha256').update(data).digest('hex'),
    originalName: 'figura.png',
  });
  await kit.addQuestions(w.phase.id, 1, {
    grade: 5,
    difficulty: 'low',
    itemQ: 'Câte triunghiuri sunt în figură?',
    itemType: 'numeric',
    itemAnswers: [],
    itemCorrectAnswers: '5',
    imageFileId: figure,
  });
  const created = await kit.call(
    'POST',
    w.testsUrl,
    w.examAdmin.headers,
    testBody({ easyCount: 1, mediumCount: 0, hardCount: 0 }),
  );
  expect(created.statusCode, created.body).toBe(201);
  const url = `${w.testsUrl}/${(created.json() as Test)._id}/download`;
  return {
    figure,
    print: () =>
      kit.call('POST', url, w.staff.headers, { callbackUrl: 'http://podium.test/teacher' }),
  };
}

describe('a test paper whose figure is in an S3-compatible storage', SLOW, () => {
  let s3: S3;
  let app: Awaited<ReturnType<typeof loggedApp>>;
  let paper: Awaited<ReturnType<typeof paperWithFigure>>;
  beforeAll(async () => {
    s3 = await startS3();
    closers.push(s3);
    app = await loggedApp(s3.env({ STORAGE_TIMEOUT_SECONDS: '1' }));
    paper = await paperWithFigure(app.t);
  }, 120_000);

  it.skipIf(!hasChromium)('prints with the figure read from the bucket', async () => {
    const res = await paper.print();
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    expect(res.rawPayload.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    if (hasPoppler) {
      const dir = await mkdtemp(path.join(tmpdir(), 'podium-paper-s3-'));
      try {
        const file = path.join(dir, 'paper.pdf');
        await writeFile(file, res.rawPayload);
        const list = execFileSync('pdfimages', ['-list', file], { encoding: 'utf8' });
        // A header of two lines, then one line per image: the 64×64 figure is there.
        expect(list.split('\n').filter((l) => /\b64\s+64\b/.test(l))).toHaveLength(1);
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    }
  });

  it('fails with a logged, retryable STORAGE_UNAVAILABLE while the storage is down', async () => {
    await s3.stop();
    try {
      const errorsBefore = app.errors.length;
      const res = await paper.print();
      expect(res.statusCode).toBe(503);
      expect(codeOf(res)).toBe('STORAGE_UNAVAILABLE');
      const logged = app.errors.slice(errorsBefore);
      expect(logged).toEqual([
        expect.objectContaining({
          msg: 'STORAGE_UNAVAILABLE',
          err: expect.objectContaining({ message: expect.stringMatching(/File storage/) }),
        }),
      ]);
    } finally {
      await s3.restart();
    }
  });

  it('fails with 409 PAPER_IMAGE_MISSING when the figure is gone from the bucket', async () => {
    await createStorage(app.t.config).delete(`files/${paper.figure}`);
    const res = await paper.print();
    expect(res.statusCode).toBe(409);
    expect(codeOf(res)).toBe('PAPER_IMAGE_MISSING');
    expect(res.json().error.details).toEqual({ fileId: paper.figure });
  });
});

describe('a test paper on a storage that accepts connections and never answers', SLOW, () => {
  it('fails within seconds with STORAGE_UNAVAILABLE instead of hanging or printing without the figure', async () => {
    const stalled = await startStalledServer();
    closers.push(stalled);
    const { t, errors } = await loggedApp({
      S3_ENDPOINT: `http://127.0.0.1:${stalled.port}`,
      S3_BUCKET: 'podium',
      S3_ACCESS_KEY_ID: 'x',
      S3_SECRET_ACCESS_KEY: 'y',
      STORAGE_TIMEOUT_SECONDS: '1',
    });
    const paper = await paperWithFigure(t, null);
    const started = Date.now();
    const res = await paper.print();
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(res.statusCode).toBe(503);
    expect(codeOf(res)).toBe('STORAGE_UNAVAILABLE');
    expect(errors.map((e) => e.msg)).toContain('STORAGE_UNAVAILABLE');
  });
});

describe('a test paper with a wrong bucket configured', SLOW, () => {
  it('fails with STORAGE_UNAVAILABLE naming the bucket, not as a missing figure', async () => {
    const s3 = await startS3('podium');
    closers.push(s3);
    const { t } = await loggedApp(s3.env({ S3_BUCKET: 'podium-gresit' }));
    // The figure is in the right bucket; the app looks in another.
    const right = {
      ...t.config,
      files: { ...t.config.files, s3: { ...t.config.files.s3, bucket: 'podium' } },
    };
    const paper = await paperWithFigure(t, right);
    const res = await paper.print();
    expect(res.statusCode).toBe(503);
    expect(codeOf(res)).toBe('STORAGE_UNAVAILABLE');
    expect(res.json().error.message).toMatch(/podium-gresit/);
  });
});
