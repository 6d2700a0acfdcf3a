import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  APPEAL_LIST_TYPES,
  APPEAL_STATUSES,
  adminDecisionPhaseSchema,
  appealDecisionInputSchema,
  appealDetailSchema,
  appealInputSchema,
  contestationEntrySchema,
  countQuerySchema,
  historyEventSchema,
  keyFixInputSchema,
  keyFixPreviewSchema,
  keyFixResultSchema,
  listQuerySchema,
  markerPhaseSchema,
  markInputSchema,
  markingScopeSchema,
  REMINDER_INTERVAL_HOURS,
  REVIEW_LIST_TYPES,
  REVIEW_STATUSES,
  reassignInputSchema,
  reassignResultSchema,
  reminderInputSchema,
  reminderResultSchema,
  reviewCountSchema,
  reviewDetailSchema,
  reviewEntrySchema,
  reviewProgressSchema,
  reviewScopeSchema,
  rubricInputSchema,
  rubricSchema,
  studentResultSchema,
  studentReviewItemSchema,
} from '../../../shared/schemas/reviews.js';
import { actorOf, guard } from '../../lib/auth-guard.js';
import { phaseParams } from '../../lib/route-params.js';
import { bytesSchema, contentDisposition } from '../uploads/index.js';
import type { ReviewsService } from './reviews.service.js';

const TAGS = ['test-review'];
const BASE = '/exams/:examId/editions/:editionId/phases/:phaseId';

const reviewParams = phaseParams.extend({ reviewId: z.uuid() });
const fileParams = reviewParams.extend({ fileId: z.uuid() });
const itemParams = phaseParams.extend({ itemId: z.uuid() });
const studentTestParams = z.object({ testId: z.uuid() });
const studentItemParams = studentTestParams.extend({ itemId: z.uuid() });

const ids = (p: z.infer<typeof phaseParams>) => ({
  examId: p.examId,
  editionId: p.editionId,
  phaseId: p.phaseId,
});

/**
 * The review and appeal lists' `filter` and `where`, described: their own JSON shapes
 * (shared/schemas/reviews.ts), not the LoopBack compiler's.
 */
function listQueriesOf(kind: 'reviews' | 'appeals') {
  const types = kind === 'reviews' ? REVIEW_LIST_TYPES : APPEAL_LIST_TYPES;
  const statuses = kind === 'reviews' ? REVIEW_STATUSES : APPEAL_STATUSES;
  const fields =
    'Fields: `testId` (uuid), `itemId` (uuid), `status` (' +
    statuses.join(', ') +
    '), `marked` (boolean: entries the caller has, or has not yet, marked); each is equal ' +
    'to the value given, no operators.';
  const typeNote = `\`type\`: ${types.join(', ')} (default REVIEW_ITEMS).`;
  const limits =
    'Limits: at most 2,000 characters; a key or value not understood is 400 VALIDATION_FAILED.';
  return {
    list: listQuerySchema.extend({
      filter: listQuerySchema.shape.filter.meta({
        description:
          `JSON text: \`{limit, skip, order, type, where}\`. ${typeNote} \`where\`: ${fields} ` +
          '`limit`: 1 to 1,000, default 10; `skip` from 0; `order` is taken and ignored ' +
          `(entries come by test, question and code). ${limits}`,
        examples: ['{"limit":10,"skip":0,"type":"REVIEW_ITEMS","where":{"marked":false}}'],
      }),
    }),
    count: countQuerySchema.extend({
      where: countQuerySchema.shape.where.meta({
        description: `JSON text: the list's \`type\` and \`where\` fields, flat. ${typeNote} ${fields} ${limits}`,
        examples: ['{"type":"REVIEW_ITEMS","marked":false}'],
      }),
    }),
  };
}
const listQueries = { reviews: listQueriesOf('reviews'), appeals: listQueriesOf('appeals') };

const BLIND =
  ' Markers get the anonymous code, never the student; a reviewer sees the other mark and ' +
  'the final score only after giving theirs.';

function sendFile(
  reply: FastifyReply,
  file: { name: string; mime: string; data: Buffer },
  kind: 'inline' | 'attachment',
) {
  return reply
    .header('content-type', file.mime)
    .header('content-disposition', contentDisposition(kind, file.name))
    .header('cache-control', 'private, no-store')
    .header('x-content-type-options', 'nosniff')
    .send(file.data);
}

/** `/api/v1/test-review/…` (shared/schemas/reviews.ts lists every call). */
export function reviewsRoutes(reviews: ReviewsService) {
  return async (app: FastifyInstance) => {
    const r = app.withTypeProvider<ZodTypeProvider>();
    const markers = guard({ roles: ['teacher', 'admin'] });
    const students = guard({ roles: ['student'] });

    r.get(
      '/my-phases',
      {
        schema: {
          tags: TAGS,
          summary: 'The phases where I mark or mediate, with my open work',
          description:
            'Any teacher: the phases where they grade or mediate a question, or hold marks, ' +
            'with the marks they still owe and the mediations waiting for them (first marking ' +
            'and appeals). Empty for a teacher with none; no competition role needed.',
          response: { 200: z.array(markerPhaseSchema) },
        },
        preHandler: markers,
      },
      async (request) => reviews.myPhases(actorOf(request)),
    );
    r.get(
      '/admin-decisions',
      {
        schema: {
          tags: TAGS,
          summary: 'Appeals waiting for me as an exam admin',
          description:
            'Teachers and platform admins: per phase of the competitions they administer (all, ' +
            "for a platform admin), the appeals the exam's admins decide (short of re-markers, " +
            "or the question's mediator barred) that the rules let the caller decide. Phases " +
            'with none are left out; empty for a teacher who administers nothing.',
          response: { 200: z.array(adminDecisionPhaseSchema) },
        },
        preHandler: markers,
      },
      async (request) => reviews.adminDecisions(actorOf(request)),
    );
    r.get(
      `${BASE}/scope`,
      {
        schema: {
          tags: TAGS,
          summary: "The phase's names and how the caller stands on its marking",
          description:
            "The phase's markers and those who see the whole competition (staff see " +
            '`seesWholePhase`); anyone else 404.',
          params: phaseParams,
          response: { 200: reviewScopeSchema },
        },
        preHandler: markers,
      },
      async (request) => reviews.reviewScope(actorOf(request), ids(request.params)),
    );

    for (const kind of ['reviews', 'appeals'] as const) {
      const isReview = kind === 'reviews';
      const entrySchema = isReview ? reviewEntrySchema : contestationEntrySchema;
      r.get(
        `${BASE}/${kind}`,
        {
          schema: {
            tags: TAGS,
            summary: isReview ? 'Review entries' : 'Contestation entries',
            description:
              '`filter` JSON: limit, skip, type (REVIEW_ITEMS by default), where {testId, ' +
              'itemId, status, marked}. Ordered by test, question and code.' +
              BLIND,
            params: phaseParams,
            querystring: listQueries[kind].list,
            response: { 200: z.array(entrySchema) },
          },
          preHandler: markers,
        },
        async (request) =>
          isReview
            ? reviews.listReviews(actorOf(request), ids(request.params), request.query.filter)
            : reviews.listAppeals(actorOf(request), ids(request.params), request.query.filter),
      );
      r.get(
        `${BASE}/${kind}/count`,
        {
          schema: {
            tags: TAGS,
            summary: isReview ? 'Count review entries' : 'Count contestation entries',
            params: phaseParams,
            querystring: listQueries[kind].count,
            response: { 200: reviewCountSchema },
          },
          preHandler: markers,
        },
        async (request) =>
          isReview
            ? reviews.countReviews(actorOf(request), ids(request.params), request.query.where)
            : reviews.countAppeals(actorOf(request), ids(request.params), request.query.where),
      );
      r.get(
        `${BASE}/${kind}/:reviewId/history`,
        {
          schema: {
            tags: TAGS,
            summary: 'The history of an entry (audit trail)',
            description: `Who (as the caller may know it), when, the score before and after.${BLIND}`,
            params: reviewParams,
            response: { 200: z.array(historyEventSchema) },
          },
          preHandler: markers,
        },
        async (request) =>
          isReview
            ? reviews.reviewHistory(actorOf(request), ids(request.params), request.params.reviewId)
            : reviews.appealHistory(actorOf(request), ids(request.params), request.params.reviewId),
      );
      r.get(
        `${BASE}/${kind}/:reviewId/answer`,
        {
          schema: {
            tags: TAGS,
            summary: 'The answer as response_{code}.zip',
            description: 'Every page in order, named page-01.png, … (no names).',
            params: reviewParams,
            response: { 200: bytesSchema },
          },
          preHandler: markers,
        },
        async (request, reply) => {
          const file = isReview
            ? await reviews.reviewAnswerZip(
                actorOf(request),
                ids(request.params),
                request.params.reviewId,
              )
            : await reviews.appealAnswerZip(
                actorOf(request),
                ids(request.params),
                request.params.reviewId,
              );
          return sendFile(reply, file, 'attachment');
        },
      );
      r.get(
        `${BASE}/${kind}/:reviewId/files/:fileId`,
        {
          schema: {
            tags: TAGS,
            summary: "A page of the answer, or an image of the question's statement",
            params: fileParams,
            response: { 200: bytesSchema },
          },
          preHandler: markers,
        },
        async (request, reply) => {
          const { reviewId, fileId } = request.params;
          const file = isReview
            ? await reviews.reviewFile(actorOf(request), ids(request.params), reviewId, fileId)
            : await reviews.appealFile(actorOf(request), ids(request.params), reviewId, fileId);
          return sendFile(reply, file, 'inline');
        },
      );
    }

    r.get(
      `${BASE}/reviews/:reviewId`,
      {
        schema: {
          tags: TAGS,
          summary: 'A review entry with its question, answer and rubric',
          description: BLIND.trim(),
          params: reviewParams,
          response: { 200: reviewDetailSchema },
        },
        preHandler: markers,
      },
      async (request) =>
        reviews.getReview(actorOf(request), ids(request.params), request.params.reviewId),
    );
    r.put(
      `${BASE}/reviews/:reviewId`,
      {
        schema: {
          tags: TAGS,
          summary: "An assigned reviewer's mark",
          description:
            "0 to the item's points in the phase's step (CLIENT_ERROR reviewerScore " +
            'out_of_range / not_in_step; criteria score_sum). A stale `version`: 409 ' +
            'REVIEW_CHANGED; once both marks are given: 409 REVIEW_CLOSED. The second mark ' +
            "decides: the average within the phase's threshold, else the mediator.",
          params: reviewParams,
          body: markInputSchema,
          response: { 200: reviewEntrySchema },
        },
        preHandler: markers,
      },
      async (request) =>
        reviews.markReview(
          actorOf(request),
          ids(request.params),
          request.params.reviewId,
          request.body,
        ),
    );
    r.put(
      `${BASE}/reviews/:reviewId/mediations`,
      {
        schema: {
          errors: ['REVIEW_CHANGED', 'REVIEW_CLOSED', 'PHASE_CLOSED'],
          tags: TAGS,
          summary: "The mediator's mark (final)",
          description: "The question's mediator, on an entry that needs mediation.",
          params: reviewParams,
          body: markInputSchema,
          response: { 200: reviewEntrySchema },
        },
        preHandler: markers,
      },
      async (request) =>
        reviews.mediateReview(
          actorOf(request),
          ids(request.params),
          request.params.reviewId,
          request.body,
        ),
    );

    r.get(
      `${BASE}/appeals/:reviewId`,
      {
        schema: {
          tags: TAGS,
          summary: 'A contestation entry with its question, answer and rubric',
          params: reviewParams,
          response: { 200: appealDetailSchema },
        },
        preHandler: markers,
      },
      async (request) =>
        reviews.getAppeal(actorOf(request), ids(request.params), request.params.reviewId),
    );
    r.put(
      `${BASE}/appeals/:reviewId`,
      {
        schema: {
          errors: ['REVIEW_CHANGED', 'REVIEW_CLOSED', 'PHASE_CLOSED'],
          tags: TAGS,
          summary: "An appeal reviewer's mark",
          description:
            'By teachers of the question who did not mark the answer the first time. The ' +
            "result is final and may be lower; when the student's re-marked items of the test " +
            "together move the paper by less than the phase's appealMinPoints, each keeps " +
            'its original.',
          params: reviewParams,
          body: markInputSchema,
          response: { 200: contestationEntrySchema },
        },
        preHandler: markers,
      },
      async (request) =>
        reviews.markAppeal(
          actorOf(request),
          ids(request.params),
          request.params.reviewId,
          request.body,
        ),
    );
    r.put(
      `${BASE}/appeals/:reviewId/mediations`,
      {
        schema: {
          errors: ['REVIEW_CHANGED', 'REVIEW_CLOSED', 'PHASE_CLOSED'],
          tags: TAGS,
          summary: "The appeal mediator's mark (final)",
          params: reviewParams,
          body: markInputSchema,
          response: { 200: contestationEntrySchema },
        },
        preHandler: markers,
      },
      async (request) =>
        reviews.mediateAppeal(
          actorOf(request),
          ids(request.params),
          request.params.reviewId,
          request.body,
        ),
    );
    r.put(
      `${BASE}/appeals/:reviewId/decision`,
      {
        schema: {
          errors: ['REVIEW_CHANGED', 'REVIEW_CLOSED', 'PHASE_CLOSED'],
          tags: TAGS,
          summary: 'Close a committee appeal, the score kept',
          description: "The exam's admins. 409 PHASE_CLOSED once the phase is closed.",
          params: reviewParams,
          body: appealDecisionInputSchema,
          response: { 200: contestationEntrySchema },
        },
        preHandler: markers,
      },
      async (request) =>
        reviews.decideAppeal(
          actorOf(request),
          ids(request.params),
          request.params.reviewId,
          request.body,
        ),
    );

    r.get(
      `${BASE}/items/:itemId/rubric`,
      {
        schema: {
          tags: TAGS,
          summary: "A question's marking scheme",
          params: itemParams,
          response: { 200: rubricSchema },
        },
        preHandler: markers,
      },
      async (request) =>
        reviews.getRubric(actorOf(request), ids(request.params), request.params.itemId),
    );
    r.put(
      `${BASE}/items/:itemId/rubric`,
      {
        schema: {
          tags: TAGS,
          summary: "Set a question's marking scheme",
          errors: ['PHASE_CLOSED'],
          description:
            "Staff; the criteria add up to at most the item's points. Audited. 409 " +
            'PHASE_CLOSED once the phase is closed.',
          params: itemParams,
          body: rubricInputSchema,
          response: { 200: rubricSchema },
        },
        preHandler: markers,
      },
      async (request) =>
        reviews.putRubric(
          actorOf(request),
          ids(request.params),
          request.params.itemId,
          request.body,
        ),
    );
    r.get(
      `${BASE}/marking-scope`,
      {
        schema: {
          tags: TAGS,
          summary: 'How many questions of the phase people mark',
          description:
            'Every question drawn into a hybrid phase, the open questions of an online one; 0 ' +
            'means there is no marking to start (appeals on the key are still possible).',
          params: phaseParams,
          response: { 200: markingScopeSchema },
        },
        preHandler: markers,
      },
      async (request) => reviews.markingScope(actorOf(request), ids(request.params)),
    );
    r.get(
      `${BASE}/progress`,
      {
        schema: {
          tags: TAGS,
          summary: 'How far the marking has come, per question and per reviewer',
          params: phaseParams,
          response: { 200: reviewProgressSchema },
        },
        preHandler: markers,
      },
      async (request) => reviews.progress(actorOf(request), ids(request.params)),
    );
    r.post(
      `${BASE}/reminders`,
      {
        schema: {
          tags: TAGS,
          summary: 'Mail reviewers with work still open',
          description:
            'Staff; audited. A reviewer gets at most one reminder of the phase every ' +
            `${REMINDER_INTERVAL_HOURS} hours: one reminded sooner is left out and listed in ` +
            '`skipped` with `retryAfter`, when the next one may go.',
          params: phaseParams,
          body: reminderInputSchema,
          response: { 200: reminderResultSchema },
        },
        preHandler: markers,
      },
      async (request) => reviews.remind(actorOf(request), ids(request.params), request.body),
    );
    r.post(
      `${BASE}/reassignments`,
      {
        schema: {
          tags: TAGS,
          summary: "Move a reviewer's open marks to other teachers of the question",
          errors: ['PHASE_CLOSED'],
          description:
            'Staff; audited. Marks already given stay. 409 PHASE_CLOSED once the phase is closed.',
          params: phaseParams,
          body: reassignInputSchema,
          response: { 200: reassignResultSchema },
        },
        preHandler: markers,
      },
      async (request) => reviews.reassign(actorOf(request), ids(request.params), request.body),
    );
    r.post(
      `${BASE}/items/:itemId/key/preview`,
      {
        schema: {
          tags: TAGS,
          summary: 'Whose scores a corrected answer key would change',
          description: "The exam's admins; nothing changes.",
          params: itemParams,
          body: keyFixInputSchema,
          response: { 200: keyFixPreviewSchema },
        },
        preHandler: markers,
      },
      async (request) =>
        reviews.previewKeyFix(
          actorOf(request),
          ids(request.params),
          request.params.itemId,
          request.body,
        ),
    );
    r.put(
      `${BASE}/items/:itemId/key`,
      {
        schema: {
          tags: TAGS,
          summary: 'Correct an answer key and rescore every attempt',
          errors: ['PHASE_CLOSED'],
          description:
            "The exam's admins; one transaction, audited; committee appeals on the item end. " +
            'Two fixes at once run one after the other: the second sees the first’s scores, ' +
            'and the same key again changes nothing. 409 PHASE_CLOSED once the phase is closed.',
          params: itemParams,
          body: keyFixInputSchema,
          response: { 200: keyFixResultSchema },
        },
        preHandler: markers,
      },
      async (request) =>
        reviews.applyKeyFix(
          actorOf(request),
          ids(request.params),
          request.params.itemId,
          request.body,
        ),
    );

    r.get(
      '/tests/:testId/items',
      {
        schema: {
          tags: TAGS,
          summary: "A student's result, item by item",
          description: 'Their own test; 404 before any result exists.',
          params: studentTestParams,
          response: { 200: studentResultSchema },
        },
        preHandler: students,
      },
      async (request) => reviews.studentResult(actorOf(request), request.params.testId),
    );
    r.put(
      '/tests/:testId/items/:itemId/appeal',
      {
        schema: {
          errors: ['APPEAL_NOT_ALLOWED', 'PHASE_CLOSED'],
          tags: TAGS,
          summary: "Contest an item's final score",
          description:
            "Once per item, inside the phase's appeal window, on an item with a final score " +
            '(409 APPEAL_NOT_ALLOWED, details.reason window | already_appealed | no_final_score). ' +
            'The window ends when the phase closes, whatever its dates (409 PHASE_CLOSED).',
          params: studentItemParams,
          body: appealInputSchema,
          response: { 200: studentReviewItemSchema },
        },
        preHandler: students,
      },
      async (request) =>
        reviews.fileAppeal(
          actorOf(request),
          request.params.testId,
          request.params.itemId,
          request.body,
        ),
    );
  };
}
