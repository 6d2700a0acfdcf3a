import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  DIPLOMA_CODE_PATTERN,
  DIPLOMA_VERIFY_PER_MINUTE,
  diplomaJobRequestSchema,
  diplomaJobSchema,
  diplomaPhaseQuerySchema,
  diplomaReissuedSchema,
  diplomaReissueRequestSchema,
  diplomaRequestSchema,
  diplomaVerificationSchema,
  myDiplomaSchema,
  staleDiplomaSchema,
} from '../../../shared/schemas/diplomas.js';
import { actorOf, guard } from '../../lib/auth-guard.js';
import type { OriginConfig } from '../../lib/origin.js';
import { siteOrigin } from '../../lib/origin.js';
import type { DiplomasService } from './diplomas.service.js';

const TAGS = ['diploma-generator'];

const jobParams = z.object({ jobId: z.uuid() });
const codeParams = z.object({
  code: z.string().max(20).regex(DIPLOMA_CODE_PATTERN, 'invalid'),
});

/** `/api/v1/diploma-generator/…` (shared/schemas/diplomas.ts describes every call). */
export function diplomasRoutes(diplomas: DiplomasService, config: OriginConfig) {
  const originOf = siteOrigin(config);
  return async (app: FastifyInstance) => {
    const r = app.withTypeProvider<ZodTypeProvider>();
    const signedIn = guard();

    r.post(
      '/diplomas',
      {
        schema: {
          tags: TAGS,
          summary: "A person's diploma of a phase",
          description:
            "PDF, A4 landscape, inline. A student's diploma (prize, mention or participation) " +
            "or a teacher's listing the students of theirs who took part, with a verification " +
            'code and a QR code of the public verification page (on the configured origin; ' +
            '`callbackUrl` is accepted and unused). The person themself, their teacher, and the ' +
            "competition's admins and staff; otherwise 403. 404 without a result in the phase; " +
            '409 RESULTS_NOT_FINAL until the phase is closed; 503 PDF_UNAVAILABLE without fonts.',
          body: diplomaRequestSchema,
          response: { 200: z.unknown().describe('application/pdf') },
        },
        preHandler: signedIn,
      },
      async (request, reply) => {
        const { pdf, fileName } = await diplomas.download(
          actorOf(request),
          request.body,
          originOf(request),
        );
        return reply
          .header('content-type', 'application/pdf')
          .header('content-disposition', `inline; filename="${fileName}"`)
          .header('cache-control', 'no-store')
          .send(pdf);
      },
    );

    r.get(
      '/my-diplomas',
      {
        schema: {
          tags: TAGS,
          summary: 'Diplomas the caller may download',
          description:
            "A student's own; a teacher's own and their students', newest phase first. " +
            '`available` once the phase is closed.',
          response: { 200: z.array(myDiplomaSchema) },
        },
        preHandler: signedIn,
      },
      async (request) => diplomas.myDiplomas(actorOf(request)),
    );

    r.post(
      '/jobs',
      {
        schema: {
          errors: ['RESULTS_NOT_FINAL', 'JOB_ALREADY_RUNNING', 'DIPLOMA_JOBS_STORAGE_FULL'],
          tags: TAGS,
          summary: 'Make a ZIP of diplomas in the background',
          description:
            "Every diploma of a phase (the competition's admins and staff), or one teacher's and " +
            "their students' (`teacherId`: that teacher, or staff). 202 with the job to poll. " +
            'One job per person and phase waits or runs at a time: the same request meanwhile ' +
            'answers that job; a different one 409 JOB_ALREADY_RUNNING (`details.jobId`). ' +
            'While the kept archives fill DIPLOMA_JOBS_MAX_MB, 503 DIPLOMA_JOBS_STORAGE_FULL ' +
            '(Retry-After, `details.retryAfter` seconds).',
          body: diplomaJobRequestSchema,
          response: { 202: diplomaJobSchema },
        },
        preHandler: signedIn,
      },
      async (request, reply) => {
        const { job, isNew } = await diplomas.createJob(
          actorOf(request),
          request.body,
          originOf(request),
        );
        if (isNew) app.diplomaJobs.wake();
        return reply.status(202).send(job);
      },
    );

    r.get(
      '/jobs',
      {
        schema: {
          tags: TAGS,
          summary: "The caller's diploma ZIPs",
          description: 'Newest first, at most 20.',
          response: { 200: z.array(diplomaJobSchema) },
        },
        preHandler: signedIn,
      },
      async (request) => diplomas.listJobs(actorOf(request)),
    );

    r.get(
      '/jobs/:jobId',
      {
        schema: {
          tags: TAGS,
          summary: 'How far a diploma ZIP got',
          description: "`done` of `total` diplomas. 404 for another person's job.",
          params: jobParams,
          response: { 200: diplomaJobSchema },
        },
        preHandler: signedIn,
      },
      async (request) => diplomas.getJob(actorOf(request), request.params.jobId),
    );

    r.get(
      '/jobs/:jobId/file',
      {
        schema: {
          tags: TAGS,
          summary: 'A finished diploma ZIP',
          description:
            '409 DIPLOMA_JOB_NOT_READY until the job is done; kept DIPLOMA_JOB_KEEP_HOURS.',
          params: jobParams,
          response: { 200: z.unknown().describe('application/zip') },
        },
        preHandler: signedIn,
      },
      async (request, reply) => {
        const { zip, size, fileName } = await diplomas.jobFile(
          actorOf(request),
          request.params.jobId,
        );
        return reply
          .header('content-type', 'application/zip')
          .header('content-length', size)
          .header('content-disposition', `attachment; filename="${fileName}"`)
          .header('cache-control', 'no-store')
          .send(zip);
      },
    );

    r.get(
      '/stale',
      {
        schema: {
          tags: TAGS,
          summary: "A phase's diplomas to reissue",
          description:
            'Diplomas printed before a reopened phase closed again and changed the result they ' +
            "print (a student's own, or a teacher's listing such a student), by name. The " +
            "competition's admins and staff; otherwise 403.",
          querystring: diplomaPhaseQuerySchema,
          response: { 200: z.array(staleDiplomaSchema) },
        },
        preHandler: signedIn,
      },
      async (request) => diplomas.listStale(actorOf(request), request.query),
    );

    r.post(
      '/reissue',
      {
        schema: {
          errors: ['RESULTS_NOT_FINAL', 'DIPLOMA_NOT_STALE'],
          tags: TAGS,
          summary: 'Reissue an out-of-date diploma',
          description:
            "Replaces the person's diploma of the phase, flagged out of date, by a new one " +
            "(new code, today's date and results), audited; the old code's check then says it " +
            'was replaced. 409 DIPLOMA_NOT_STALE when it is not out of date; 404 without a ' +
            "diploma in the phase. The competition's admins and staff; otherwise 403.",
          body: diplomaReissueRequestSchema,
          response: { 200: diplomaReissuedSchema },
        },
        preHandler: signedIn,
      },
      async (request) => diplomas.reissue(actorOf(request), request.body),
    );

    r.get(
      '/verify/:code',
      {
        schema: {
          tags: TAGS,
          summary: 'Confirm a diploma by its code',
          description:
            'No sign-in. Only what the diploma prints; dashes and letter case ignored. 404 for ' +
            `an unknown code; at most ${DIPLOMA_VERIFY_PER_MINUTE} requests a minute per address.`,
          params: codeParams,
          response: { 200: diplomaVerificationSchema },
        },
        // Counted per address in the database, so every server process shares one count.
        config: {
          rateLimit: {
            max: DIPLOMA_VERIFY_PER_MINUTE,
            timeWindow: '1 minute',
            acrossProcesses: true,
          },
        },
      },
      async (request) => diplomas.verify(request.params.code),
    );
  };
}
