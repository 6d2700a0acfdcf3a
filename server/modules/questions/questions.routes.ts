import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { countSchema } from '../../../shared/schemas/exams.js';
import { MAX_FILTER_JSON_LENGTH } from '../../../shared/schemas/people.js';
import {
  bulkDeleteResultSchema,
  bulkDeleteSchema,
  IMPORT_TEMPLATE_NAME,
  imageImportReportSchema,
  QUESTION_PAGE_SIZE,
  questionCreateSchema,
  questionListItemSchema,
  questionPatchSchema,
  questionSchema,
  questionTeachersSchema,
  sheetImportReportSchema,
  XLSX_MIME,
} from '../../../shared/schemas/questions.js';
import { actorOf, guard } from '../../lib/auth-guard.js';
import { listDoc } from '../../lib/openapi/index.js';
import { phaseParams } from '../../lib/route-params.js';
import type { QuestionImportService } from './question-import.service.js';
import type { QuestionTeachersService } from './question-teachers.service.js';
import { bytesSchema, MAX_FILES_PER_REQUEST, readQuestionMultipart } from './questions.http.js';
import { questionsResource } from './questions.repo.js';
import type { QuestionsService } from './questions.service.js';

const tags = ['resource-mgmt'];
// Any signed-in user: the policy answers 404 to whoever may not read the bank (students
// included, so a student learns nothing about it) and 403 to staff who try to change it.
const signedIn = guard();
const ITEMS = '/exams/:examId/editions/:editionId/phases/:phaseId/items';

const questionParams = phaseParams.extend({ questionId: z.uuid() });
const filterQuery = z
  .object({ filter: z.string().max(MAX_FILTER_JSON_LENGTH, 'too_long').optional() })
  .strict();
const whereQuery = z
  .object({ where: z.string().max(MAX_FILTER_JSON_LENGTH, 'too_long').optional() })
  .strict();

const questionsList = listDoc({
  resources: [{ resource: questionsResource }],
  defaultLimit: QUESTION_PAGE_SIZE,
});

export type QuestionsRoutesDeps = {
  questions: QuestionsService;
  teachers: QuestionTeachersService;
  imports: QuestionImportService;
  maxBytes: number;
};

/**
 * `POST …/items/files`: one open question per scanned image. SPEC.md §7 names it under
 * `data-import`; it answers there and under `resource-mgmt`, beside the rest of the bank.
 */
function registerImageImport(
  app: FastifyInstance,
  imports: QuestionImportService,
  maxBytes: number,
  operationId?: string,
): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.post(
    `${ITEMS}/files`,
    {
      schema: {
        ...(operationId ? { operationId } : {}),
        errors: ['PHASE_CLOSED'],
        tags,
        description:
          'Multipart: `image` parts (png or jpeg by content), `Discipline`, `Grade`, and ' +
          'optionally `Difficulty` (default medium) and `Category`. One open question per ' +
          'accepted image; refused files are reported with their code.',
        params: phaseParams,
        response: { 200: imageImportReportSchema },
        multipart: {
          files: {
            image: {
              description: `A scanned question, png or jpeg; up to ${MAX_FILES_PER_REQUEST} images.`,
              required: true,
              many: true,
            },
          },
          fields: {
            Discipline: { description: 'The questions’ discipline.', required: true },
            Grade: { description: 'The questions’ grade (a number, e.g. 7).', required: true },
            Difficulty: {
              description: 'low, medium (the default) or high.',
              enum: ['low', 'medium', 'high'],
            },
            Category: { description: 'The questions’ category.' },
          },
        },
      },
      preHandler: signedIn,
    },
    async (request) =>
      imports.importImages(actorOf(request), request.params, () =>
        readQuestionMultipart(request, ['image'], maxBytes),
      ),
  );
}

/** The routes SPEC.md §7 places under `/api/v1/data-import`: the question bank's image import. */
export const dataImportRoutes =
  ({ imports, maxBytes }: Pick<QuestionsRoutesDeps, 'imports' | 'maxBytes'>): FastifyPluginAsync =>
  async (app) => {
    registerImageImport(app, imports, maxBytes, 'postDataImportItemFiles');
  };

/** The question bank of a phase (SPEC.md §7 question and resource service). */
export const questionsRoutes =
  ({ questions, teachers, imports, maxBytes }: QuestionsRoutesDeps): FastifyPluginAsync =>
  async (app) => {
    const r = app.withTypeProvider<ZodTypeProvider>();

    r.get(
      ITEMS,
      {
        schema: {
          tags,
          description:
            'A page of the bank: `filter` {limit (default 10), skip, order (default `itemQ ASC`), ' +
            'where, fields}. `itemCategory`/`itemDiscipline` take `ilike` (or LoopBack `like` with ' +
            "`options: 'i'`); `itemGrade: ''` means any grade. Correct answers only for the " +
            "bank's managers (null for staff).",
          params: phaseParams,
          querystring: filterQuery,
          list: questionsList,
          response: { 200: z.array(questionListItemSchema) },
        },
        preHandler: signedIn,
      },
      async (request) =>
        questions.listQuestions(actorOf(request), request.params, request.query.filter),
    );

    r.get(
      `${ITEMS}/count`,
      {
        schema: {
          tags,
          params: phaseParams,
          querystring: whereQuery,
          list: questionsList,
          response: { 200: countSchema },
        },
        preHandler: signedIn,
      },
      async (request) =>
        questions.countQuestions(actorOf(request), request.params, request.query.where),
    );

    r.post(
      ITEMS,
      {
        schema: {
          errors: ['PHASE_CLOSED'],
          tags,
          description: 'Adds a question; its answers must fit its type (field errors otherwise).',
          params: phaseParams,
          body: questionCreateSchema,
          response: { 201: questionSchema },
        },
        preHandler: signedIn,
      },
      async (request, reply) => {
        const created = await questions.createQuestion(
          actorOf(request),
          request.params,
          request.body,
        );
        return reply.status(201).send(created);
      },
    );

    r.delete(
      ITEMS,
      {
        schema: {
          errors: ['PHASE_CLOSED'],
          tags,
          description:
            'Deletes the listed questions; answers the ids NOT deleted (questions drawn into ' +
            'a test, unknown ids). An empty list means all were deleted.',
          params: phaseParams,
          body: bulkDeleteSchema,
          response: { 200: bulkDeleteResultSchema },
        },
        preHandler: signedIn,
      },
      async (request) =>
        questions.deleteQuestions(actorOf(request), request.params, request.body.ids),
    );

    r.get(
      `${ITEMS}/import-template`,
      {
        schema: {
          tags,
          description: `The spreadsheet to fill in for \`POST …/items/import\` (${IMPORT_TEMPLATE_NAME}).`,
          params: phaseParams,
          response: { 200: bytesSchema },
        },
        preHandler: signedIn,
      },
      async (request, reply) => {
        const file = await imports.template(actorOf(request), request.params);
        return reply
          .header('content-type', XLSX_MIME)
          .header('content-disposition', `attachment; filename="${IMPORT_TEMPLATE_NAME}"`)
          .header('cache-control', 'no-store')
          .send(file);
      },
    );

    registerImageImport(app, imports, maxBytes);

    r.post(
      `${ITEMS}/import`,
      {
        schema: {
          errors: ['PHASE_CLOSED', 'SPREADSHEET_TOO_LARGE'],
          tags,
          description:
            'Multipart `file`: an xlsx with one question a row (see `…/import-template`). ' +
            'Valid rows are added; each refused row is reported with its field and code.',
          params: phaseParams,
          response: { 200: sheetImportReportSchema },
          multipart: {
            files: {
              file: {
                description: 'The xlsx spreadsheet, one question a row (`…/import-template`).',
                required: true,
              },
            },
          },
        },
        preHandler: signedIn,
      },
      async (request) =>
        imports.importSheet(actorOf(request), request.params, () =>
          readQuestionMultipart(request, ['file'], maxBytes),
        ),
    );

    r.get(
      `${ITEMS}/:questionId`,
      {
        schema: { tags, params: questionParams, response: { 200: questionSchema } },
        preHandler: signedIn,
      },
      async (request) => {
        const { questionId, ...phase } = request.params;
        return questions.getQuestion(actorOf(request), phase, questionId);
      },
    );

    r.patch(
      `${ITEMS}/:questionId`,
      {
        schema: {
          errors: ['PHASE_CLOSED'],
          tags,
          description:
            'Changes the fields sent; the result must still fit its type. Refused once a ' +
            'student has met the question (TEST_HAS_ATTEMPTS).',
          params: questionParams,
          body: questionPatchSchema,
          response: { 200: questionSchema },
        },
        preHandler: signedIn,
      },
      async (request) => {
        const { questionId, ...phase } = request.params;
        return questions.updateQuestion(actorOf(request), phase, questionId, request.body);
      },
    );

    r.delete(
      `${ITEMS}/:questionId`,
      {
        schema: {
          errors: ['PHASE_CLOSED'],
          tags,
          description: 'Deletes one question; QUESTION_IN_TEST when a test drew it.',
          params: questionParams,
          response: { 204: z.null() },
        },
        preHandler: signedIn,
      },
      async (request, reply) => {
        const { questionId, ...phase } = request.params;
        await questions.deleteQuestion(actorOf(request), phase, questionId);
        return reply.status(204).send(null);
      },
    );

    for (const method of ['post', 'delete'] as const) {
      r[method](
        `${ITEMS}/:questionId/teachers`,
        {
          schema: {
            tags,
            description:
              method === 'post'
                ? 'Sets `mediatorTeacher` when not empty and appends each of `gradingTeachers` ' +
                  '(active teachers; the mediator stays when empty).'
                : 'Removes the named mediator (sent with an empty grading list) or the named ' +
                  'reviewers (sent with an empty mediator).',
            params: questionParams,
            body: questionTeachersSchema,
            response: { 200: questionSchema },
          },
          preHandler: signedIn,
        },
        async (request) => {
          const { questionId, ...phase } = request.params;
          const change = method === 'post' ? teachers.addTeachers : teachers.removeTeachers;
          return change(actorOf(request), phase, questionId, request.body);
        },
      );
    }
  };
