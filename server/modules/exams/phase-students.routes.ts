import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  admitResultSchema,
  admitThresholdSchema,
  admitTopSchema,
  countSchema,
  failedStudentsSchema,
  filterQuerySchema,
  phaseResultsSchema,
  phaseStudentListItemSchema,
  whereQuerySchema,
} from '../../../shared/schemas/exams.js';
import { actorOf } from '../../lib/auth-guard.js';
import { listDoc } from '../../lib/openapi/index.js';
import type { ExamMgmt } from './exam-mgmt.js';
import { phaseStudentsResource } from './phase-students.repo.js';
import { phaseParams, staffGuard, TAGS, withSlashTwin } from './route-helpers.js';

const SCORE_NOTE =
  'Ranks by the phase total the results module keeps (the sum of the items’ points over the ' +
  'phase’s tests); students without a result are never admitted by a rule. Refused with 409 ' +
  'RESULTS_INCOMPLETE (details: awaitingItems, studentsAwaiting, runningAttempts) while an ' +
  'item of the grade’s tests awaits marking or an attempt still runs. Admins, exam admins ' +
  'and staff; 409 PHASE_CLOSED on a closed phase.';

const phaseStudentsList = listDoc({ resources: [{ resource: phaseStudentsResource }] });

/** `…/phases/{phaseId}/students`: who takes part and the admitted/rejected decisions. */
export function phaseStudentsRoutes(app: FastifyInstance, { phaseStudents }: ExamMgmt) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const base = '/exams/:examId/editions/:editionId/phases/:phaseId/students';

  r.get(
    base,
    {
      schema: {
        tags: TAGS,
        summary: "A phase's students with their results",
        description:
          'LoopBack `filter`: where on familyName, givenName (like/ilike/regexp), ' +
          'familyNameNormalized, givenNameNormalized, studentCounty, studentSector (Bucharest, 1–6 or ' +
          'null), studentGrade, ' +
          "studentCentre, school, status ('admitted', 'rejected' or null); order default " +
          "`givenName ASC`. Without a `studentGrade` condition the exam's first grade applies; " +
          '`studentGrade: ""` means every grade. Coordinators see only their own students.',
        params: phaseParams,
        querystring: filterQuerySchema,
        list: phaseStudentsList,
        response: { 200: z.array(phaseStudentListItemSchema) },
      },
      preHandler: staffGuard(),
    },
    async (request) => {
      const { examId, editionId, phaseId } = request.params;
      return phaseStudents.listStudents(
        actorOf(request),
        { examId, editionId, phaseId },
        request.query.filter,
      );
    },
  );

  r.get(
    `${base}/count`,
    {
      schema: {
        tags: TAGS,
        summary: "Count a phase's students",
        description: 'LoopBack `where`, with the same grade default as the list.',
        params: phaseParams,
        querystring: whereQuerySchema,
        list: phaseStudentsList,
        response: { 200: countSchema },
      },
      preHandler: staffGuard(),
    },
    async (request) => {
      const { examId, editionId, phaseId } = request.params;
      return phaseStudents.countStudents(
        actorOf(request),
        { examId, editionId, phaseId },
        request.query.where,
      );
    },
  );

  withSlashTwin(`${base}/`, (url, hide) =>
    r.put(
      url,
      {
        schema: {
          hide,
          tags: TAGS,
          summary: 'Admit or reject students',
          description:
            'Ids not taking part in the phase come back in `failedStudents`; success is an ' +
            'empty list. Admins, exam admins and staff; 409 PHASE_CLOSED on a closed phase.',
          params: phaseParams,
          body: phaseResultsSchema,
          response: { 200: failedStudentsSchema },
        },
        preHandler: staffGuard(),
      },
      async (request) => {
        const { examId, editionId, phaseId } = request.params;
        return phaseStudents.setResults(
          actorOf(request),
          { examId, editionId, phaseId },
          request.body,
        );
      },
    ),
  );

  r.post(
    `${base}/admit-top`,
    {
      schema: {
        tags: TAGS,
        summary: 'Admit the best N of each grade',
        description: `Ties at the cut are all admitted; \`grade\` limits it to one grade. ${SCORE_NOTE}`,
        params: phaseParams,
        body: admitTopSchema,
        response: { 200: admitResultSchema },
      },
      preHandler: staffGuard(),
    },
    async (request) => {
      const { examId, editionId, phaseId } = request.params;
      return phaseStudents.admitTop(actorOf(request), { examId, editionId, phaseId }, request.body);
    },
  );

  r.post(
    `${base}/admit-threshold`,
    {
      schema: {
        tags: TAGS,
        summary: 'Admit everyone with a phase total of at least minScore',
        description: SCORE_NOTE,
        params: phaseParams,
        body: admitThresholdSchema,
        response: { 200: admitResultSchema },
      },
      preHandler: staffGuard(),
    },
    async (request) => {
      const { examId, editionId, phaseId } = request.params;
      return phaseStudents.admitThreshold(
        actorOf(request),
        { examId, editionId, phaseId },
        request.body,
      );
    },
  );
}
