import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { countSchema, filterQuerySchema, whereQuerySchema } from '../../../shared/schemas/exams.js';
import {
  ANSWER_BYTES_FACTOR,
  answerFilesPatchSchema,
  answerFilesQuerySchema,
  answerSchema,
  MAX_ANSWER_FILES,
  studentItemsSchema,
  testStudentListItemSchema,
  testSummarySchema,
  uploadResultSchema,
} from '../../../shared/schemas/uploads.js';
import { actorOf, guard } from '../../lib/auth-guard.js';
import { listDoc, type MultipartDoc } from '../../lib/openapi/index.js';
import { phaseTestParams } from '../../lib/route-params.js';
import type { TestStudentsService } from './test-students.service.js';
import { bytesSchema, contentDisposition, readAnswerFiles } from './uploads.http.js';
import { DESCRIBED_TEST, testStudentsResource } from './uploads.repo.js';
import type { UploadsService } from './uploads.service.js';

const tags = ['upload-mgmt'];
const BASE = '/exams/:examId/editions/:editionId/phases/:phaseId/tests/:testId';
const testParams = phaseTestParams;
const studentParams = testParams.extend({ studentId: z.uuid() });
const itemParams = testParams.extend({ itemId: z.uuid() });
const studentItemParams = studentParams.extend({ itemId: z.uuid() });
const answerParams = testParams.extend({ answerId: z.uuid() });

const anyone = guard();
const teachers = guard({ roles: ['teacher', 'admin'] });
const students = guard({ roles: ['student'] });

const idsOf = (p: z.infer<typeof testParams>) => ({
  examId: p.examId,
  editionId: p.editionId,
  phaseId: p.phaseId,
  testId: p.testId,
});

const UPLOAD_NOTE =
  `multipart/form-data with files \`item_0\`, \`item_1\`, … (at most ${MAX_ANSWER_FILES}). ` +
  'Each is checked by its bytes: pdf, png and jpeg are added to the answer (created if ' +
  'missing) in the order sent; any other file is listed in `rejectedFiles` with its code ' +
  '(FILE_TYPE_NOT_ALLOWED, FILE_TYPE_HEIC for phone photos in HEIC, FILE_TOO_LARGE over ' +
  'UPLOAD_MAX_BYTES) and ignored. When no file is kept the call fails with the first ' +
  `refusal's code and \`details.rejectedFiles\`. An answer holds at most ${MAX_ANSWER_FILES} ` +
  `files and ${ANSWER_BYTES_FACTOR} × UPLOAD_MAX_BYTES in all (413 ANSWER_TOO_LARGE). ` +
  'Refused once the phase review has started or the phase is closed (409 PHASE_CLOSED).';

/** The test's students list; its fields are the same for every test. */
const testStudentsList = listDoc({
  resources: [{ resource: testStudentsResource(DESCRIBED_TEST) }],
});

/** The multipart body of an upload: the answer's pages as `item_0`, `item_1`, … */
const answerPages: MultipartDoc = {
  numbered: {
    prefix: 'item_',
    max: MAX_ANSWER_FILES,
    description: 'A page of the answer: pdf, png or jpeg',
  },
};

/**
 * upload-mgmt (SPEC.md §7): hybrid answers, the students of a test and their answers.
 * Teachers with a role on the exam list and view (coordinators only their own students);
 * platform admins and the exam's admin teachers also enter answers for students who wrote
 * on paper; a student reaches only their own answers to a hybrid test of their phase.
 */
export const uploadsRoutes =
  (
    uploads: UploadsService,
    testStudents: TestStudentsService,
    maxBytes: number,
  ): FastifyPluginAsync =>
  async (app) => {
    const r = app.withTypeProvider<ZodTypeProvider>();

    r.get(
      BASE,
      {
        schema: {
          tags,
          // test-mgmt has the same path: this one is the upload screens' summary.
          operationId: 'getUploadTestSummary',
          summary: 'The test, for the screens of its students and their answers',
          description:
            "Teachers with a role on the exam (coordinators of the test's edition included). " +
            "`uploadState` 'open' when the caller may enter paper answers now.",
          params: testParams,
          response: { 200: testSummarySchema },
        },
        preHandler: teachers,
      },
      async (request) => uploads.getTestSummary(actorOf(request), idsOf(request.params)),
    );

    r.get(
      `${BASE}/students`,
      {
        schema: {
          tags,
          summary: "A test's students with their status and score",
          description:
            "The phase's students whose grade is one of the test's. LoopBack `filter`: where " +
            'on familyName, givenName, familyNameNormalized, givenNameNormalized (like/ilike/' +
            'regexp), studentCounty, studentSector (Bucharest, 1–6 or null), studentGrade,  school, studentCentre, status ' +
            "('not_started', 'in_progress', 'finished' for online tests; 'not_started', " +
            "'uploaded' for hybrid ones), score, answeredItems, fileCount; order default " +
            '`givenName ASC`. Coordinators see only their own students. Hybrid scores stay ' +
            'null until marking.',
          params: testParams,
          querystring: filterQuerySchema,
          list: testStudentsList,
          response: { 200: z.array(testStudentListItemSchema) },
        },
        preHandler: teachers,
      },
      async (request) =>
        testStudents.listStudents(actorOf(request), idsOf(request.params), request.query.filter),
    );

    r.get(
      `${BASE}/students/count`,
      {
        schema: {
          tags,
          summary: "Count a test's students",
          description: 'LoopBack `where` on the same fields as the list; answers `{count}`.',
          params: testParams,
          querystring: whereQuerySchema,
          list: testStudentsList,
          response: { 200: countSchema },
        },
        preHandler: teachers,
      },
      async (request) =>
        testStudents.countStudents(actorOf(request), idsOf(request.params), request.query.where),
    );

    r.get(
      `${BASE}/students/:studentId/items`,
      {
        schema: {
          tags,
          summary: "The test's items for one student, with their answers and files",
          description:
            "'Întrebarea N' is `index`, in the student's own order for an online attempt. " +
            'A student reads only their own, once the published test has opened ' +
            '(409 TEST_NOT_ACTIVE before). `itemCorrectAnswers` for the exam staff, for ' +
            'coordinators after the end, never for students. `uploadState` says whether ' +
            'the caller may add or remove files now.',
          params: studentParams,
          response: { 200: studentItemsSchema },
        },
        preHandler: anyone,
      },
      async (request) =>
        uploads.getStudentItems(actorOf(request), idsOf(request.params), request.params.studentId),
    );

    r.post(
      `${BASE}/items/:itemId/answers`,
      {
        schema: {
          tags,
          summary: "Upload pages of the caller's own answer (students)",
          description: `${UPLOAD_NOTE} Students only, inside the published test's window (409 TEST_NOT_ACTIVE).`,
          multipart: answerPages,
          params: itemParams,
          response: { 200: uploadResultSchema },
        },
        preHandler: students,
      },
      async (request) =>
        uploads.uploadAnswer(
          actorOf(request),
          idsOf(request.params),
          { itemId: request.params.itemId },
          () => readAnswerFiles(request, maxBytes),
        ),
    );

    r.post(
      `${BASE}/students/:studentId/items/:itemId/answers`,
      {
        schema: {
          tags,
          summary: "Upload pages of a student's answer (staff entry of a paper answer)",
          description:
            `${UPLOAD_NOTE} The student themselves (as above), or platform admins and the ` +
            "exam's admin teachers at any time before the review: the answer's `enteredBy` " +
            'becomes theirs and the entry is audited. Other teachers: 403.',
          multipart: answerPages,
          params: studentItemParams,
          response: { 200: uploadResultSchema },
        },
        preHandler: anyone,
      },
      async (request) =>
        uploads.uploadAnswer(
          actorOf(request),
          idsOf(request.params),
          { itemId: request.params.itemId, studentId: request.params.studentId },
          () => readAnswerFiles(request, maxBytes),
        ),
    );

    r.patch(
      `${BASE}/answers/:answerId`,
      {
        schema: {
          errors: ['PHASE_CLOSED', 'TEST_NOT_ACTIVE'],
          tags,
          summary: 'Keep only these files of an answer, in this order (delete, reorder)',
          description:
            '`answerFiles`: ids of files the answer already has, each once (else 400 ' +
            'CLIENT_ERROR on answerFiles). Same rights and time rules as uploading; a ' +
            'student cannot change an answer staff entered (403). Removed files stay stored.',
          params: answerParams,
          body: answerFilesPatchSchema,
          response: { 200: answerSchema },
        },
        preHandler: anyone,
      },
      async (request) =>
        uploads.setAnswerFiles(
          actorOf(request),
          idsOf(request.params),
          request.params.answerId,
          request.body,
        ),
    );

    r.get(
      `${BASE}/answers/:answerId/files`,
      {
        schema: {
          tags,
          summary: "An answer's files: one inline, or all as a zip",
          description:
            'With `?fileId=` that file, inline, with its type (pdf, png or jpeg). Without, ' +
            'every file in the answer order as `response_{answerId}.zip` (entries named ' +
            '`01-<name>`, …). 404 when the answer has no such file. For the student and ' +
            'for the teachers who may view the answer.',
          params: answerParams,
          querystring: answerFilesQuerySchema,
          response: { 200: bytesSchema },
        },
        preHandler: anyone,
      },
      async (request, reply) => {
        const file = await uploads.readAnswerFiles(
          actorOf(request),
          idsOf(request.params),
          request.params.answerId,
          request.query.fileId,
        );
        return reply
          .header('content-type', file.mime)
          .header(
            'content-disposition',
            contentDisposition(file.inline ? 'inline' : 'attachment', file.name),
          )
          .header('cache-control', 'private, no-store')
          .header('x-content-type-options', 'nosniff')
          .send(file.data);
      },
    );
  };
