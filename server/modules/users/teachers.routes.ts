import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  countSchema,
  peopleListSchema,
  stateFailuresSchema,
  TEACHERS_DOWNLOAD_NAME,
  teachersCountQuerySchema,
  teachersQuerySchema,
  teachersStateBodySchema,
  XLSX_CONTENT_TYPE,
} from '../../../shared/schemas/people.js';
import { actorOf, guard } from '../../lib/auth-guard.js';
import { listDoc } from '../../lib/openapi/index.js';
import { idParams } from '../../lib/route-params.js';
import { type OriginOf, xlsxSchema } from './people.http.js';
import type { PeopleService } from './people.service.js';
import { teachersResource } from './teachers.repo.js';

const teachersList = listDoc({ resources: [{ resource: teachersResource }] });

const tags = ['user-mgmt'];
// Teachers list teachers too (pickers); the policy keeps state changes and deletion to admins.
const staff = guard({ roles: ['teacher', 'admin'] });

/** GET/POST/DELETE under /teachers (issue 3). */
export const teachersRoutes =
  (people: PeopleService, originOf: OriginOf): FastifyPluginAsync =>
  async (app) => {
    const r = app.withTypeProvider<ZodTypeProvider>();

    r.get(
      '/teachers',
      {
        schema: {
          tags,
          summary: 'List teachers',
          querystring: teachersQuerySchema,
          list: teachersList,
          response: { 200: peopleListSchema },
        },
        preHandler: staff,
      },
      async (request) => people.listTeachers(actorOf(request), request.query),
    );

    r.get(
      '/teachers/count',
      {
        schema: {
          tags,
          summary: 'Count teachers',
          querystring: teachersCountQuerySchema,
          list: teachersList,
          response: { 200: countSchema },
        },
        preHandler: staff,
      },
      async (request) => people.countTeachers(actorOf(request), request.query),
    );

    r.get(
      '/teachers/downloads',
      {
        schema: {
          tags,
          summary: 'The teachers the filter matches, as an xlsx spreadsheet',
          querystring: teachersQuerySchema,
          list: teachersList,
          response: { 200: xlsxSchema },
        },
        preHandler: staff,
      },
      async (request, reply) => {
        const file = await people.downloadTeachers(actorOf(request), request.query);
        return reply
          .header('content-type', XLSX_CONTENT_TYPE)
          .header('content-disposition', `attachment; filename="${TEACHERS_DOWNLOAD_NAME}"`)
          .header('cache-control', 'no-store')
          .send(file);
      },
    );

    r.post(
      '/teachers/state',
      {
        schema: { tags, body: teachersStateBodySchema, response: { 200: stateFailuresSchema } },
        preHandler: staff,
      },
      async (request) =>
        people.changeStates(actorOf(request), 'teacher', request.body.teachers, originOf(request)),
    );

    r.delete(
      '/teachers/:id',
      {
        schema: {
          errors: ['USER_HAS_RESULTS'],
          tags,
          description:
            'Refused with USER_HAS_RESULTS while the teacher has roles or students, or marks not ' +
            'given or mediations waiting (details: reason open_marking_work, openMarks, ' +
            'pendingMediations); once deleted, they are out of every question pool.',
          params: idParams,
          response: { 204: z.null() },
        },
        preHandler: staff,
      },
      async (request, reply) => {
        await people.removePerson(actorOf(request), 'teacher', request.params.id);
        return reply.status(204).send(null);
      },
    );
  };
