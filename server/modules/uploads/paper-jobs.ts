import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { appendFile, mkdtemp, open, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import {
  BOOKLET_PAGES_PER_ITEM,
  BOOKLET_SPARE_PAGES,
  SCAN_MAX_BYTES,
  type ScanRefusal,
} from '../../../shared/schemas/paper.js';
import type { Db } from '../../db/client.js';
import type { Actor } from '../../lib/auth-guard.js';
import type { Clock } from '../../lib/clock.js';
import { AppError } from '../../lib/errors.js';
import { insertFileRecords } from '../../lib/files/records.js';
import type { FileStorage } from '../../lib/files/storage.js';
import { STRIP_VERSION, stripMetadata } from '../../lib/files/strip.js';
import { openZipFile } from '../../lib/files/zip-bounds.js';
import { uuidv7 } from '../../lib/ids.js';
import { requestActivity } from '../../lib/jobs/activity.js';
import { type JobLimits, type JobTake, jobRunner, runOnThread } from '../../lib/jobs/runner.js';
import { createThreadRunner } from '../../lib/jobs/thread.js';
import { findPhasePath } from '../exams/index.js';
import type { BookletContent } from './booklet-pdf.js';
import type { BookletTask } from './booklet-pdf.thread.js';
import * as paper from './paper.repo.js';
import { ensureSeats, scanChunkKey } from './paper.service.js';
import { decodePageCode } from './paper-code.js';
import { storeAnswerPage } from './paper-store.js';
import type { ScanReadResult, ScanReadTask } from './scan-read.thread.js';
import * as repo from './uploads.repo.js';
import type { UploadsService } from './uploads.service.js';

export type PaperJobsDeps = { db: Db; clock: Clock; storage: FileStorage; uploads: UploadsService };

type Take = JobTake<paper.JobChange>;

const run = promisify(execFile);
/** A running job writes its progress (and that it lives) this often, in pages or booklets. */
const PROGRESS_EVERY = 10;
/** A job not heard of for two minutes is another process's; the third failed take ends it. */
const LIMITS: JobLimits = { staleMs: 120_000, maxTries: 3 };
/** Pages of a scanned PDF rendered by poppler at a time (their PNGs on the disk meanwhile). */
const RENDER_BATCH = 16;
/** Scanned pages are rendered at 150 dpi: the printed code's modules are 4–5 pixels. */
const RENDER_DPI = '150';
const IMAGE_ENTRY = /\.(jpe?g|png|tiff?|webp)$/i;

/** The threads that read scanned pages and draw booklets (their .ts loaded through the .mjs). */
const READ_ENTRY = new URL('./scan-read.thread.mjs', import.meta.url);
const DRAW_ENTRY = new URL('./booklet-pdf.thread.mjs', import.meta.url);

/** Whether each of the PDF's `count` pages shows exactly one image (`pdfimages -list`). */
async function isOneImagePerPage(file: string, count: number): Promise<boolean> {
  const { stdout } = await run('pdfimages', ['-list', file], { maxBuffer: 64 * 1024 * 1024 });
  const perPage = new Map<number, number>();
  for (const line of stdout.split('\n').slice(2)) {
    const [page, , type] = line.trim().split(/\s+/);
    if (type !== 'image') continue;
    perPage.set(Number(page), (perPage.get(Number(page)) ?? 0) + 1);
  }
  if (perPage.size !== count) return false;
  return [...perPage.values()].every((n) => n === 1);
}

/**
 * Makes the paper jobs of hybrid tests, one at a time per process, by the job runner the
 * diploma ZIPs use too (server/lib/jobs/runner.ts). Booklets are drawn by the PDF writer on a
 * worker thread (booklet-pdf.thread.ts), as diplomas are, so a room's booklets never hold the
 * event loop that answers exam day's requests. A scan is put together from its
 * chunks, split into pages (poppler's pdfimages for a scanner's PDF of one image a page, else
 * pdftoppm; the archive's images for a ZIP),
 * each page read on a worker thread (scan-read.ts), and stored as the student's answer page
 * through `uploadAnswer`, as a paper answer entered by the exam's admin who uploaded it.
 */
export function paperJobs({ db, clock, storage, uploads }: PaperJobsDeps) {
  const reading = createThreadRunner<ScanReadTask, ScanReadResult>({ entry: READ_ENTRY });
  const drawing = createThreadRunner<BookletTask, Uint8Array, number>({ entry: DRAW_ENTRY });

  async function pathOf(testId: string) {
    const ids = await paper.findTestIds(db, testId);
    if (!ids) throw new AppError('NOT_FOUND', 'test not found');
    const test = await repo.findTestPath(db, ids);
    const phasePath = await findPhasePath(db, ids.examId, ids.editionId, ids.phaseId);
    if (!test || !phasePath) throw new AppError('NOT_FOUND', 'test not found');
    return { ids, test, phasePath };
  }

  async function makeBooklets(job: paper.PaperJobRow, take: Take) {
    const { test, phasePath } = await pathOf(job.testId);
    const seats = (await ensureSeats(db, test)).filter(
      (s) => job.room === null || s.seat.room === job.room,
    );
    seats.sort(
      (a, b) =>
        a.seat.room.localeCompare(b.seat.room, 'ro') ||
        a.seat.seat.localeCompare(b.seat.seat, 'ro', { numeric: true }) ||
        0,
    );
    const items = await repo.findTestItems(db, test.id);
    await take.progress({ total: seats.length, done: 0 });
    const content: BookletContent = {
      testId: test.id,
      examName: phasePath.exam.name,
      phaseName: phasePath.phase.name,
      testName: test.name,
      room: job.room,
      students: seats.map((s) => ({
        name: [s.familyName, s.givenName].filter(Boolean).join(' '),
        code: s.seat.code,
        room: s.seat.room,
        seat: s.seat.seat,
        grade: s.grade,
      })),
      itemCount: items.length,
      pagesPerItem: BOOKLET_PAGES_PER_ITEM,
      sparePages: BOOKLET_SPARE_PAGES,
    };
    const task = { content, progressEvery: PROGRESS_EVERY, activity: requestActivity };
    const pdf = await runOnThread(drawing, task, take);
    const key = `paper-jobs/${job.id}-${job.tries}.pdf`;
    await storage.put(
      key,
      Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength),
      'application/pdf',
    );
    const slug = (job.room ?? 'toate').normalize('NFD').replace(/[^\w-]+/g, '-');
    const kept = await take.finish({
      done: seats.length,
      fileKey: key,
      fileName: `caiete-${slug}.pdf`,
    });
    if (!kept) await storage.delete(key).catch(() => undefined);
  }

  /** The scan's chunks, one after another into a file of this machine's disk. */
  async function assemble(job: paper.PaperJobRow, file: string) {
    let offset = 0;
    while (offset < (job.size ?? 0)) {
      const chunk = await storage.get(scanChunkKey(job.id, offset));
      await appendFile(file, chunk);
      offset += chunk.length;
    }
  }

  async function removeChunks(job: paper.PaperJobRow) {
    let offset = 0;
    while (offset < (job.size ?? 0)) {
      const key = scanChunkKey(job.id, offset);
      const chunk = await storage.get(key).catch(() => undefined);
      if (!chunk) return;
      await storage.delete(key).catch(() => undefined);
      offset += chunk.length;
    }
  }

  /** Yields the scan's pages as images, in order. */
  async function* pagesOf(file: string, dir: string): AsyncGenerator<Buffer> {
    const head = Buffer.alloc(5);
    const fd = await open(file, 'r');
    await fd.read(head, 0, 5, 0).finally(() => fd.close());
    if (head.toString('latin1').startsWith('%PDF')) {
      const { stdout } = await run('pdfinfo', [file]);
      const count = Number(/Pages:\s+(\d+)/.exec(stdout)?.[1] ?? 0);
      // A scanner's PDF is one image a page: those images are taken out as they are (a
      // fraction of a millisecond a page); any other PDF is drawn page by page.
      const asImages = await isOneImagePerPage(file, count);
      for (let first = 1; first <= count; first += RENDER_BATCH) {
        const last = Math.min(count, first + RENDER_BATCH - 1);
        const prefix = path.join(dir, `p${first}`);
        const range = ['-f', String(first), '-l', String(last)];
        if (asImages) await run('pdfimages', ['-j', '-png', ...range, file, prefix]);
        else await run('pdftoppm', ['-r', RENDER_DPI, '-gray', '-png', ...range, file, prefix]);
        const names = (await readdir(dir)).filter((n) => n.startsWith(`p${first}-`)).sort();
        for (const name of names) {
          const image = await readFile(path.join(dir, name));
          await rm(path.join(dir, name));
          yield image;
        }
      }
      return;
    }
    if (head[0] === 0x50 && head[1] === 0x4b) {
      // Read from the disk entry by entry: a scan of hundreds of megabytes is never held whole.
      const zip = await openZipFile(
        file,
        { maxUnpackedBytes: SCAN_MAX_BYTES, maxRatio: 50, maxEntries: 20_000 },
        (name) => IMAGE_ENTRY.test(name) && !name.split('/').some((s) => s.startsWith('.')),
      );
      if (!zip.ok) throw new AppError('FILE_TYPE_NOT_ALLOWED', `Not a usable ZIP: ${zip.reason}`);
      try {
        const names = [...zip.names].sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
        for (const name of names) {
          const image = await zip.read(name).catch((error: unknown) => {
            throw new AppError('FILE_TYPE_NOT_ALLOWED', `Not a usable ZIP: ${String(error)}`);
          });
          yield image;
        }
      } finally {
        await zip.close();
      }
      return;
    }
    throw new AppError('FILE_TYPE_NOT_ALLOWED', 'A scan is a PDF or a ZIP of images');
  }

  type Context = {
    job: paper.PaperJobRow;
    actor: Actor;
    ids: { examId: string; editionId: string; phaseId: string; testId: string };
    seatsByCode: Map<string, paper.SeatRow>;
    students: Set<string>;
    itemIds: string[];
  };

  /** A page kept for a person to match: its image, metadata stripped, in the files table. */
  async function keepWaiting(ctx: Context, pageNo: number, page: Buffer, qrText: string | null) {
    const id = uuidv7();
    const data = (await stripMetadata(page, 'image/jpeg')) ?? page;
    const key = `scan-pages/${id}`;
    await storage.put(key, data, 'image/jpeg');
    await db.transaction(async (tx) => {
      await insertFileRecords(tx, [
        {
          id,
          storageKey: key,
          mime: 'image/jpeg',
          size: data.length,
          sha256: createHash('sha256').update(data).digest('hex'),
          ownerId: ctx.actor.id,
          originalName: `pagina-${pageNo}.jpg`,
          strippedVersion: STRIP_VERSION,
        },
      ]);
      await paper.insertPage(tx, {
        id: uuidv7(),
        jobId: ctx.job.id,
        testId: ctx.job.testId,
        pageNo,
        state: 'waiting',
        qrText,
        fileId: id,
      });
    });
  }

  async function refuse(ctx: Context, pageNo: number, reason: ScanRefusal, qrText: string) {
    await paper.insertPage(db, {
      id: uuidv7(),
      jobId: ctx.job.id,
      testId: ctx.job.testId,
      pageNo,
      state: 'refused',
      reason,
      qrText,
    });
  }

  async function handlePage(ctx: Context, pageNo: number, read: ScanReadResult) {
    const page = Buffer.from(read.page.buffer, read.page.byteOffset, read.page.byteLength);
    const code = read.text === null ? undefined : decodePageCode(read.text);
    if (read.text === null || code === undefined || code.kind === 'spare') {
      if (code?.kind === 'spare' && code.testId !== ctx.job.testId) {
        return refuse(ctx, pageNo, 'OTHER_TEST', read.text ?? '');
      }
      return keepWaiting(ctx, pageNo, page, read.text);
    }
    const qrText = read.text;
    if (code.testId !== ctx.job.testId) return refuse(ctx, pageNo, 'OTHER_TEST', qrText);
    const seat = ctx.seatsByCode.get(code.code);
    if (!seat || !ctx.students.has(seat.studentId)) {
      return refuse(ctx, pageNo, 'STUDENT_NOT_ENROLLED', qrText);
    }
    const base = {
      id: uuidv7(),
      jobId: ctx.job.id,
      testId: ctx.job.testId,
      pageNo,
      qrText,
      studentId: seat.studentId,
    };
    // The name is on the cover only: it is noted, never stored as an image.
    if (code.kind === 'cover') return paper.insertPage(db, { ...base, state: 'cover' });
    const itemId = ctx.itemIds[code.itemIndex - 1];
    if (!itemId) return refuse(ctx, pageNo, 'UNKNOWN_QUESTION', qrText);
    const claimed = await paper.claimStoredPage(db, {
      ...base,
      state: 'stored',
      questionId: itemId,
      bookletPage: code.page,
    });
    if (!claimed) {
      return paper.insertPage(db, {
        ...base,
        state: 'duplicate',
        questionId: itemId,
        bookletPage: code.page,
      });
    }
    try {
      await storeAnswerPage(db, uploads, {
        actor: ctx.actor,
        ids: ctx.ids,
        pageId: base.id,
        studentId: seat.studentId,
        itemId,
        bookletPage: code.page,
        fileName: `${code.code}-intrebarea-${code.itemIndex}-pagina-${code.page}.jpg`,
        image: page,
      });
    } catch (error) {
      await paper.deletePage(db, base.id);
      throw error;
    }
  }

  async function readScan(job: paper.PaperJobRow, take: Take) {
    const { ids, test } = await pathOf(job.testId);
    const requester = await paper.findRequester(db, job.requestedBy);
    if (!requester) throw new AppError('NOT_FOUND', 'requester not found');
    const actor: Actor = {
      ...requester,
      state: 'active',
      registered: true,
      sessionId: `paper-job-${job.id}`,
    };
    const seats = await ensureSeats(db, test);
    const ctx: Context = {
      job,
      actor,
      ids,
      seatsByCode: new Map(seats.map((s) => [s.seat.code, s.seat])),
      students: new Set(seats.map((s) => s.studentId)),
      itemIds: (await repo.findTestItems(db, test.id)).map((i) => i.questionId),
    };
    // A take after a failed one starts over: what the failed take noted is forgotten, the
    // answer pages it stored stay (and are found as duplicates).
    const dir = await mkdtemp(path.join(tmpdir(), 'podium-scan-'));
    try {
      const file = path.join(dir, 'scan');
      await assemble(job, file);
      let pageNo = 0;
      let pending: Promise<ScanReadResult> | undefined;
      const pages = pagesOf(file, dir);
      const nextRead = async () => {
        const next = await pages.next();
        if (next.done) return undefined;
        const image = new Uint8Array(next.value);
        return reading.run({ image });
      };
      // One page is read on the thread while the one before is stored here.
      pending = nextRead() as Promise<ScanReadResult>;
      for (;;) {
        const read = await pending;
        if (!read) break;
        pending = nextRead() as Promise<ScanReadResult>;
        pageNo += 1;
        await handlePage(ctx, pageNo, read);
        if (pageNo % PROGRESS_EVERY === 0) await take.progress({ done: pageNo, total: pageNo });
      }
      await take.finish({ done: pageNo, total: pageNo });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
    await removeChunks(job);
  }

  const runner = jobRunner(clock, {
    store: paper.jobs(db),
    limits: LIMITS,
    make: (job, take) => (job.kind === 'booklets' ? makeBooklets(job, take) : readScan(job, take)),
  });

  return {
    runPending: runner.runPending,

    /** Ends the reading and drawing threads (the server is stopping). */
    close: async () => {
      await Promise.all([reading.close(), drawing.close()]);
    },
  };
}

export type PaperJobs = ReturnType<typeof paperJobs>;
