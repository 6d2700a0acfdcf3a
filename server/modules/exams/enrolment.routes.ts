import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  addStudentsResultSchema,
  bulkEnrolResultSchema,
  countSchema,
  editionStudentChangesSchema,
  editionStudentListItemSchema,
  editionStudentsSchema,
  failedStudentsSchema,
  filterQuerySchema,
  whereQuerySchema,
} from '../../../shared/schemas/exams.js';
import { actorOf } from '../../lib/auth-guard.js';
import { listDoc } from '../../lib/openapi/index.js';
import { editionStudentsResource } from './enrolment.repo.js';
import type { ExamMgmt } from './exam-mgmt.js';
import { editionParams, staffGuard, TAGS } from './route-helpers.js';

const WHO =
  "Admins and exam admins for any student; staff and the edition's coordinators for their " +
  'own students (others come back in `failedStudents`).';

const enrolledList = listDoc({ resources: [{ resource: editionStudentsResource }] });

/** `…/editions/{editionId}/students`: enrolment, the edition student list, CMS credentials. */
export function enrolmentRoutes(app: FastifyInstance, { enrolment }: ExamMgmt) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const base = '/exams/:examId/editions/:editionId/students';

  r.get(
    base,
    {
      schema: {
        tags: TAGS,
        summary: "An edition's students",
        description:
          'LoopBack `filter`: where on familyName, givenName, *Normalized, email, ' +
          'studentCounty, studentSector (Bucharest, 1–6 or null), city, school,  studentGrade, studentCentre, teacherRef, cmsUsername, ' +
          'createdAt; order default `familyName ASC`. Coordinators see their own students.',
        params: editionParams,
        querystring: filterQuerySchema,
        list: enrolledList,
        response: { 200: z.array(editionStudentListItemSchema) },
      },
      preHandler: staffGuard(),
    },
    async (request) =>
      enrolment.listStudents(actorOf(request), request.params, request.query.filter),
  );

  r.get(
    `${base}/count`,
    {
      schema: {
        tags: TAGS,
        summary: "Count an edition's students",
        params: editionParams,
        querystring: whereQuerySchema,
        list: enrolledList,
        response: { 200: countSchema },
      },
      preHandler: staffGuard(),
    },
    async (request) =>
      enrolment.countStudents(actorOf(request), request.params, request.query.where),
  );

  r.post(
    base,
    {
      schema: {
        tags: TAGS,
        summary: 'Enrol students',
        description:
          'Each gets CMS credentials and joins the first phase if it is open. Unknown, ' +
          `inactive or unregistered students and grades the exam lacks fail; \`failures\` ` +
          `says why for each. ${WHO}`,
        params: editionParams,
        body: editionStudentsSchema,
        response: { 200: addStudentsResultSchema },
      },
      preHandler: staffGuard(),
    },
    async (request) =>
      enrolment.addStudents(actorOf(request), request.params, request.body.students),
  );

  r.delete(
    base,
    {
      schema: {
        tags: TAGS,
        summary: 'Remove students from the edition',
        description: `Also from its phases. Students with a result in a phase, a test attempt or an uploaded answer fail; one who starts a test while being removed makes the whole removal 409 STUDENT_HAS_RESULTS, with nothing changed. ${WHO}`,
        params: editionParams,
        body: editionStudentsSchema,
        response: { 200: failedStudentsSchema },
      },
      preHandler: staffGuard(),
    },
    async (request) =>
      enrolment.removeStudents(actorOf(request), request.params, request.body.students),
  );

  r.put(
    base,
    {
      schema: {
        tags: TAGS,
        summary: "Change enrolled students' grade or exam location",
        description: `\`grade\` must be one of the exam's; \`studentCentre\` null clears it. ${WHO}`,
        params: editionParams,
        body: editionStudentChangesSchema,
        response: { 200: failedStudentsSchema },
      },
      preHandler: staffGuard(),
    },
    async (request) => enrolment.changeStudents(actorOf(request), request.params, request.body),
  );

  r.post(
    `${base}/all-mine`,
    {
      schema: {
        tags: TAGS,
        summary: "Enrol all the caller's own students",
        description:
          'Every active, registered student of the calling teacher whose grade is one of the ' +
          "exam's. Staff, coordinators of the edition, exam admins and admins.",
        params: editionParams,
        response: { 200: bulkEnrolResultSchema },
      },
      preHandler: staffGuard(),
    },
    async (request) => enrolment.enrolAllMine(actorOf(request), request.params),
  );

  r.post(
    `${base}/for-coordinators`,
    {
      schema: {
        tags: TAGS,
        summary: "Enrol the students of all the edition's coordinators",
        description: 'Same eligibility as all-mine. Admins and the exam admins.',
        params: editionParams,
        response: { 200: bulkEnrolResultSchema },
      },
      preHandler: staffGuard(),
    },
    async (request) => enrolment.enrolForCoordinators(actorOf(request), request.params),
  );

  r.get(
    `${base}/credentials`,
    {
      schema: {
        tags: TAGS,
        summary: 'CMS credentials spreadsheet',
        description:
          'xlsx (`download-cms-DD-MM-YYYY.xlsx`, Romanian date) of the students the caller ' +
          'sees: name, e-mail, county, school, grade, exam location, user name, password.',
        params: editionParams,
        response: {
          200: z
            .unknown()
            .describe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'),
        },
      },
      preHandler: staffGuard(),
    },
    async (request, reply) => {
      const file = await enrolment.credentialsFile(actorOf(request), request.params);
      return reply
        .header('content-type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
        .header('content-disposition', `attachment; filename="${file.filename}"`)
        .header('cache-control', 'no-store')
        .send(file.content);
    },
  );
}
