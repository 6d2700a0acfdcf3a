import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  PAPER_CODE_RE,
  type PaperJob,
  type PaperSeat,
  type ScanPage,
} from '../../../shared/schemas/paper.js';
import type { StudentItems } from '../../../shared/schemas/uploads.js';
import { files as filesTable, scanPages as scanPagesTable } from '../../db/schema.js';
import { uuidv7 } from '../../lib/ids.js';
import { loadPdfFonts } from '../../lib/pdf/fonts.js';
import { buildTestApp, type TestApp } from '../../test/app.js';
import { renderBooklets } from './booklet-pdf.js';
import { hasPoppler, scanPages, scanPdf, scanZip } from './scan.fixtures.js';
import {
  codeOf,
  DURING,
  detailsOf,
  movableClock,
  type Person,
  uploadsKit,
} from './uploads.fixtures.js';

const clock = movableClock(DURING);
let t: TestApp;
let kit: ReturnType<typeof uploadsKit>;
let w: Awaited<ReturnType<ReturnType<typeof uploadsKit>['world']>>;
let scratch: string;
const poppler = await hasPoppler();

beforeAll(async () => {
  t = await buildTestApp({ clock });
  kit = uploadsKit(t);
  w = await kit.world();
  scratch = mkdtempSync(path.join(tmpdir(), 'paper-test-'));
});
afterAll(async () => {
  await t?.close();
  rmSync(scratch, { recursive: true, force: true });
});

const paper = (p: Person, method: string, rest: string, payload?: unknown) =>
  kit.call(method, `${w.hybridUrl}/paper${rest}`, p.headers, payload);

async function seats(): Promise<PaperSeat[]> {
  const res = await paper(w.examAdmin, 'GET', '/seats');
  expect(res.statusCode).toBe(200);
  return res.json();
}

/** Sends `data` in chunks of `size` bytes from the start, as the web page does. */
async function upload(p: Person, data: Buffer, name: string, size = 64 * 1024): Promise<PaperJob> {
  const start = await paper(p, 'POST', '/scans', { fileName: name, size: data.length });
  expect(start.statusCode).toBe(201);
  let job: PaperJob = start.json();
  for (let offset = 0; offset < data.length; offset += size) {
    const res = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/upload-mgmt${w.hybridUrl}/paper/scans/${job._id}`,
      headers: {
        ...p.headers,
        'content-type': 'application/offset+octet-stream',
        'upload-offset': String(offset),
      },
      payload: data.subarray(offset, offset + size),
    });
    expect(res.statusCode, res.body).toBe(200);
    job = res.json();
  }
  return job;
}

const pdfText = (pdf: Buffer) => {
  const file = path.join(scratch, `${uuidv7()}.pdf`);
  writeFileSync(file, pdf);
  return execFileSync('pdftotext', [file, '-'], { encoding: 'utf8' });
};

describe('rooms, seats and anonymous codes', () => {
  it('gives every student of the test one code, never their name', async () => {
    const list = await seats();
    const ids = list.map((s) => s.studentId).sort();
    expect(ids).toEqual([w.students.ana.id, w.students.bogdan.id, w.students.elena.id].sort());
    for (const s of list) expect(s.code).toMatch(PAPER_CODE_RE);
    expect(new Set(list.map((s) => s.code)).size).toBe(3);
    // Asked again, the same codes.
    expect((await seats()).map((s) => s.code).sort()).toEqual(list.map((s) => s.code).sort());
  });

  it('sets rooms and seats for the exam admin', async () => {
    const res = await paper(w.examAdmin, 'PUT', '/seats', {
      seats: [
        { studentId: w.students.ana.id, room: 'Sala 1', seat: '1' },
        { studentId: w.students.bogdan.id, room: 'Sala 1', seat: '2' },
        { studentId: w.students.elena.id, room: 'Sala 2', seat: '1' },
      ],
    });
    expect(res.statusCode, res.body).toBe(200);
    const ana = (res.json() as PaperSeat[]).find((s) => s.studentId === w.students.ana.id);
    expect(ana).toMatchObject({ room: 'Sala 1', seat: '1' });
  });

  it('refuses a seat for someone who is not a student of the test, changing nothing', async () => {
    const before = await seats();
    const res = await paper(w.examAdmin, 'PUT', '/seats', {
      seats: [
        { studentId: w.students.ana.id, room: 'Sala 9', seat: '9' },
        { studentId: w.students.dan.id, room: 'Sala 9', seat: '1' },
      ],
    });
    expect(res.statusCode).toBe(400);
    expect(codeOf(res)).toBe('CLIENT_ERROR');
    expect(JSON.stringify(detailsOf(res))).toContain('seats.1.studentId');
    expect(await seats()).toEqual(before);
  });

  it('refuses an empty room and a room name past the limit', async () => {
    for (const room of ['', 'x'.repeat(41)]) {
      const res = await paper(w.examAdmin, 'PUT', '/seats', {
        seats: [{ studentId: w.students.ana.id, room, seat: '1' }],
      });
      expect(res.statusCode).toBe(400);
      expect(codeOf(res)).toBe('VALIDATION_FAILED');
    }
  });

  it('lets staff look but not change; students and outsiders reach nothing', async () => {
    expect((await paper(w.staff, 'GET', '/seats')).statusCode).toBe(200);
    const change = await paper(w.staff, 'PUT', '/seats', {
      seats: [{ studentId: w.students.ana.id, room: 'Sala 3', seat: '1' }],
    });
    expect(change.statusCode).toBe(403);
    expect(codeOf(change)).toBe('OPERATION_NOT_PERMITTED');
    expect((await paper(w.students.ana, 'GET', '/seats')).statusCode).toBe(403);
    expect((await paper(w.outsider, 'GET', '/seats')).statusCode).toBe(404);
    const booklets = await paper(w.staff, 'POST', '/booklets', { room: 'Sala 1' });
    expect(booklets.statusCode).toBe(403);
  });

  it('has no paper side for an online test', async () => {
    const res = await kit.call('GET', `${w.onlineUrl}/paper/seats`, w.examAdmin.headers);
    expect(res.statusCode).toBe(404);
  });
});

describe('booklets', () => {
  it('refuses a room nobody sits in', async () => {
    const res = await paper(w.examAdmin, 'POST', '/booklets', { room: 'Sala 404' });
    expect(res.statusCode).toBe(404);
    expect(codeOf(res)).toBe('NOT_FOUND');
  });

  it.skipIf(!poppler)(
    'makes one room’s booklets in the background, names on covers only',
    async () => {
      const res = await paper(w.examAdmin, 'POST', '/booklets', { room: 'Sala 1' });
      expect(res.statusCode, res.body).toBe(202);
      const job: PaperJob = res.json();
      expect(job).toMatchObject({ kind: 'booklets', state: 'queued', room: 'Sala 1' });
      const early = await paper(w.examAdmin, 'GET', `/jobs/${job._id}/file`);
      expect(early.statusCode).toBe(409);
      expect(codeOf(early)).toBe('PAPER_JOB_NOT_READY');

      await t.app.paperJobs.runPending();
      const done: PaperJob = (await paper(w.examAdmin, 'GET', `/jobs/${job._id}`)).json();
      expect(done).toMatchObject({ state: 'done', total: 2, done: 2 });
      const file = await paper(w.examAdmin, 'GET', `/jobs/${job._id}/file`);
      expect(file.statusCode).toBe(200);
      expect(file.headers['content-type']).toBe('application/pdf');
      const text = pdfText(file.rawPayload);
      const pages = text.split('\f').filter((p) => p.trim() !== '');
      // Two students × (cover + 3 questions × 2 pages) + 2 spare pages.
      expect(pages).toHaveLength(2 * 7 + 2);
      const list = await seats();
      const ana = list.find((s) => s.studentId === w.students.ana.id);
      expect(pages[0]).toContain('Țurcanu');
      expect(pages[0]).toContain(ana?.code);
      expect(pages[0]).toContain('Sala 1');
      expect(pages[1]).toContain('Întrebarea 1 · Question 1');
      expect(pages[1]).toContain(`Student code: ${ana?.code}`);
      expect(pages[1]).not.toContain('Țurcanu');
      // Elena sits in Sala 2: not in this room's booklets.
      expect(text).not.toContain('Stan');
      expect(pages.at(-1)).toContain('Spare page 2');
    },
  );
});

describe.skipIf(!poppler)('a scan of the written stack', { timeout: 180_000 }, () => {
  let booklets: Buffer;
  beforeAll(async () => {
    const res = await paper(w.examAdmin, 'POST', '/booklets', { room: 'Sala 1' });
    const job: PaperJob = res.json();
    await t.app.paperJobs.runPending();
    booklets = (await paper(w.examAdmin, 'GET', `/jobs/${job._id}/file`)).rawPayload;
  }, 60_000);

  it('refuses a chunk from the wrong offset and tells where to resume', async () => {
    const start = await paper(w.examAdmin, 'POST', '/scans', { fileName: 'scan.pdf', size: 100 });
    const job: PaperJob = start.json();
    const send = (offset: number, bytes: number) =>
      t.app.inject({
        method: 'PUT',
        url: `/api/v1/upload-mgmt${w.hybridUrl}/paper/scans/${job._id}`,
        headers: {
          ...w.examAdmin.headers,
          'content-type': 'application/offset+octet-stream',
          'upload-offset': String(offset),
        },
        payload: Buffer.alloc(bytes, 1),
      });
    expect((await send(0, 40)).statusCode).toBe(200);
    const wrong = await send(0, 40);
    expect(wrong.statusCode).toBe(409);
    expect(codeOf(wrong)).toBe('SCAN_OFFSET_MISMATCH');
    expect(detailsOf(wrong)).toMatchObject({ received: 40 });
    const tooMuch = await send(40, 61);
    expect(tooMuch.statusCode).toBe(400);
    expect(codeOf(tooMuch)).toBe('CLIENT_ERROR');
    const after: PaperJob = (await paper(w.examAdmin, 'GET', `/jobs/${job._id}`)).json();
    expect(after).toMatchObject({ state: 'uploading', received: 40 });
    expect(
      (await paper(w.staff, 'POST', '/scans', { fileName: 's.pdf', size: 10 })).statusCode,
    ).toBe(403);
  });

  it('stores each page as the student’s answer page; covers, duplicates, strangers kept apart', async () => {
    const fonts = await loadPdfFonts();
    const items = 3;
    // Pages of another test, and of a code nobody of this test has.
    const stranger = (testId: string, code: string) =>
      renderBooklets(fonts, {
        testId,
        examName: 'Alt concurs',
        phaseName: 'Etapa',
        testName: 'Alt test',
        room: null,
        students: [{ name: 'Străin', code, room: '', seat: '', grade: 7 }],
        itemCount: items,
        pagesPerItem: 2,
        sparePages: 0,
      });
    const stack = await scanPages(booklets, { seed: 11, upsideDown: 0.25, blotted: [5] });
    const others = await scanPages(await stranger(w.onlineTest.test.id, 'AAA-AAA'), { seed: 3 });
    const nobody = await scanPages(await stranger(w.hybridTest.test.id, 'ZZZ-ZZZ'), { seed: 4 });
    const pages = [...stack, stack[2] as Buffer, others[1] as Buffer, nobody[1] as Buffer];
    const job = await upload(w.examAdmin, await scanPdf(pages), 'sala-1.pdf');
    expect(job.state).toBe('queued');
    await t.app.paperJobs.runPending();
    const done: PaperJob = (await paper(w.examAdmin, 'GET', `/jobs/${job._id}`)).json();
    expect(done).toMatchObject({ state: 'done', total: pages.length, done: pages.length });

    const read: ScanPage[] = (await paper(w.examAdmin, 'GET', '/pages')).json();
    const of = (state: string) => read.filter((p) => p.state === state);
    expect(of('cover').map((p) => p.pageNo)).toEqual([1, 8]);
    // Page 5 is smudged, 15 and 16 are spare pages: a person matches them.
    expect(of('waiting').map((p) => p.pageNo)).toEqual([5, 15, 16]);
    expect(of('duplicate').map((p) => p.pageNo)).toEqual([17]);
    expect(of('refused').map((p) => [p.pageNo, p.reason])).toEqual([
      [18, 'OTHER_TEST'],
      [19, 'STUDENT_NOT_ENROLLED'],
    ]);
    expect(of('stored')).toHaveLength(11);

    // Ana's pages are her answers, one file per booklet page, without the scanner's metadata.
    const list = await seats();
    const anaCode = list.find((s) => s.studentId === w.students.ana.id)?.code;
    const res = await kit.call(
      'GET',
      `${w.hybridUrl}/students/${w.students.ana.id}/items`,
      w.examAdmin.headers,
    );
    const items_: StudentItems = res.json();
    expect(items_.items.map((i) => i.answer?.answerFiles.length ?? 0)).toEqual([2, 1, 2]);
    const fileId = items_.items[0]?.answer?.answerFiles[0]?._id;
    const answerId = items_.items[0]?.answer?._id;
    const page = await kit.call(
      'GET',
      `${w.hybridUrl}/answers/${answerId}/files?fileId=${fileId}`,
      w.examAdmin.headers,
    );
    expect(page.headers['content-type']).toBe('image/jpeg');
    expect(page.rawPayload.includes(Buffer.from('Scanner 3000'))).toBe(false);
    expect(of('stored').every((p) => p.code !== null && PAPER_CODE_RE.test(p.code))).toBe(true);
    expect(of('stored').filter((p) => p.code === anaCode)).toHaveLength(5);
  });

  it('lets the exam admin match the waiting pages by code and question, refusing by name', async () => {
    const pagesNow = async (): Promise<ScanPage[]> =>
      (await paper(w.examAdmin, 'GET', '/pages')).json();
    const waiting = (await pagesNow()).filter((p) => p.state === 'waiting');
    expect(waiting.map((p) => p.pageNo)).toEqual([5, 15, 16]);
    const [smudged, spare, blank] = waiting as [ScanPage, ScanPage, ScanPage];
    const image = await paper(w.examAdmin, 'GET', `/pages/${smudged._id}/image`);
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/jpeg');
    // An unread page may be a cover: the staff who only look do not see it.
    expect((await paper(w.staff, 'GET', `/pages/${smudged._id}/image`)).statusCode).toBe(403);

    const anaCode = (await seats()).find((s) => s.studentId === w.students.ana.id)?.code ?? '';
    const match = (p: ScanPage, body: object, who: Person = w.examAdmin) =>
      paper(who, 'POST', `/pages/${p._id}/match`, body);
    const nobody = await match(smudged, { code: 'ZZZ-ZZZ', itemIndex: 2 });
    expect(nobody.statusCode).toBe(400);
    expect(codeOf(nobody)).toBe('CLIENT_ERROR');
    expect(JSON.stringify(detailsOf(nobody))).toContain('code');
    const noItem = await match(smudged, { code: anaCode, itemIndex: 9 });
    expect(noItem.statusCode).toBe(400);
    expect(JSON.stringify(detailsOf(noItem))).toContain('itemIndex');
    const taken = await match(smudged, { code: anaCode, itemIndex: 2, bookletPage: 1 });
    expect(taken.statusCode).toBe(409);
    expect(codeOf(taken)).toBe('SCAN_PAGE_TAKEN');
    expect((await match(smudged, { code: anaCode, itemIndex: 2 }, w.staff)).statusCode).toBe(403);
    expect((await pagesNow()).filter((p) => p.state === 'waiting')).toHaveLength(3);

    // The review does not start while pages wait.
    const phaseUrl = `/api/v1/exam-mgmt/exams/${w.exam.id}/editions/${w.edition.id}/phases/${w.hybrid.id}/review`;
    const early = await t.app.inject({
      method: 'PUT',
      url: phaseUrl,
      headers: w.examAdmin.headers,
    });
    expect(early.statusCode).toBe(409);
    expect(codeOf(early)).toBe('SCAN_PAGES_WAITING');
    expect(detailsOf(early)).toMatchObject({ waiting: 3 });

    const [kept] = await t.database.db
      .select({ fileId: scanPagesTable.fileId })
      .from(scanPagesTable)
      .where(eq(scanPagesTable.id, smudged._id));
    const waitingFile = kept?.fileId ?? '';
    expect(waitingFile).not.toBe('');
    // Typed as it comes: lower case, no dash; the page is the first of question 2 not stored.
    const ok = await match(smudged, { code: anaCode.toLowerCase().replace('-', ''), itemIndex: 2 });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toMatchObject({
      state: 'stored',
      code: anaCode,
      itemIndex: 2,
      bookletPage: 2,
    });
    // The image kept while it waited is gone (the answer's page is a file of its own): no
    // unowned copy of a page is left behind.
    const orphan = await t.database.db
      .select({ id: filesTable.id })
      .from(filesTable)
      .where(eq(filesTable.id, waitingFile));
    expect(orphan).toEqual([]);
    const again = await match(smudged, { code: anaCode, itemIndex: 2 });
    expect(again.statusCode).toBe(409);
    expect(codeOf(again)).toBe('SCAN_PAGE_NOT_WAITING');
    // A spare page written for question 1 follows its two pages.
    const extra = await match(spare, { code: anaCode, itemIndex: 1 });
    expect(extra.json()).toMatchObject({ state: 'stored', itemIndex: 1, bookletPage: 3 });
    const aside = await paper(w.examAdmin, 'POST', `/pages/${blank._id}/set-aside`);
    expect(aside.statusCode, aside.body).toBe(200);
    expect(aside.json()).toMatchObject({ state: 'set_aside' });
    expect((await paper(w.examAdmin, 'POST', `/pages/${blank._id}/set-aside`)).statusCode).toBe(
      409,
    );

    const res = await kit.call(
      'GET',
      `${w.hybridUrl}/students/${w.students.ana.id}/items`,
      w.examAdmin.headers,
    );
    const anaItems: StudentItems = res.json();
    expect(anaItems.items.map((i) => i.answer?.answerFiles.map((f) => f.name))).toEqual([
      [1, 2, 3].map((p) => `${anaCode}-intrebarea-1-pagina-${p}.jpg`),
      [1, 2].map((p) => `${anaCode}-intrebarea-2-pagina-${p}.jpg`),
      [1, 2].map((p) => `${anaCode}-intrebarea-3-pagina-${p}.jpg`),
    ]);

    const summary = (await paper(w.staff, 'GET', '/summary')).json();
    expect(summary).toMatchObject({ itemCount: 3, pagesPerItem: 2, waiting: 0 });
    expect(summary.rooms).toMatchObject([
      { room: 'Sala 1', students: 2, complete: 2, incomplete: [] },
      { room: 'Sala 2', students: 1, complete: 0, incomplete: [{ seat: '1', absent: true }] },
    ]);
    expect(summary.rooms[1].incomplete[0].missing).toHaveLength(6);
    expect(JSON.stringify(summary)).not.toContain('Stan');

    // Nothing waits: the review is held up by something else now (no markers named).
    const later = await t.app.inject({
      method: 'PUT',
      url: phaseUrl,
      headers: w.examAdmin.headers,
    });
    expect(codeOf(later)).toBe('INSUFFICIENT_TEACHERS_FOR_TEST_ITEMS');
  });

  it('keeps a student’s pages in booklet order whatever the order of the scan', async () => {
    const res = await paper(w.examAdmin, 'POST', '/booklets', { room: 'Sala 2' });
    const booklet: PaperJob = res.json();
    await t.app.paperJobs.runPending();
    const pdf = (await paper(w.examAdmin, 'GET', `/jobs/${booklet._id}/file`)).rawPayload;
    // Cover, then question 1's page 2 before its page 1, and so on.
    const [cover, ...answers] = (await scanPages(pdf, { seed: 9, upsideDown: 0 })).slice(0, 7);
    const swapped = [0, 2, 4].flatMap((i) => [answers[i + 1], answers[i]]) as Buffer[];
    const job = await upload(w.examAdmin, scanZip([cover as Buffer, ...swapped]), 'sala-2.zip');
    await t.app.paperJobs.runPending();
    expect((await paper(w.examAdmin, 'GET', `/jobs/${job._id}`)).json().state).toBe('done');
    const code = (await seats()).find((s) => s.studentId === w.students.elena.id)?.code ?? '';
    const items = await kit.call(
      'GET',
      `${w.hybridUrl}/students/${w.students.elena.id}/items`,
      w.examAdmin.headers,
    );
    expect(
      (items.json() as StudentItems).items.map((i) => i.answer?.answerFiles.map((f) => f.name)),
    ).toEqual([1, 2, 3].map((q) => [1, 2].map((p) => `${code}-intrebarea-${q}-pagina-${p}.jpg`)));
  });

  it('reads a ZIP of images too, finding every page already stored a duplicate', async () => {
    const stack = await scanPages(booklets, { seed: 5, upsideDown: 0 });
    const job = await upload(w.examAdmin, scanZip(stack.slice(0, 4)), 'sala-1.zip');
    await t.app.paperJobs.runPending();
    const done: PaperJob = (await paper(w.examAdmin, 'GET', `/jobs/${job._id}`)).json();
    expect(done.state).toBe('done');
    const read: ScanPage[] = (await paper(w.examAdmin, 'GET', '/pages')).json();
    const mine = read.filter((p) => p.jobId === job._id).map((p) => [p.pageNo, p.state]);
    expect(mine).toEqual([
      [1, 'cover'],
      [2, 'duplicate'],
      [3, 'duplicate'],
      [4, 'duplicate'],
    ]);
  });

  it('lets a student with scanned pages be anonymised: the pages go, the notes stay', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/v1/user-mgmt/users/${w.students.ana.id}/anonymise`,
      headers: w.admin.headers,
    });
    expect(res.statusCode, res.body).toBe(200);
    const left = await t.database.db
      .select()
      .from(scanPagesTable)
      .where(eq(scanPagesTable.studentId, w.students.ana.id));
    expect(left.length).toBeGreaterThan(0);
    expect(left.every((p) => p.fileId === null)).toBe(true);
  });

  it('fails a scan that is neither a PDF nor a ZIP, by name', async () => {
    const job = await upload(w.examAdmin, Buffer.from('GIF89a not a scan'), 'scan.gif');
    await t.app.paperJobs.runPending();
    const done: PaperJob = (await paper(w.examAdmin, 'GET', `/jobs/${job._id}`)).json();
    expect(done).toMatchObject({ state: 'failed', errorCode: 'FILE_TYPE_NOT_ALLOWED' });
  });
});
