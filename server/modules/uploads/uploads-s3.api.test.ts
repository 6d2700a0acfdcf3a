import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StudentItems, UploadResult } from '../../../shared/schemas/uploads.js';
import { files } from '../../db/schema.js';
import { buildTestApp, type TestApp } from '../../test/app.js';
import { startS3 } from '../../test/s3.js';
import { startStalledServer } from '../../test/smtp.js';
import {
  codeOf,
  DURING,
  filesForm,
  movableClock,
  noisyPng,
  type Part,
  type Person,
  samplePdf,
  uploadsKit,
} from './uploads.fixtures.js';

// A student's hybrid answer (the player's upload) against an S3-compatible server that works,
// goes down, comes back, never answers, or is configured with a wrong bucket.

type S3 = Awaited<ReturnType<typeof startS3>>;
// Each test builds a whole competition (a dozen sign-ins): slow on a busy machine; the
// bounds that matter are measured inside the tests.
const SLOW = { timeout: 120_000 };
const closers: { close(): Promise<void> }[] = [];
afterAll(async () => {
  for (const c of closers.reverse()) await c.close();
});

/** An app on `env`'s storage with a hybrid test open now, and its helpers. */
async function setUp(env: NodeJS.ProcessEnv) {
  const t = await buildTestApp({ clock: movableClock(DURING), env });
  closers.push(t);
  const kit = uploadsKit(t);
  const w = await kit.world();
  const item = (n: number) => w.hybridTest.questionIds[n] ?? '';
  const upload = (p: Person, itemId: string, parts: Part[]) =>
    t.app.inject({
      method: 'POST',
      url: `/api/v1/upload-mgmt${w.hybridUrl}/items/${itemId}/answers`,
      headers: p.headers,
      payload: filesForm(parts),
    });
  const itemsOf = async (p: Person) => {
    const res = await kit.call('GET', `${w.hybridUrl}/students/${p.id}/items`, p.headers);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as StudentItems;
  };
  return { t, kit, w, item, upload, itemsOf };
}

const page = (name: string, data = noisyPng(5_000)): Part => ({ name, data });
const fileRows = (t: TestApp) => t.database.db.select({ id: files.id }).from(files);

describe("a student's hybrid answer in an S3-compatible storage", SLOW, () => {
  let s3: S3;
  let ctx: Awaited<ReturnType<typeof setUp>>;
  let ana: Person;
  beforeAll(async () => {
    s3 = await startS3();
    closers.push(s3);
    ctx = await setUp(s3.env({ STORAGE_TIMEOUT_SECONDS: '1' }));
    ana = ctx.w.students.ana;
  }, 120_000);

  it('stores the pages in the bucket without their metadata and reads them back byte for byte', async () => {
    const res = await ctx.upload(ana, ctx.item(0), [
      page('pagina-1.png'),
      { name: 'b.pdf', data: samplePdf() },
    ]);
    expect(res.statusCode, res.body).toBe(200);
    const answer = res.json() as UploadResult;
    const [png, pdf] = answer.answerFiles;
    const url = `${ctx.w.hybridUrl}/answers/${answer._id}/files`;
    const one = await ctx.kit.call('GET', `${url}?fileId=${png?._id}`, ana.headers);
    expect(one.statusCode).toBe(200);
    // Byte for byte what the file's row describes: the page as stored, its pixels unchanged.
    const rows = new Map((await ctx.t.database.db.select().from(files)).map((f) => [f.id, f]));
    const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');
    expect(sha256(one.rawPayload)).toBe(rows.get(png?._id ?? '')?.sha256);
    const pixels = (b: Buffer) => sharp(b).raw().toBuffer();
    expect(await pixels(one.rawPayload)).toEqual(await pixels(page('x').data));
    const two = await ctx.kit.call('GET', `${url}?fileId=${pdf?._id}`, ana.headers);
    expect(sha256(two.rawPayload)).toBe(rows.get(pdf?._id ?? '')?.sha256);
  });

  it('refuses an upload with a retryable STORAGE_UNAVAILABLE while the storage is down, keeping the answer as it was, and takes it once the storage is back', async () => {
    const before = await ctx.itemsOf(ana);
    const rowsBefore = await fileRows(ctx.t);
    await s3.stop();

    const started = Date.now();
    const failed = await ctx.upload(ana, ctx.item(0), [page('pagina-2.png')]);
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(failed.statusCode).toBe(503);
    expect(codeOf(failed)).toBe('STORAGE_UNAVAILABLE');
    // Nothing of the refused upload is kept: the answer lists the same pages, no file row.
    expect(await ctx.itemsOf(ana)).toEqual(before);
    expect(await fileRows(ctx.t)).toEqual(rowsBefore);
    // Reading a page already stored says the same, not "not found".
    const answer = before.items[0]?.answer;
    const read = await ctx.kit.call(
      'GET',
      `${ctx.w.hybridUrl}/answers/${answer?._id}/files?fileId=${answer?.answerFiles[0]?._id}`,
      ana.headers,
    );
    expect(read.statusCode).toBe(503);
    expect(codeOf(read)).toBe('STORAGE_UNAVAILABLE');

    await s3.restart();
    const again = await ctx.upload(ana, ctx.item(0), [page('pagina-2.png')]);
    expect(again.statusCode, again.body).toBe(200);
    expect((again.json() as UploadResult).answerFiles.map((f) => f.name)).toEqual([
      'pagina-1.png',
      'b.pdf',
      'pagina-2.png',
    ]);
  });
});

describe('a storage that accepts connections and never answers', SLOW, () => {
  it("fails the student's upload within seconds with STORAGE_UNAVAILABLE and keeps nothing", async () => {
    const stalled = await startStalledServer();
    closers.push(stalled);
    const ctx = await setUp({
      S3_ENDPOINT: `http://127.0.0.1:${stalled.port}`,
      S3_BUCKET: 'podium',
      S3_ACCESS_KEY_ID: 'x',
      S3_SECRET_ACCESS_KEY: 'y',
      STORAGE_TIMEOUT_SECONDS: '1',
    });
    const ana = ctx.w.students.ana;
    const started = Date.now();
    const res = await ctx.upload(ana, ctx.item(1), [page('pagina.png')]);
    const took = Date.now() - started;
    expect(res.statusCode).toBe(503);
    expect(codeOf(res)).toBe('STORAGE_UNAVAILABLE');
    // Bounded by the timeout (a second per silence, one retry), not by the server.
    expect(took).toBeLessThan(15_000);
    expect(stalled.connections).toBeGreaterThan(0);
    expect((await ctx.itemsOf(ana)).items[1]?.answer).toBeNull();
    expect(await fileRows(ctx.t)).toEqual([]);
  });
});

describe('a wrong bucket', SLOW, () => {
  it("answers the student's upload STORAGE_UNAVAILABLE naming the bucket, never a missing file", async () => {
    const s3 = await startS3('podium');
    closers.push(s3);
    const ctx = await setUp(s3.env({ S3_BUCKET: 'podium-gresit' }));
    const ana = ctx.w.students.ana;
    const res = await ctx.upload(ana, ctx.item(0), [page('pagina.png')]);
    expect(res.statusCode).toBe(503);
    expect(codeOf(res)).toBe('STORAGE_UNAVAILABLE');
    expect(res.json().error.message).toMatch(/podium-gresit/);
    const [row] = await ctx.t.database.db.select().from(files).where(eq(files.ownerId, ana.id));
    expect(row).toBeUndefined();
  });
});
