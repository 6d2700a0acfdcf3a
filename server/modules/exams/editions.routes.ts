import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { EDITION_LIST_LIMIT } from '../../../shared/constants.js';
import {
  countSchema,
  editionCreateSchema,
  editionListItemSchema,
  editionPatchSchema,
  editionSchema,
  filterQuerySchema,
  whereQuerySchema,
} from '../../../shared/schemas/exams.js';
import { actorOf } from '../../lib/auth-guard.js';
import { listDoc } from '../../lib/openapi/index.js';
import { editionsResource } from './editions.repo.js';
import type { ExamMgmt } from './exam-mgmt.js';
import { editionParams, examParams, staffGuard, TAGS } from './route-helpers.js';

const editionsList = listDoc({
  resources: [{ resource: editionsResource }],
  defaultLimit: EDITION_LIST_LIMIT,
});

/** `…/exams/{examId}/editions`. */
export function editionsRoutes(app: FastifyInstance, { editions }: ExamMgmt) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/exams/:examId/editions',
    {
      schema: {
        tags: TAGS,
        summary: "A competition's editions",
        description:
          'LoopBack `filter` (limit default 100, order default `name ASC`; where on name, ' +
          'year, state, createdAt, _id). A coordinator sees only the editions they coordinate.',
        params: examParams,
        querystring: filterQuerySchema,
        list: editionsList,
        response: { 200: z.array(editionListItemSchema) },
      },
      preHandler: staffGuard(),
    },
    async (request) =>
      editions.listEditions(actorOf(request), request.params.examId, request.query.filter),
  );

  r.get(
    '/exams/:examId/editions/count',
    {
      schema: {
        tags: TAGS,
        summary: 'Count editions',
        params: examParams,
        querystring: whereQuerySchema,
        list: editionsList,
        response: { 200: countSchema },
      },
      preHandler: staffGuard(),
    },
    async (request) =>
      editions.countEditions(actorOf(request), request.params.examId, request.query.where),
  );

  r.post(
    '/exams/:examId/editions',
    {
      schema: {
        tags: TAGS,
        summary: 'Create an edition',
        description:
          'Admins and the exam admins. `teacherIds` (coordinators) must be active teachers.',
        params: examParams,
        body: editionCreateSchema,
        response: { 201: editionSchema },
      },
      preHandler: staffGuard(),
    },
    async (request, reply) => {
      reply.status(201);
      return editions.createEdition(actorOf(request), request.params.examId, request.body);
    },
  );

  r.get(
    '/exams/:examId/editions/:editionId',
    {
      schema: {
        tags: TAGS,
        summary: 'One edition',
        params: editionParams,
        response: { 200: editionSchema },
      },
      preHandler: staffGuard(),
    },
    async (request) =>
      editions.getEdition(actorOf(request), request.params.examId, request.params.editionId),
  );

  r.patch(
    '/exams/:examId/editions/:editionId',
    {
      schema: {
        tags: TAGS,
        summary: 'Change an edition or its coordinators',
        description:
          '`teacherIds` replaces the coordinators (newly added ones must be active teachers, ' +
          'else CLIENT_ERROR `teacher_not_found`). Admins and the exam admins.',
        params: editionParams,
        body: editionPatchSchema,
        response: { 200: editionSchema },
      },
      preHandler: staffGuard(),
    },
    async (request) =>
      editions.patchEdition(
        actorOf(request),
        request.params.examId,
        request.params.editionId,
        request.body,
      ),
  );
}
