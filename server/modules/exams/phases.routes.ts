import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  filterQuerySchema,
  phaseCreateSchema,
  phaseFinishSchema,
  phaseListItemSchema,
  phasePatchSchema,
  phaseSchema,
} from '../../../shared/schemas/exams.js';
import {
  phaseClosedSchema,
  phaseReopenResultSchema,
  phaseReopenSchema,
} from '../../../shared/schemas/phase-reopen.js';
import { actorOf } from '../../lib/auth-guard.js';
import { listDoc } from '../../lib/openapi/index.js';
import type { ExamMgmt } from './exam-mgmt.js';
import { phasesResource } from './phases.repo.js';
import { editionParams, examParams, phaseParams, staffGuard, TAGS } from './route-helpers.js';

const DATES_NOTE =
  'Start must be before end (400 INVALID_PHASE_DATES) and the phase may not overlap another ' +
  'of the edition (400 OVERLAPPING_PHASE_DATES) nor start before a closed one; both errors ' +
  "carry details `{startDate:['invalid_date'], endDate:['invalid_date']}`.";

const phasesList = listDoc({ resources: [{ resource: phasesResource }] });

/** `…/editions/{editionId}/phases`. */
export function phasesRoutes(app: FastifyInstance, { phases, phaseReopen }: ExamMgmt) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const base = '/exams/:examId/editions/:editionId/phases';

  r.get(
    base,
    {
      schema: {
        tags: TAGS,
        summary: "An edition's phases",
        description: "LoopBack `filter`; order default `startDate ASC` (the phases' order).",
        params: editionParams,
        querystring: filterQuerySchema,
        list: phasesList,
        response: { 200: z.array(phaseListItemSchema) },
      },
      preHandler: staffGuard(),
    },
    async (request) => {
      const { examId, editionId } = request.params;
      return phases.listPhases(actorOf(request), examId, editionId, request.query.filter);
    },
  );

  r.post(
    base,
    {
      schema: {
        tags: TAGS,
        summary: 'Create a phase',
        description: `Admins and the exam admins. ${DATES_NOTE} The edition's first phase takes every student enrolled in the edition.`,
        params: editionParams,
        body: phaseCreateSchema,
        response: { 201: phaseSchema },
      },
      preHandler: staffGuard(),
    },
    async (request, reply) => {
      const { examId, editionId } = request.params;
      reply.status(201);
      return phases.createPhase(actorOf(request), examId, editionId, request.body);
    },
  );

  r.get(
    `${base}/:phaseId`,
    {
      schema: {
        tags: TAGS,
        summary: 'One phase',
        params: phaseParams,
        response: { 200: phaseSchema },
      },
      preHandler: staffGuard(),
    },
    async (request) => {
      const { examId, editionId, phaseId } = request.params;
      return phases.getPhase(actorOf(request), examId, editionId, phaseId);
    },
  );

  r.get(
    '/exams/:examId/phases/:phaseId',
    {
      schema: {
        tags: TAGS,
        summary: 'One phase, found by competition and phase',
        description:
          "For the phase page, whose route (SPEC.md §2) carries the exam's id where the " +
          "edition's would be: the answer's `editionId` gives the edition.",
        params: examParams.extend({ phaseId: z.uuid() }),
        response: { 200: phaseSchema },
      },
      preHandler: staffGuard(),
    },
    async (request) =>
      phases.getPhaseOfExam(actorOf(request), request.params.examId, request.params.phaseId),
  );

  for (const method of ['patch', 'post'] as const) {
    r[method](
      `${base}/:phaseId`,
      {
        schema: {
          tags: TAGS,
          summary: method === 'patch' ? 'Change a phase' : 'Change a phase (POST form)',
          description:
            `SPEC.md §7 lists both PATCH and POST on a phase; both change what is sent. ${DATES_NOTE} ` +
            'A closed phase only changes its name (else 409 PHASE_CLOSED). Admins and the exam admins.',
          params: phaseParams,
          body: phasePatchSchema,
          response: { 200: phaseSchema },
        },
        preHandler: staffGuard(),
      },
      async (request) => {
        const { examId, editionId, phaseId } = request.params;
        return phases.updatePhase(actorOf(request), examId, editionId, phaseId, request.body);
      },
    );
  }

  r.put(
    `${base}/:phaseId/finish`,
    {
      schema: {
        tags: TAGS,
        summary: 'Close a phase',
        description:
          'Sets it closed and registers every admitted student in the next phase (by start ' +
          'date). With no next phase: 409 EDITION_PHASE_NOT_CREATED and nothing changes, ' +
          'unless the body says `{"lastPhase": true}` and nobody of the phase is admitted: ' +
          'the last phase of the edition then closes, which makes its results and prizes ' +
          'final (diplomas can be printed). Closing again returns the same answer. ' +
          '`advancedCount` = admitted students. A closed phase is final, so it closes only once ' +
          'every score is: otherwise 409 RESULTS_INCOMPLETE and nothing changes, with details ' +
          '`{reviews, mediations, appeals, appealMediations, unmarkedAnswers, reviewIds, ' +
          'appealIds}`. `acceptOpen: {reviewIds, appealIds}` naming exactly the open ones closes ' +
          'anyway (audited): an open entry ends final at 0, an open appeal ends kept. Answers ' +
          'with no entry yet (review not started) cannot be accepted. Closing again after a ' +
          'reopening applies the stored rules again (audited) and answers `changes`: the ' +
          'students whose total, place, decision or prize differ from the previous close (each ' +
          'is mailed), and `diplomas`: those of them already printed, kept as printed. Both ' +
          'are empty on a first close.',
        params: phaseParams,
        errors: ['EDITION_PHASE_NOT_CREATED', 'RESULTS_INCOMPLETE'],
        body: phaseFinishSchema.nullish(),
        response: { 200: phaseClosedSchema },
      },
      preHandler: staffGuard(),
    },
    async (request) => {
      const { examId, editionId, phaseId } = request.params;
      return phases.finishPhase(actorOf(request), examId, editionId, phaseId, request.body ?? {});
    },
  );

  r.put(
    `${base}/:phaseId/reopen`,
    {
      schema: {
        tags: TAGS,
        summary: 'Reopen a closed phase for a correction',
        description:
          'Admins and the exam admins (as for closing). `reason` is required (400 ' +
          'VALIDATION_FAILED on `reason` otherwise) and audited with who and when. The phase ' +
          'is open again: marks, mediations, appeals, key fixes, point edits, rules and ' +
          'decisions are accepted until it is closed again through `…/finish`, which applies ' +
          'the rules again and says who changes. 409 PHASE_NOT_CLOSED when it is open; 409 ' +
          'NEXT_PHASE_STARTED once a later phase of the edition started (its start date ' +
          'passed, its review started or it closed); 409 STUDENTS_ADVANCED when students it ' +
          'admitted are already in the next phase.',
        params: phaseParams,
        errors: ['PHASE_NOT_CLOSED', 'NEXT_PHASE_STARTED', 'STUDENTS_ADVANCED'],
        body: phaseReopenSchema,
        response: { 200: phaseReopenResultSchema },
      },
      preHandler: staffGuard(),
    },
    async (request) => {
      const { examId, editionId, phaseId } = request.params;
      return phaseReopen.reopenPhase(actorOf(request), examId, editionId, phaseId, request.body);
    },
  );

  r.put(
    `${base}/:phaseId/review`,
    {
      schema: {
        errors: [
          'TESTS_STILL_RUNNING',
          'INSUFFICIENT_TEACHERS_FOR_TEST_ITEMS',
          'SCAN_PAGES_WAITING',
        ],
        tags: TAGS,
        // Its path reads like test-review's `PUT …/reviews/{reviewId}` (a mark).
        operationId: 'startPhaseReview',
        summary: 'Start the review of a hybrid phase',
        description:
          'Sets `reviewStarted` (answer uploads stop). Hybrid phases only (CLIENT_ERROR on ' +
          '`type` otherwise); 409 PHASE_CLOSED when closed; repeating it changes nothing.',
        params: phaseParams,
        response: { 200: phaseSchema },
      },
      preHandler: staffGuard(),
    },
    async (request) => {
      const { examId, editionId, phaseId } = request.params;
      return phases.startReview(actorOf(request), examId, editionId, phaseId);
    },
  );
}
