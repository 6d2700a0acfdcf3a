import {
  BOOKLET_PAGES_PER_ITEM,
  type BookletRequest,
  normalizePaperCode,
  type PageMatch,
  type PaperJob,
  type PaperSeat,
  type PaperSeatsInput,
  type PaperSummary,
  SCAN_CHUNK_MAX_BYTES,
  type ScanPage,
  type ScanStart,
} from '../../../shared/schemas/paper.js';
import type { Db } from '../../db/client.js';
import type { Actor } from '../../lib/auth-guard.js';
import type { Clock } from '../../lib/clock.js';
import { AppError, fieldError, forbidden, notFound } from '../../lib/errors.js';
import { deleteFileRecords } from '../../lib/files/records.js';
import type { FileStorage } from '../../lib/files/storage.js';
import { uuidv7 } from '../../lib/ids.js';
import * as paper from './paper.repo.js';
import { newPaperCode } from './paper-code.js';
import { storeAnswerPage } from './paper-store.js';
import * as repo from './uploads.repo.js';
import { requireTest, type TestIds, type TestScope } from './uploads.scope.js';
import type { UploadsService } from './uploads.service.js';

export type PaperDeps = { db: Db; storage: FileStorage; clock: Clock; uploads: UploadsService };

/** Where the chunks of a scan are kept until the whole of it is read. */
export const scanChunkKey = (jobId: string, offset: number) =>
  `paper-scans/${jobId}/${String(offset).padStart(12, '0')}`;

const toJobDto = (j: paper.PaperJobRow): PaperJob => ({
  _id: j.id,
  kind: j.kind,
  state: j.state,
  room: j.room,
  fileName: j.fileName,
  size: j.size,
  received: j.received,
  total: j.total,
  done: j.done,
  errorCode: j.errorCode,
  createdAt: j.createdAt.toISOString(),
  finishedAt: j.finishedAt?.toISOString() ?? null,
});

/**
 * Every student of the test with their seat, the missing seats made first (a new anonymous
 * code each; a code another student already has is drawn again).
 */
export async function ensureSeats(db: Db, test: repo.TestPathRow) {
  const students = await repo.findAllTestStudents(db, test);
  for (let round = 0; round < 5; round += 1) {
    const seats = new Map((await paper.findSeats(db, test.id)).map((s) => [s.studentId, s]));
    const missing = students.filter((s) => !seats.has(s.studentId));
    if (missing.length === 0) {
      return students.map((s) => ({ ...s, seat: seats.get(s.studentId) as paper.SeatRow }));
    }
    const taken = new Set([...seats.values()].map((s) => s.code));
    await paper.insertSeats(
      db,
      missing.map((s) => {
        let code = newPaperCode();
        while (taken.has(code)) code = newPaperCode();
        taken.add(code);
        return { testId: test.id, studentId: s.studentId, code };
      }),
    );
  }
  throw new Error('paper codes could not be made');
}

/**
 * Paper exams of a hybrid test, the staff's side: students' rooms and seats, booklets asked
 * for, scans received in chunks, and what became of each scanned page. The exam's admins (who
 * may enter paper answers) do all of it; the exam's staff may look.
 */
export function paperService({ db, storage, clock, uploads }: PaperDeps) {
  async function scopeOf(actor: Actor, ids: TestIds, write: boolean): Promise<TestScope> {
    const scope = await requireTest(db, actor, ids);
    if (scope.role === 'student') throw forbidden();
    if (scope.test.phaseType !== 'hybrid') throw notFound('test');
    if (write && scope.role !== 'manager') throw forbidden();
    // A coordinator reaches only their own students: never a room's codes and names.
    if (scope.ownerId !== undefined) throw forbidden();
    return scope;
  }

  async function requireJob(scope: TestScope, jobId: string) {
    const job = await paper.findJob(db, scope.test.id, jobId);
    if (!job) throw notFound('job');
    return job;
  }

  /** Turns the test's page rows into what the API shows: codes and rooms, never names. */
  async function pageDtos(testId: string) {
    const [seats, items] = await Promise.all([
      paper.findSeats(db, testId),
      repo.findTestItems(db, testId),
    ]);
    const seatOf = new Map(seats.map((s) => [s.studentId, s]));
    const indexOf = new Map(items.map((item, i) => [item.questionId, i + 1]));
    return (p: paper.ScanPageRow): ScanPage => {
      const seat = p.studentId ? seatOf.get(p.studentId) : undefined;
      return {
        _id: p.id,
        jobId: p.jobId,
        pageNo: p.pageNo,
        state: p.state,
        reason: p.reason,
        code: seat?.code ?? null,
        itemIndex: p.questionId ? (indexOf.get(p.questionId) ?? null) : null,
        bookletPage: p.bookletPage,
        room: seat?.room ?? null,
      };
    };
  }

  return {
    /** Every student of the test with their anonymous code, room and seat. */
    async listSeats(actor: Actor, ids: TestIds): Promise<PaperSeat[]> {
      const { test } = await scopeOf(actor, ids, false);
      return (await ensureSeats(db, test)).map((s) => ({
        studentId: s.studentId,
        givenName: s.givenName,
        familyName: s.familyName,
        grade: s.grade,
        code: s.seat.code,
        room: s.seat.room,
        seat: s.seat.seat,
      }));
    },

    /**
     * Sets rooms and seats; each student must be one of the test's (else CLIENT_ERROR on
     * `seats.N.studentId`, and nothing changes).
     */
    async setSeats(actor: Actor, ids: TestIds, input: PaperSeatsInput): Promise<PaperSeat[]> {
      const { test } = await scopeOf(actor, ids, true);
      const seats = await ensureSeats(db, test);
      const known = new Set(seats.map((s) => s.studentId));
      const unknown = input.seats.findIndex((s) => !known.has(s.studentId));
      if (unknown >= 0) {
        throw fieldError(
          { [`seats.${unknown}.studentId`]: ['invalid'] },
          'Not a student of the test',
        );
      }
      await db.transaction(async (tx) => {
        for (const s of input.seats) await paper.setSeat(tx, test.id, s.studentId, s.room, s.seat);
      });
      return this.listSeats(actor, ids);
    },

    /**
     * Queues the booklets of a room (or of every student): 404 NOT_FOUND when nobody sits in
     * that room. The job is made in the background; poll it.
     */
    async requestBooklets(actor: Actor, ids: TestIds, input: BookletRequest): Promise<PaperJob> {
      const { test } = await scopeOf(actor, ids, true);
      const seats = await ensureSeats(db, test);
      const room = input.room ?? null;
      if (room !== null && !seats.some((s) => s.seat.room === room)) throw notFound('room');
      if (seats.length === 0) throw notFound('student');
      const job = await paper.insertJob(db, {
        id: uuidv7(),
        kind: 'booklets',
        requestedBy: actor.id,
        testId: test.id,
        room,
        state: 'queued',
      });
      return toJobDto(job);
    },

    /** The test's paper jobs, newest first. */
    async listJobs(actor: Actor, ids: TestIds): Promise<PaperJob[]> {
      const { test } = await scopeOf(actor, ids, false);
      return (await paper.listJobs(db, test.id)).map(toJobDto);
    },

    async getJob(actor: Actor, ids: TestIds, jobId: string): Promise<PaperJob> {
      const scope = await scopeOf(actor, ids, false);
      return toJobDto(await requireJob(scope, jobId));
    },

    /** The booklets PDF once made (409 PAPER_JOB_NOT_READY before; a scan has no file). */
    async readJobFile(actor: Actor, ids: TestIds, jobId: string) {
      const scope = await scopeOf(actor, ids, false);
      const job = await requireJob(scope, jobId);
      if (job.kind !== 'booklets') throw notFound('file');
      if (job.state !== 'done' || !job.fileKey) {
        throw new AppError('PAPER_JOB_NOT_READY', 'The booklets are not made yet');
      }
      return { name: job.fileName ?? 'caiete.pdf', data: await storage.get(job.fileKey) };
    },

    /** A scan announced with its size; its bytes follow in chunks (`receiveChunk`). */
    async startScan(actor: Actor, ids: TestIds, input: ScanStart): Promise<PaperJob> {
      const { test } = await scopeOf(actor, ids, true);
      const job = await paper.insertJob(db, {
        id: uuidv7(),
        kind: 'scan',
        requestedBy: actor.id,
        testId: test.id,
        state: 'uploading',
        size: input.size,
        fileName: input.fileName,
      });
      return toJobDto(job);
    },

    /**
     * Keeps one chunk of a scan that starts at `offset`, which must be the bytes received so far
     * (409 SCAN_OFFSET_MISMATCH with `details.received` otherwise: the client resumes from
     * there); no `Upload-Offset`, an empty chunk or one past the announced size is
     * CLIENT_ERROR. The last chunk queues the
     * scan to be read.
     */
    async receiveChunk(
      actor: Actor,
      ids: TestIds,
      jobId: string,
      offset: number | undefined,
      data: Buffer,
    ): Promise<PaperJob> {
      const scope = await scopeOf(actor, ids, true);
      const job = await requireJob(scope, jobId);
      if (offset === undefined) {
        throw fieldError({ 'upload-offset': ['required'] }, 'Where the chunk starts');
      }
      if (job.kind !== 'scan' || job.state !== 'uploading' || job.received !== offset) {
        throw new AppError('SCAN_OFFSET_MISMATCH', 'Resume from the bytes received', {
          received: job.received,
          state: job.state,
        });
      }
      if (data.length === 0 || data.length > SCAN_CHUNK_MAX_BYTES) {
        throw fieldError({ body: ['invalid'] }, 'A chunk holds 1 byte to SCAN_CHUNK_MAX_BYTES');
      }
      if (offset + data.length > (job.size ?? 0)) {
        throw fieldError({ body: ['too_long'] }, 'More bytes than announced');
      }
      const key = scanChunkKey(job.id, offset);
      await storage.put(key, data, 'application/octet-stream');
      const moved = await paper.advanceReceived(db, job.id, offset, data.length);
      if (!moved) {
        // Another request with the same chunk won: its copy is the one counted.
        const now = await requireJob(scope, jobId);
        throw new AppError('SCAN_OFFSET_MISMATCH', 'Resume from the bytes received', {
          received: now.received,
          state: now.state,
        });
      }
      if (moved.received === moved.size) {
        await paper.updateJob(db, job.id, { state: 'queued', heartbeatAt: clock.now() });
        return toJobDto({ ...moved, state: 'queued' });
      }
      return toJobDto(moved);
    },

    /** The scanned pages of the test and what became of each (codes only, never names). */
    async listPages(actor: Actor, ids: TestIds): Promise<ScanPage[]> {
      const { test } = await scopeOf(actor, ids, false);
      const [pages, toDto] = await Promise.all([paper.listPages(db, test.id), pageDtos(test.id)]);
      return pages.map(toDto);
    },

    /**
     * The image of a page waiting for a person (or set aside), for the exam's admins only: an
     * unread cover may show a name. A page stored as an answer is seen where answers are.
     */
    async readPageImage(actor: Actor, ids: TestIds, pageId: string) {
      const { test } = await scopeOf(actor, ids, true);
      const page = await paper.findPage(db, test.id, pageId);
      if (!page || (page.state !== 'waiting' && page.state !== 'set_aside') || !page.fileId) {
        throw notFound('page');
      }
      const [file] = await repo.findFiles(db, [page.fileId]);
      if (!file) throw notFound('page');
      return { mime: file.mime, data: await storage.get(file.storageKey) };
    },

    /**
     * A person's match of a waiting page (SCAN_PAGE_NOT_WAITING when it no longer waits): the
     * student by their paper code (CLIENT_ERROR on `code` for a code of nobody of the test),
     * the question by its number (CLIENT_ERROR on `itemIndex`), the booklet page given or the
     * first of that question not stored yet (SCAN_PAGE_TAKEN when given and stored already).
     * Stored like a page read by itself; once the review has started it is refused as any
     * answer entry is (PHASE_CLOSED), and the page waits again.
     */
    async matchPage(
      actor: Actor,
      ids: TestIds,
      pageId: string,
      input: PageMatch,
    ): Promise<ScanPage> {
      const { test } = await scopeOf(actor, ids, true);
      const page = await paper.findPage(db, test.id, pageId);
      if (!page) throw notFound('page');
      if (page.state !== 'waiting') {
        throw new AppError('SCAN_PAGE_NOT_WAITING', 'The page is no longer waiting', {
          state: page.state,
        });
      }
      const code = normalizePaperCode(input.code);
      const students = await ensureSeats(db, test);
      const student = students.find((s) => s.seat.code === code);
      if (!student) throw fieldError({ code: ['invalid'] }, 'No student of the test has that code');
      const items = await repo.findTestItems(db, test.id);
      const item = items[input.itemIndex - 1];
      if (!item) throw fieldError({ itemIndex: ['invalid'] }, 'The test has no such question');
      const stored = new Set(
        await paper.storedBookletPages(db, test.id, student.studentId, item.questionId),
      );
      let bookletPage = input.bookletPage;
      if (bookletPage === undefined) {
        bookletPage = 1;
        while (stored.has(bookletPage)) bookletPage += 1;
      } else if (stored.has(bookletPage)) {
        throw new AppError('SCAN_PAGE_TAKEN', 'That booklet page is stored already', {
          code,
          itemIndex: input.itemIndex,
          bookletPage,
        });
      }
      const claimed = await paper.matchWaitingPage(db, page.id, {
        studentId: student.studentId,
        questionId: item.questionId,
        bookletPage,
      });
      if (claimed === 'gone') {
        throw new AppError('SCAN_PAGE_NOT_WAITING', 'The page is no longer waiting', {});
      }
      if (claimed === 'taken') {
        throw new AppError('SCAN_PAGE_TAKEN', 'That booklet page is stored already', {
          code,
          itemIndex: input.itemIndex,
          bookletPage,
        });
      }
      try {
        const [file] = page.fileId ? await repo.findFiles(db, [page.fileId]) : [];
        if (!file) throw notFound('page');
        await storeAnswerPage(db, uploads, {
          actor,
          ids,
          pageId: page.id,
          studentId: student.studentId,
          itemId: item.questionId,
          bookletPage,
          fileName: `${code}-intrebarea-${input.itemIndex}-pagina-${bookletPage}.jpg`,
          image: await storage.get(file.storageKey),
        });
      } catch (error) {
        await paper.unmatchPage(db, page.id, page.fileId);
        throw error;
      }
      // The image kept while the page waited: the answer holds its own copy now.
      if (page.fileId) {
        const keys = await deleteFileRecords(db, [page.fileId]);
        await Promise.all(keys.map((k) => storage.delete(k).catch(() => undefined)));
      }
      const toDto = await pageDtos(test.id);
      const after = await paper.findPage(db, test.id, page.id);
      if (!after) throw notFound('page');
      return toDto(after);
    },

    /** A waiting page nobody will match (a blank spare page) leaves the waiting pages. */
    async setPageAside(actor: Actor, ids: TestIds, pageId: string): Promise<ScanPage> {
      const { test } = await scopeOf(actor, ids, true);
      const page = await paper.findPage(db, test.id, pageId);
      if (!page) throw notFound('page');
      if (!(await paper.setPageAside(db, page.id))) {
        throw new AppError('SCAN_PAGE_NOT_WAITING', 'The page is no longer waiting', {
          state: page.state,
        });
      }
      return (await pageDtos(test.id))({ ...page, state: 'set_aside' });
    },

    /**
     * Per room, the students with every answer page stored and those with pages missing
     * (which; `absent` when nothing of theirs was scanned), and the pages waiting for a person.
     */
    async summary(actor: Actor, ids: TestIds): Promise<PaperSummary> {
      const { test } = await scopeOf(actor, ids, false);
      const [students, items, stored, waiting, seen] = await Promise.all([
        ensureSeats(db, test),
        repo.findTestItems(db, test.id),
        paper.storedPages(db, test.id),
        paper.countWaiting(db, test.id),
        paper.studentsWithPages(db, test.id),
      ]);
      const have = new Set(stored.map((p) => `${p.studentId}/${p.questionId}/${p.bookletPage}`));
      const rooms = new Map<string, PaperSummary['rooms'][number]>();
      const sorted = [...students].sort(
        (a, b) =>
          a.seat.room.localeCompare(b.seat.room, 'ro') ||
          a.seat.seat.localeCompare(b.seat.seat, 'ro', { numeric: true }),
      );
      for (const s of sorted) {
        const room = rooms.get(s.seat.room) ?? {
          room: s.seat.room,
          students: 0,
          complete: 0,
          incomplete: [],
        };
        rooms.set(s.seat.room, room);
        room.students += 1;
        const missing = items.flatMap((item, i) =>
          Array.from({ length: BOOKLET_PAGES_PER_ITEM }, (_, p) => p + 1)
            .filter((p) => !have.has(`${s.studentId}/${item.questionId}/${p}`))
            .map((bookletPage) => ({ itemIndex: i + 1, bookletPage })),
        );
        if (missing.length === 0) room.complete += 1;
        else {
          room.incomplete.push({
            code: s.seat.code,
            seat: s.seat.seat,
            absent: !seen.has(s.studentId),
            missing,
          });
        }
      }
      return {
        itemCount: items.length,
        pagesPerItem: BOOKLET_PAGES_PER_ITEM,
        rooms: [...rooms.values()],
        waiting,
      };
    },
  };
}

export type PaperService = ReturnType<typeof paperService>;
