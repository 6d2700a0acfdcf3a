import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  cmsCredentialSchema,
  externalRegistrationSchema,
  openExamSchema,
} from '../../../shared/schemas/exams.js';
import { actorOf, guard } from '../../lib/auth-guard.js';
import { idParams as editionIdParams } from '../../lib/route-params.js';
import type { ExamMgmt } from './exam-mgmt.js';
import { TAGS } from './route-helpers.js';

const studentGuard = () => guard({ roles: ['student'] });

/** The student's side: sign-up, enrolments and judge credentials. */
export function openExamsRoutes(app: FastifyInstance, { openExams }: ExamMgmt) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/open-exams',
    {
      schema: {
        tags: TAGS,
        summary: 'Editions open for sign-up (students)',
        description:
          "Active editions of competitions that include the student's grade and have an open " +
          'phase with registration open; `_id` is the edition id.',
        response: { 200: z.array(openExamSchema) },
      },
      preHandler: studentGuard(),
    },
    async (request) => openExams.listOpenExams(actorOf(request)),
  );

  for (const action of ['register', 'unregister'] as const) {
    r.put(
      `/open-exams/:id/${action}`,
      {
        schema: {
          tags: TAGS,
          summary: action === 'register' ? 'Sign up for an edition' : 'Withdraw from an edition',
          description:
            '`id` is the edition id. Only while one of its phases takes sign-ups (else 409 ' +
            'REGISTRATION_CLOSED); repeating it changes nothing.' +
            (action === 'unregister'
              ? ' Refused with 409 STUDENT_HAS_RESULTS once the student has a result.'
              : " 404 when the edition is not for the student's grade."),
          params: editionIdParams,
          response: { 200: openExamSchema },
        },
        preHandler: studentGuard(),
      },
      async (request) =>
        action === 'register'
          ? openExams.register(actorOf(request), request.params.id)
          : openExams.unregister(actorOf(request), request.params.id),
    );
  }

  r.get(
    '/external-registrations',
    {
      schema: {
        tags: TAGS,
        summary: "The student's enrolments",
        response: { 200: z.array(externalRegistrationSchema) },
      },
      preHandler: studentGuard(),
    },
    async (request) => openExams.myRegistrations(actorOf(request)),
  );

  r.get(
    '/cms-credentials',
    {
      schema: {
        tags: TAGS,
        summary: "The student's own credentials for the external judge",
        response: { 200: z.array(cmsCredentialSchema) },
      },
      preHandler: studentGuard(),
    },
    async (request) => openExams.myCmsCredentials(actorOf(request)),
  );
}
