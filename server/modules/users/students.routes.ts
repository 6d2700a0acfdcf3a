import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  countSchema,
  peopleListSchema,
  STUDENTS_DOWNLOAD_NAME,
  stateFailuresSchema,
  studentsCountQuerySchema,
  studentsQuerySchema,
  studentsStateBodySchema,
  XLSX_CONTENT_TYPE,
} from '../../../shared/schemas/people.js';
import { actorOf, guard } from '../../lib/auth-guard.js';
import { listDoc } from '../../lib/openapi/index.js';
import { idParams } from '../../lib/route-params.js';
import { type OriginOf, xlsxSchema } from './people.http.js';
import type { PeopleService } from './people.service.js';
import { studentsResource } from './students.repo.js';

const studentsList = listDoc({
  resources: [{ resource: studentsResource }],
  extraKeys: {
    include:
      '`"studentEditions"` (or a list of it, or `{"relation": "studentEditions"}`): each ' +
      "student's enrolments",
  },
});

const tags = ['user-mgmt'];
const staff = guard({ roles: ['teacher', 'admin'] });

/** GET/POST/DELETE under /students (issue 3): lists, count, bulk state, delete, download. */
export const studentsRoutes =
  (people: PeopleService, originOf: OriginOf): FastifyPluginAsync =>
  async (app) => {
    const r = app.withTypeProvider<ZodTypeProvider>();

    r.get(
      '/students',
      {
        schema: {
          tags,
          summary: 'List students',
          description:
            'Teachers see their own students and those of the competitions they organise; ' +
            'admins everyone. `examAdmin`: only the students of that competition.',
          querystring: studentsQuerySchema,
          list: studentsList,
          response: { 200: peopleListSchema },
        },
        preHandler: staff,
      },
      async (request) => people.listStudents(actorOf(request), request.query),
    );

    r.get(
      '/students/count',
      {
        schema: {
          tags,
          summary: 'Count students',
          querystring: studentsCountQuerySchema,
          list: studentsList,
          response: { 200: countSchema },
        },
        preHandler: staff,
      },
      async (request) => people.countStudents(actorOf(request), request.query),
    );

    r.get(
      '/students/downloads',
      {
        schema: {
          tags,
          summary: 'The students the filter matches, as an xlsx spreadsheet',
          querystring: studentsQuerySchema,
          list: studentsList,
          response: { 200: xlsxSchema },
        },
        preHandler: staff,
      },
      async (request, reply) => {
        const file = await people.downloadStudents(actorOf(request), request.query);
        return reply
          .header('content-type', XLSX_CONTENT_TYPE)
          .header('content-disposition', `attachment; filename="${STUDENTS_DOWNLOAD_NAME}"`)
          .header('cache-control', 'no-store')
          .send(file);
      },
    );

    r.post(
      '/students/state',
      {
        schema: { tags, body: studentsStateBodySchema, response: { 200: stateFailuresSchema } },
        preHandler: staff,
      },
      async (request) =>
        people.changeStates(actorOf(request), 'student', request.body.students, originOf(request)),
    );

    r.delete(
      '/students/:id',
      {
        schema: {
          errors: ['USER_HAS_RESULTS'],
          tags,
          params: idParams,
          response: { 204: z.null() },
        },
        preHandler: staff,
      },
      async (request, reply) => {
        await people.removePerson(actorOf(request), 'student', request.params.id);
        return reply.status(204).send(null);
      },
    );
  };
