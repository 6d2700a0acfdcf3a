import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  bookletRequestSchema,
  PAPER_SEATS_MAX,
  pageMatchSchema,
  paperJobSchema,
  paperSeatSchema,
  paperSeatsInputSchema,
  paperSummarySchema,
  SCAN_CHUNK_MAX_BYTES,
  SCAN_MAX_BYTES,
  scanPageSchema,
  scanStartSchema,
} from '../../../shared/schemas/paper.js';
import { actorOf, guard } from '../../lib/auth-guard.js';
import { phaseTestParams } from '../../lib/route-params.js';
import type { PaperService } from './paper.service.js';
import { bytesSchema, contentDisposition } from './uploads.http.js';

const tags = ['upload-mgmt'];
const BASE = '/exams/:examId/editions/:editionId/phases/:phaseId/tests/:testId/paper';
const jobParams = phaseTestParams.extend({ jobId: z.uuid() });
const pageParams = phaseTestParams.extend({ pageId: z.uuid() });
const teachers = guard({ roles: ['teacher', 'admin'] });
/** The content type of a scan's chunk (as the tus protocol names it). */
const CHUNK_TYPE = 'application/offset+octet-stream';
const offsetHeaders = z.object({
  'upload-offset': z.coerce
    .number()
    .int()
    .min(0)
    .max(SCAN_MAX_BYTES)
    .optional()
    .describe('Where the chunk starts in the scan: the bytes received so far (required)'),
});

const idsOf = (p: z.infer<typeof phaseTestParams>) => ({
  examId: p.examId,
  editionId: p.editionId,
  phaseId: p.phaseId,
  testId: p.testId,
});

/**
 * Paper exams of a hybrid test (shared/schemas/paper.ts): rooms and seats, answer booklets made
 * in the background, scans of the written stack received in resumable chunks and read in the
 * background, and what became of each scanned page. Writes: the exam's admins (and platform
 * admins); reads: teachers with a role on the exam.
 */
export const paperRoutes =
  (paper: PaperService): FastifyPluginAsync =>
  async (app) => {
    app.addContentTypeParser(
      CHUNK_TYPE,
      { parseAs: 'buffer', bodyLimit: SCAN_CHUNK_MAX_BYTES },
      (_request, body, done) => done(null, body),
    );
    const r = app.withTypeProvider<ZodTypeProvider>();

    r.get(
      `${BASE}/seats`,
      {
        schema: {
          tags,
          summary: "The test's students with their paper code, room and seat",
          description: `Every student of the test (at most ${PAPER_SEATS_MAX} are set at once).`,
          params: phaseTestParams,
          response: { 200: z.array(paperSeatSchema) },
        },
        preHandler: teachers,
      },
      async (request) => paper.listSeats(actorOf(request), idsOf(request.params)),
    );

    r.put(
      `${BASE}/seats`,
      {
        schema: {
          tags,
          summary: 'Set rooms and seats',
          description:
            "The exam's admins. Each student must be one of the test's (CLIENT_ERROR on " +
            '`seats.N.studentId`, nothing changed).',
          params: phaseTestParams,
          body: paperSeatsInputSchema,
          response: { 200: z.array(paperSeatSchema) },
        },
        preHandler: teachers,
      },
      async (request) => paper.setSeats(actorOf(request), idsOf(request.params), request.body),
    );

    r.post(
      `${BASE}/booklets`,
      {
        schema: {
          tags,
          summary: 'Ask for the answer booklets of a room',
          description:
            'One PDF made in the background: per student a cover page (name, code, room, ' +
            'seat) and answer pages with QR codes, then spare pages. 404 for a room nobody ' +
            'sits in. Poll the job; download its file.',
          params: phaseTestParams,
          body: bookletRequestSchema,
          response: { 202: paperJobSchema },
        },
        preHandler: teachers,
      },
      async (request, reply) => {
        const job = await paper.requestBooklets(
          actorOf(request),
          idsOf(request.params),
          request.body,
        );
        app.paperJobs.wake();
        return reply.code(202).send(job);
      },
    );

    r.post(
      `${BASE}/scans`,
      {
        schema: {
          tags,
          summary: 'Announce a scan of the written stack',
          description:
            'A multi-page PDF or a ZIP of page images, at most SCAN_MAX_BYTES; its bytes ' +
            `follow with PUT in chunks of at most ${SCAN_CHUNK_MAX_BYTES} bytes.`,
          params: phaseTestParams,
          body: scanStartSchema,
          response: { 201: paperJobSchema },
        },
        preHandler: teachers,
      },
      async (request, reply) =>
        reply
          .code(201)
          .send(await paper.startScan(actorOf(request), idsOf(request.params), request.body)),
    );

    r.put(
      `${BASE}/scans/:jobId`,
      {
        schema: {
          tags,
          summary: 'Send a chunk of a scan',
          description:
            `Body \`${CHUNK_TYPE}\`, the bytes from \`Upload-Offset\` on, which must be the ` +
            'bytes received so far (409 SCAN_OFFSET_MISMATCH with `details.received` ' +
            'otherwise: resume from there). The last chunk queues the scan to be read.',
          params: jobParams,
          headers: offsetHeaders,
          binaryBody: {
            contentType: CHUNK_TYPE,
            description: 'The bytes of the scan from the offset on',
          },
          response: { 200: paperJobSchema },
        },
        preHandler: teachers,
      },
      async (request) => {
        const job = await paper.receiveChunk(
          actorOf(request),
          idsOf(request.params),
          request.params.jobId,
          request.headers['upload-offset'],
          // Without the chunk content type there is no body: an empty chunk, refused.
          Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0),
        );
        if (job.state === 'queued') app.paperJobs.wake();
        return job;
      },
    );

    r.get(
      `${BASE}/jobs`,
      {
        schema: {
          tags,
          summary: "The test's booklet and scan jobs",
          params: phaseTestParams,
          response: { 200: z.array(paperJobSchema) },
        },
        preHandler: teachers,
      },
      async (request) => paper.listJobs(actorOf(request), idsOf(request.params)),
    );

    r.get(
      `${BASE}/jobs/:jobId`,
      {
        schema: {
          tags,
          summary: 'A booklet or scan job and its progress',
          params: jobParams,
          response: { 200: paperJobSchema },
        },
        preHandler: teachers,
      },
      async (request) =>
        paper.getJob(actorOf(request), idsOf(request.params), request.params.jobId),
    );

    r.get(
      `${BASE}/jobs/:jobId/file`,
      {
        schema: {
          tags,
          summary: 'The booklets PDF',
          description: '409 PAPER_JOB_NOT_READY until the job is done.',
          params: jobParams,
          response: { 200: bytesSchema },
        },
        preHandler: teachers,
      },
      async (request, reply) => {
        const file = await paper.readJobFile(
          actorOf(request),
          idsOf(request.params),
          request.params.jobId,
        );
        return reply
          .header('content-type', 'application/pdf')
          .header('content-disposition', contentDisposition('attachment', file.name))
          .header('cache-control', 'private, no-store')
          .send(file.data);
      },
    );

    r.get(
      `${BASE}/pages`,
      {
        schema: {
          tags,
          summary: 'The scanned pages and what became of each',
          description:
            'Stored, cover (kept from markers), duplicate, waiting to be matched, or refused ' +
            '(OTHER_TEST, STUDENT_NOT_ENROLLED, UNKNOWN_QUESTION). Codes only, never names.',
          params: phaseTestParams,
          response: { 200: z.array(scanPageSchema) },
        },
        preHandler: teachers,
      },
      async (request) => paper.listPages(actorOf(request), idsOf(request.params)),
    );
    r.get(
      `${BASE}/pages/:pageId/image`,
      {
        schema: {
          tags,
          summary: 'The image of a page waiting to be matched',
          description:
            "The exam's admins only (an unread cover may show a name); 404 for a page " +
            'stored as an answer (seen with the answers) or kept from markers.',
          params: pageParams,
          response: { 200: bytesSchema },
        },
        preHandler: teachers,
      },
      async (request, reply) => {
        const file = await paper.readPageImage(
          actorOf(request),
          idsOf(request.params),
          request.params.pageId,
        );
        return reply
          .header('content-type', file.mime)
          .header('cache-control', 'private, no-store')
          .send(file.data);
      },
    );

    r.post(
      `${BASE}/pages/:pageId/match`,
      {
        schema: {
          errors: ['SCAN_PAGE_NOT_WAITING', 'SCAN_PAGE_TAKEN', 'PHASE_CLOSED'],
          tags,
          summary: 'Match a waiting page to a student and question',
          description:
            "The exam's admins. The student's paper code (CLIENT_ERROR on `code` for nobody of " +
            'the test), the question by number (CLIENT_ERROR on `itemIndex`), the booklet page ' +
            'or the first not stored yet (409 SCAN_PAGE_TAKEN when stored already). Stored as ' +
            "the student's answer page; 409 SCAN_PAGE_NOT_WAITING when matched meanwhile.",
          params: pageParams,
          body: pageMatchSchema,
          response: { 200: scanPageSchema },
        },
        preHandler: teachers,
      },
      async (request) =>
        paper.matchPage(
          actorOf(request),
          idsOf(request.params),
          request.params.pageId,
          request.body,
        ),
    );

    r.post(
      `${BASE}/pages/:pageId/set-aside`,
      {
        schema: {
          errors: ['SCAN_PAGE_NOT_WAITING'],
          tags,
          summary: 'Set aside a waiting page nobody will match',
          description: 'A blank spare page, a scrap: it no longer holds up the review.',
          params: pageParams,
          response: { 200: scanPageSchema },
        },
        preHandler: teachers,
      },
      async (request) =>
        paper.setPageAside(actorOf(request), idsOf(request.params), request.params.pageId),
    );

    r.get(
      `${BASE}/summary`,
      {
        schema: {
          tags,
          summary: 'Per room: students with all pages, with pages missing; pages waiting',
          description: 'Codes and seats only, never names.',
          params: phaseTestParams,
          response: { 200: paperSummarySchema },
        },
        preHandler: teachers,
      },
      async (request) => paper.summary(actorOf(request), idsOf(request.params)),
    );
  };
