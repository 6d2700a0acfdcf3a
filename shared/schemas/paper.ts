import { z } from 'zod';

/**
 * Paper exams under `/api/v1/upload-mgmt/exams/{examId}/editions/{editionId}/phases/{phaseId}
 * /tests/{testId}/paper` (hybrid tests only):
 *
 * - `PUT …/paper/seats` with `PaperSeatsInput` → `PaperSeat[]`: the room and seat of some of the
 *   test's students (the exam's admins). Every student of the test has an anonymous paper code
 *   (`K7P-2QX`), made the first time it is needed and never derived from a name.
 * - `GET …/paper/seats` → `PaperSeat[]` (staff of the exam).
 * - `POST …/paper/booklets` with `BookletRequest` → 202 `PaperJob`: the answer booklets of one
 *   room (or every student, `room` omitted) made in the background into one PDF: a cover page
 *   per student (the only page with a name), `BOOKLET_PAGES_PER_ITEM` answer pages per
 *   question and `BOOKLET_SPARE_PAGES` spare pages, each with a QR code and the same in text.
 *   404 NOT_FOUND for a room nobody sits in.
 * - `POST …/paper/scans` with `ScanStart` → 201 `PaperJob` in state `uploading`; then
 *   `PUT …/paper/scans/{jobId}` with the bytes from `Upload-Offset` on
 *   (`application/offset+octet-stream`, at most `SCAN_CHUNK_MAX_BYTES` a request) →
 *   `PaperJob` with `received`; a chunk at another offset is 409 SCAN_OFFSET_MISMATCH with the
 *   offset to resume from. `HEAD`-like resume: `GET …/paper/jobs/{jobId}` tells `received`.
 *   Once all bytes are in the job is queued and read in the background (PDF or ZIP of images).
 * - `GET …/paper/jobs` → `PaperJob[]` of the test, newest first; `GET …/paper/jobs/{jobId}` →
 *   `PaperJob` (poll it); `GET …/paper/jobs/{jobId}/file` → the booklets PDF once done
 *   (409 PAPER_JOB_NOT_READY before).
 * - `GET …/paper/pages` → `ScanPage[]`: the scanned pages and what became of each.
 * - `GET …/paper/pages/{pageId}/image` → the image of a page waiting to be matched (or set
 *   aside), for the exam's admins only (an unread cover may show a name).
 * - `POST …/paper/pages/{pageId}/match` with `PageMatch` → `ScanPage`: a person names the
 *   page's student (their paper code) and question; the page is stored as that student's
 *   answer page like a page read by itself. Unknown code → CLIENT_ERROR on `code`; a question
 *   the test has not → CLIENT_ERROR on `itemIndex`; a booklet page already stored → 409
 *   SCAN_PAGE_TAKEN; a page no longer waiting → 409 SCAN_PAGE_NOT_WAITING.
 * - `POST …/paper/pages/{pageId}/set-aside` → `ScanPage`: a page nobody will match (a blank
 *   spare page, a torn-off scrap) leaves the waiting pages.
 * - `GET …/paper/summary` → `PaperSummary`: per room, the students with all their answer pages
 *   and those with pages missing (which), and how many pages wait to be matched. Starting the
 *   review of a hybrid phase is refused while any of its pages wait (409 SCAN_PAGES_WAITING).
 */

export const PAPER_JOB_KINDS = ['booklets', 'scan'] as const;
export type PaperJobKind = (typeof PAPER_JOB_KINDS)[number];
export const PAPER_JOB_STATES = ['uploading', 'queued', 'running', 'done', 'failed'] as const;
export type PaperJobState = (typeof PAPER_JOB_STATES)[number];

/**
 * What became of a scanned page: stored as a student's answer page; a cover (kept away from
 * markers); a duplicate of a page already stored; waiting for a person to match it (no code
 * read, or a spare page); refused by name (`reason`); set aside by a person (nothing to mark).
 */
export const SCAN_PAGE_STATES = [
  'stored',
  'cover',
  'duplicate',
  'waiting',
  'refused',
  'set_aside',
] as const;
export type ScanPageState = (typeof SCAN_PAGE_STATES)[number];

/** Why a page read well was refused. */
export const SCAN_REFUSALS = ['OTHER_TEST', 'STUDENT_NOT_ENROLLED', 'UNKNOWN_QUESTION'] as const;
export type ScanRefusal = (typeof SCAN_REFUSALS)[number];

/** Answer pages printed for each question, and spare pages at the end of each booklet. */
export const BOOKLET_PAGES_PER_ITEM = 2;
export const BOOKLET_SPARE_PAGES = 2;
/** A scan upload: at most this many bytes in all, and per request. */
export const SCAN_MAX_BYTES = 2 * 1024 * 1024 * 1024;
export const SCAN_CHUNK_MAX_BYTES = 8 * 1024 * 1024;
export const SCAN_FILE_TYPES = ['pdf', 'zip'] as const;
export const MAX_ROOM_LENGTH = 40;
export const MAX_SEAT_LENGTH = 20;
/** Seats set in one request. */
export const PAPER_SEATS_MAX = 2000;

/** A student's anonymous paper code, e.g. `K7P-2QX` (Crockford-like letters, no 0/O, 1/I/L). */
export const PAPER_CODE_RE = /^[A-HJKMNP-Z2-9]{3}-[A-HJKMNP-Z2-9]{3}$/;

const room = z.string().trim().max(MAX_ROOM_LENGTH, 'too_long');
const seat = z.string().trim().max(MAX_SEAT_LENGTH, 'too_long');

export const paperSeatSchema = z.object({
  studentId: z.uuid(),
  givenName: z.string().nullable(),
  familyName: z.string().nullable(),
  grade: z.number().int().nullable(),
  code: z.string(),
  room: z.string(),
  seat: z.string(),
});
export type PaperSeat = z.infer<typeof paperSeatSchema>;

export const paperSeatsInputSchema = z.object({
  seats: z
    .array(z.object({ studentId: z.uuid(), room: room.min(1, 'required'), seat }))
    .min(1, 'required')
    .max(PAPER_SEATS_MAX, 'too_long'),
});
export type PaperSeatsInput = z.infer<typeof paperSeatsInputSchema>;

export const bookletRequestSchema = z.object({
  room: room.min(1, 'required').optional(),
});
export type BookletRequest = z.infer<typeof bookletRequestSchema>;

export const scanStartSchema = z.object({
  fileName: z.string().trim().min(1, 'required').max(200, 'too_long'),
  size: z.number().int().min(1).max(SCAN_MAX_BYTES, 'too_large'),
});
export type ScanStart = z.infer<typeof scanStartSchema>;

export const paperJobSchema = z.object({
  _id: z.uuid(),
  kind: z.enum(PAPER_JOB_KINDS),
  state: z.enum(PAPER_JOB_STATES),
  room: z.string().nullable(),
  fileName: z.string().nullable(),
  size: z.number().int().nullable(),
  received: z.number().int(),
  total: z.number().int(),
  done: z.number().int(),
  errorCode: z.string().nullable(),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
});
export type PaperJob = z.infer<typeof paperJobSchema>;

export const scanPageSchema = z.object({
  _id: z.uuid(),
  jobId: z.uuid(),
  pageNo: z.number().int(),
  state: z.enum(SCAN_PAGE_STATES),
  reason: z.enum(SCAN_REFUSALS).nullable(),
  code: z.string().nullable(),
  itemIndex: z.number().int().nullable(),
  bookletPage: z.number().int().nullable(),
  room: z.string().nullable(),
});
export type ScanPage = z.infer<typeof scanPageSchema>;

/** A person's match of a waiting page: the student's paper code, the question (1-based), and
 * optionally the booklet page (else the first of that question not stored yet). */
export const pageMatchSchema = z.object({
  code: z.string().trim().min(1, 'required').max(20, 'too_long'),
  itemIndex: z.number().int().min(1, 'invalid').max(1000, 'invalid'),
  bookletPage: z.number().int().min(1, 'invalid').max(100, 'invalid').optional(),
});
export type PageMatch = z.infer<typeof pageMatchSchema>;

/** A student's answer pages not stored: question (1-based) and booklet page. */
export const missingPageSchema = z.object({
  itemIndex: z.number().int(),
  bookletPage: z.number().int(),
});

export const paperRoomSummarySchema = z.object({
  room: z.string(),
  students: z.number().int(),
  complete: z.number().int(),
  incomplete: z.array(
    z.object({
      code: z.string(),
      seat: z.string(),
      /** No page of the student was scanned at all. */
      absent: z.boolean(),
      missing: z.array(missingPageSchema),
    }),
  ),
});
export type PaperRoomSummary = z.infer<typeof paperRoomSummarySchema>;

export const paperSummarySchema = z.object({
  itemCount: z.number().int(),
  pagesPerItem: z.number().int(),
  rooms: z.array(paperRoomSummarySchema),
  /** Pages waiting for a person to match them (no room yet: their student is unknown). */
  waiting: z.number().int(),
});
export type PaperSummary = z.infer<typeof paperSummarySchema>;

/** The paper code as typed: lower case, without the dash, with spaces, is the same code. */
export function normalizePaperCode(typed: string): string {
  const bare = typed.toUpperCase().replace(/[^A-Z0-9]/g, '');
  return bare.length === 6 ? `${bare.slice(0, 3)}-${bare.slice(3)}` : bare;
}
