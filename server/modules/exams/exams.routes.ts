import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { PAGE_SIZE_EXAMS } from '../../../shared/constants.js';
import {
  countSchema,
  examCreateSchema,
  examListItemSchema,
  examPatchSchema,
  examSchema,
  filterQuerySchema,
  whereQuerySchema,
} from '../../../shared/schemas/exams.js';
import { actorOf, guard } from '../../lib/auth-guard.js';
import { listDoc } from '../../lib/openapi/index.js';
import { editionsRoutes } from './editions.routes.js';
import { enrolmentRoutes } from './enrolment.routes.js';
import type { ExamMgmt } from './exam-mgmt.js';
import { examsResource } from './exams.repo.js';
import { openExamsRoutes } from './open-exams.routes.js';
import { phaseStudentsRoutes } from './phase-students.routes.js';
import { phasesRoutes } from './phases.routes.js';
import { examParams, staffGuard, TAGS, withSlashTwin } from './route-helpers.js';

/** exam-mgmt (SPEC.md §7): competitions, editions, phases, enrolment and sign-up. */
export const examMgmtRoutes =
  (services: ExamMgmt): FastifyPluginAsync =>
  async (app) => {
    examRoutes(app, services);
    editionsRoutes(app, services);
    phasesRoutes(app, services);
    phaseStudentsRoutes(app, services);
    enrolmentRoutes(app, services);
    openExamsRoutes(app, services);
  };

const examsList = listDoc({
  resources: [{ resource: examsResource }],
  defaultLimit: PAGE_SIZE_EXAMS,
});

function examRoutes(app: FastifyInstance, { exams }: ExamMgmt) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/exams',
    {
      schema: {
        tags: TAGS,
        summary: 'List competitions',
        description:
          'LoopBack `filter` JSON: limit (default 25), skip, order (default `name ASC`), ' +
          'where (`name` with regexp/like/ilike, `nameNormalized`, `subject`, `createdAt`, ' +
          '`_id`; and/or), fields. Admins see all; teachers the competitions where they are ' +
          'admin, staff or coordinator; students those open for sign-up for their grade.',
        querystring: filterQuerySchema,
        list: examsList,
        response: { 200: z.array(examListItemSchema) },
      },
      preHandler: guard(),
    },
    async (request) => exams.listExams(actorOf(request), request.query.filter),
  );

  r.get(
    '/exams/count',
    {
      schema: {
        tags: TAGS,
        summary: 'Count competitions',
        description: 'LoopBack `where` JSON, same fields and scope as the list.',
        querystring: whereQuerySchema,
        list: examsList,
        response: { 200: countSchema },
      },
      preHandler: guard(),
    },
    async (request) => exams.countExams(actorOf(request), request.query.where),
  );

  withSlashTwin('/exams/', (url, hide) =>
    r.post(
      url,
      {
        schema: {
          hide,
          tags: TAGS,
          summary: 'Create a competition (admins)',
          description:
            'Grades are stored ascending; `adminTeacherIds`/`staffTeacherIds` must be ' +
            'active teachers (else CLIENT_ERROR `teacher_not_found` on the field).',
          body: examCreateSchema,
          response: { 201: examSchema },
        },
        preHandler: guard({ roles: ['admin'] }),
      },
      async (request, reply) => {
        reply.status(201);
        return exams.createExam(actorOf(request), request.body);
      },
    ),
  );

  r.get(
    '/exams/:examId',
    {
      schema: {
        tags: TAGS,
        summary: 'One competition',
        description: '404 when the caller has no role on it.',
        params: examParams,
        response: { 200: examSchema },
      },
      preHandler: guard(),
    },
    async (request) => exams.getExam(actorOf(request), request.params.examId),
  );

  r.patch(
    '/exams/:examId',
    {
      schema: {
        tags: TAGS,
        summary: 'Change a competition, its admin teachers or staff',
        description:
          'Admins and the exam admins; staff and coordinators get 403 OPERATION_NOT_PERMITTED. ' +
          '`adminTeacherIds` / `staffTeacherIds` replace the whole list; newly added teachers ' +
          'must be active (else CLIENT_ERROR `teacher_not_found`).',
        params: examParams,
        body: examPatchSchema,
        response: { 200: examSchema },
      },
      preHandler: staffGuard(),
    },
    async (request) => exams.patchExam(actorOf(request), request.params.examId, request.body),
  );

  r.delete(
    '/exams/:examId',
    {
      schema: {
        tags: TAGS,
        summary: 'Delete a competition (admins)',
        description: 'Refused with 409 EXAM_HAS_EDITIONS while it has editions. Audited.',
        params: examParams,
        response: { 204: z.null().describe('Deleted') },
      },
      preHandler: staffGuard(),
    },
    async (request, reply) => {
      await exams.deleteExam(actorOf(request), request.params.examId);
      return reply.status(204).send(null);
    },
  );
}
