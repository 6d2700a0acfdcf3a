import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  testCreateSchema,
  testDetailsSchema,
  testDownloadSchema,
  testPaperFileName,
  testPaperSchema,
  testPointsResultSchema,
  testPointsSchema,
  testPreviewSchema,
  testPublishResultSchema,
  testSchema,
} from '../../../shared/schemas/tests.js';
import { actorOf, guard } from '../../lib/auth-guard.js';
import { phaseParams, phaseTestParams as testParams } from '../../lib/route-params.js';
import type { TestsService } from './tests.service.js';

const TAGS = ['test-mgmt'];
/** Teachers and admins; what each may do is decided per competition (tests.policy.ts). */
const staffGuard = () => guard({ roles: ['teacher', 'admin'] });

const WHO = 'Managers (admins, the exam admins) and the exam staff; anyone else 404, students 403.';
/** The paper and its PDF: SPEC.md §2 refuses a download with 403 to any teacher who may not print. */
const WHO_PRINTS =
  'Managers (admins, the exam admins) and the exam staff; any other teacher 403 for a test that ' +
  'exists (404 for one that does not), students 403.';

/** `/test-mgmt/exams/{examId}/editions/{editionId}/phases/{phaseId}/tests` (SPEC.md §7). */
export function testsRoutes(tests: TestsService) {
  return async (app: FastifyInstance) => {
    const r = app.withTypeProvider<ZodTypeProvider>();
    const base = '/exams/:examId/editions/:editionId/phases/:phaseId/tests';

    r.post(
      base,
      {
        schema: {
          tags: TAGS,
          summary: 'Draw a test from the phase bank',
          description:
            'Managers only (403 for staff). Grades must be the exam’s (CLIENT_ERROR ' +
            '`{grades:[invalid]}`); start before end and within the phase (400 ' +
            'INVALID_TEST_DATE `{startDate:[invalid_date]}`); a grade in at most one test of ' +
            'the phase (409 TEST_ALREADY_EXISTS `{grades:[test_grade_duplicate]}`); enough ' +
            'questions of those grades whose discipline is the subject (409 ' +
            'INSUFFICIENT_TEST_ITEMS_FOR_CRITERIA, details: per difficulty requested and ' +
            'available); an open phase (409 PHASE_CLOSED). The questions are drawn at random ' +
            'with a stored seed, spread over categories; the total is shared equally in whole ' +
            'or half points (the points left over to the hardest items), or easy 1 : medium 2 ' +
            ': hard 3 with `weightByDifficulty`. Resets the phase’s allPublished. Audited.',
          params: phaseParams,
          body: testCreateSchema,
          response: { 201: testSchema },
        },
        preHandler: staffGuard(),
      },
      async (request, reply) => {
        const test = await tests.createTest(actorOf(request), request.params, request.body);
        return reply.status(201).send(test);
      },
    );

    r.put(
      `${base}/:testId/items`,
      {
        schema: {
          tags: TAGS,
          summary: "Set each item's points (assignedItems)",
          description:
            'Managers only (403 for staff). Every item of the test once, each > 0 with two ' +
            'decimals at most, adding up to the test’s total (400 VALIDATION_FAILED ' +
            '`score_sum` at assignedItems; `invalid` there for an item that is not the test’s ' +
            'or one left out). Attempts already scored are scored again with the new points ' +
            '(items marked by people keep their marks; changing the worth of such an item is ' +
            '409 ITEM_ALREADY_MARKED); totals follow. 409 PHASE_CLOSED. Audited.',
          params: testParams,
          body: testPointsSchema,
          response: { 200: testPointsResultSchema },
        },
        preHandler: staffGuard(),
      },
      async (request) => tests.setItemPoints(actorOf(request), request.params, request.body),
    );

    r.get(
      base,
      {
        schema: {
          tags: TAGS,
          summary: "The phase's tests",
          description: `By first grade, then name. ${WHO}`,
          params: phaseParams,
          response: { 200: z.array(testSchema) },
        },
        preHandler: staffGuard(),
      },
      async (request) => tests.listTests(actorOf(request), request.params),
    );

    r.put(
      `${base}/publish`,
      {
        schema: {
          tags: TAGS,
          summary: 'Publish every test of the phase',
          description:
            'Managers only. Sets each test published and the phase’s allPublished (true when ' +
            'it has tests). Repeating it publishes nothing more. Audited.',
          params: phaseParams,
          response: { 200: testPublishResultSchema },
        },
        preHandler: staffGuard(),
      },
      async (request) => tests.publishTests(actorOf(request), request.params),
    );

    r.get(
      `${base}/:testId`,
      {
        schema: {
          tags: TAGS,
          summary: 'A test with its items (no correct answers)',
          description: WHO,
          params: testParams,
          response: { 200: testPreviewSchema },
        },
        preHandler: staffGuard(),
      },
      async (request) => tests.getTest(actorOf(request), request.params),
    );

    r.get(
      `${base}/:testId/details`,
      {
        schema: {
          tags: TAGS,
          summary: 'A test with assignedItems and correct answers',
          description: 'Managers only (403 for staff).',
          params: testParams,
          response: { 200: testDetailsSchema },
        },
        preHandler: staffGuard(),
      },
      async (request) => tests.getTestDetails(actorOf(request), request.params),
    );

    r.get(
      `${base}/:testId/paper`,
      {
        schema: {
          errors: ['PAPER_IMAGE_MISSING', 'PDF_UNAVAILABLE'],
          tags: TAGS,
          summary: 'What the printed paper shows',
          description: `The data of the print view /test-download/examen/…/test/{testId}. ${WHO_PRINTS}`,
          params: testParams,
          response: { 200: testPaperSchema },
        },
        preHandler: staffGuard(),
      },
      async (request) => tests.getPaper(actorOf(request), request.params),
    );

    r.post(
      `${base}/:testId/download`,
      {
        schema: {
          errors: ['PAPER_IMAGE_MISSING'],
          tags: TAGS,
          summary: 'The test paper as a PDF',
          description:
            `A4 PDF printed by Chromium: names, grades, subject, items with formulas and ` +
            `images, answer boxes and space. \`callbackUrl\` is accepted and unused. ${WHO_PRINTS} ` +
            '503 PDF_UNAVAILABLE when Chromium cannot run; 503 PDF_BUSY (Retry-After, ' +
            '`details.retryAfter` seconds) when more papers wait to be printed than the server ' +
            'takes. A paper already printed is sent again without printing: the PDF is kept ' +
            'by the content it was printed from, so any change to the test prints it anew.',
          params: testParams,
          body: testDownloadSchema,
          response: { 200: z.unknown().describe('application/pdf') },
        },
        preHandler: staffGuard(),
      },
      async (request, reply) => {
        const { paper, pdf } = await tests.downloadPaper(actorOf(request), request.params);
        return reply
          .header('content-type', 'application/pdf')
          .header(
            'content-disposition',
            `attachment; filename="${testPaperFileName(paper.grades)}"`,
          )
          .header('cache-control', 'no-store')
          .send(pdf);
      },
    );

    r.delete(
      `${base}/:testId`,
      {
        schema: {
          tags: TAGS,
          summary: 'Delete a test',
          description:
            'Managers only. Refused with 409 TEST_HAS_ATTEMPTS once a student has an attempt ' +
            'or an answer for it, 409 PHASE_CLOSED in a closed phase. Frees its grades and ' +
            'recomputes allPublished. Audited.',
          params: testParams,
          response: { 204: z.null().describe('Deleted') },
        },
        preHandler: staffGuard(),
      },
      async (request, reply) => {
        await tests.deleteTest(actorOf(request), request.params);
        return reply.status(204).send(null);
      },
    );
  };
}
