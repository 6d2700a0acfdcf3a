import { PassThrough } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { PAGE_SIZE } from '../../../shared/constants.js';
import { countSchema, filterQuerySchema, whereQuerySchema } from '../../../shared/schemas/exams.js';
import {
  myRankingSchema,
  phaseRulesSchema,
  RANKING_CSV_NAME,
  rankingListItemSchema,
  rankingSummarySchema,
  rulePresetSchema,
  rulesApplyRequestSchema,
  rulesApplyResultSchema,
  rulesDryRunRequestSchema,
  rulesDryRunSchema,
  rulesStatusSchema,
} from '../../../shared/schemas/rankings.js';
import { actorOf, guard } from '../../lib/auth-guard.js';
import { listDoc } from '../../lib/openapi/index.js';
import { phaseParams } from '../../lib/route-params.js';
import { staffRankingResource, studentRankingResource } from './rankings.repo.js';
import type { RankingsService } from './rankings.service.js';
import type { RulesService } from './rules.service.js';

const TAGS = ['ranking-service'];
const BASE = '/exams/:examId/editions/:editionId/phases/:phaseId';

const rankingList = listDoc({
  resources: [
    { resource: staffRankingResource, who: 'staff' },
    { resource: studentRankingResource, who: 'students (a published ranking)' },
  ],
  defaultLimit: PAGE_SIZE,
});

const FILTER_NOTE =
  'LoopBack `filter`: `limit` (default 10), `skip`, `order` (default `studentGrade ASC, rank ' +
  'ASC`), `where` on familyName, givenName, familyNameNormalized, givenNameNormalized, ' +
  'studentCounty, studentGrade, school, code, rank, total, status, prize, active. Without a ' +
  '`studentGrade` condition the exam\'s first grade applies; `studentGrade: ""` means every ' +
  'grade. Ranks are per grade over every ranked student; a filter never changes them. ' +
  'Coordinators see their own students. Students of the phase see it where the phase ' +
  'publishes its ranking (else 403), in its privacy mode, with `where` on studentCounty, ' +
  'studentGrade, rank, total, prize only.';

/** Writes to the HTTP stream, waiting while it is full; fails once the client has gone. */
function streamWriter(stream: PassThrough) {
  return (chunk: string) =>
    new Promise<void>((resolve, reject) => {
      if (stream.destroyed) {
        reject(new Error('client gone'));
        return;
      }
      if (stream.write(chunk)) {
        resolve();
        return;
      }
      const done = () => {
        stream.off('close', gone);
        resolve();
      };
      const gone = () => {
        stream.off('drain', done);
        reject(new Error('client gone'));
      };
      stream.once('drain', done);
      stream.once('close', gone);
    });
}

/** `/api/v1/ranking-service/…` (shared/schemas/rankings.ts lists every call). */
export function rankingsRoutes(rankings: RankingsService, rules: RulesService) {
  return async (app: FastifyInstance) => {
    const r = app.withTypeProvider<ZodTypeProvider>();
    const signedIn = guard();
    const staff = guard({ roles: ['teacher', 'admin'] });

    r.get(
      `${BASE}/rankings`,
      {
        schema: {
          tags: TAGS,
          summary: "A phase's ranking",
          description: FILTER_NOTE,
          params: phaseParams,
          querystring: filterQuerySchema,
          list: rankingList,
          response: { 200: z.array(rankingListItemSchema) },
        },
        preHandler: signedIn,
      },
      async (request) =>
        rankings.listRanking(actorOf(request), request.params, request.query.filter),
    );

    r.get(
      `${BASE}/rankings/count`,
      {
        schema: {
          tags: TAGS,
          summary: 'Count a ranking',
          description: 'LoopBack `where`, with the same fields, grade default and scope.',
          params: phaseParams,
          querystring: whereQuerySchema,
          list: rankingList,
          response: { 200: countSchema },
        },
        preHandler: signedIn,
      },
      async (request) =>
        rankings.countRanking(actorOf(request), request.params, request.query.where),
    );

    r.get(
      `${BASE}/rankings/download`,
      {
        schema: {
          errors: ['RANKING_UPDATING'],
          tags: TAGS,
          summary: 'The ranking as elevi.csv',
          description:
            'Every row the filter matches (limit and skip ignored), streamed: UTF-8 with BOM, ' +
            '`;`-separated, decimal comma, Romanian headers (RANKING_CSV_COLUMNS). Staff and ' +
            'coordinators (their students). 503 RANKING_UPDATING (Retry-After, ' +
            '`details.retryAfter` seconds) while the background job brings the ranking up to ' +
            'date (a phase too large to rank within a request; `summary.updating`).',
          params: phaseParams,
          querystring: filterQuerySchema,
          list: rankingList,
        },
        preHandler: staff,
      },
      async (request, reply) => {
        const write = await rankings.prepareDownload(
          actorOf(request),
          request.params,
          request.query.filter,
        );
        const stream = new PassThrough({ highWaterMark: 256 * 1024 });
        write(streamWriter(stream)).then(
          () => stream.end(),
          (err: unknown) => {
            if (!stream.destroyed) request.log.error({ err }, 'ranking download failed');
            stream.destroy(err instanceof Error ? err : new Error(String(err)));
          },
        );
        return reply
          .header('content-type', 'text/csv; charset=utf-8')
          .header('content-disposition', `attachment; filename="${RANKING_CSV_NAME}"`)
          .header('cache-control', 'no-store')
          .send(stream);
      },
    );

    r.get(
      `${BASE}/rankings/summary`,
      {
        schema: {
          tags: TAGS,
          summary: 'Whether a ranking is provisional or final',
          params: phaseParams,
          response: { 200: rankingSummarySchema },
        },
        preHandler: signedIn,
      },
      async (request) => rankings.summary(actorOf(request), request.params),
    );

    r.get(
      '/my-rankings',
      {
        schema: {
          tags: TAGS,
          summary: "A student's own ranks",
          description: 'Every phase the student has a result in, newest first. Students only.',
          response: { 200: z.array(myRankingSchema) },
        },
        preHandler: guard({ roles: ['student'] }),
      },
      async (request) => rankings.myRankings(actorOf(request)),
    );

    r.get(
      '/rules/presets',
      {
        schema: {
          tags: TAGS,
          summary: 'The olympiad rule sets to start from',
          description:
            'Each with its name and what it does in Romanian and English, and its rules (the ' +
            'body `PUT …/rules` takes). Staff.',
          response: { 200: z.array(rulePresetSchema) },
        },
        preHandler: staff,
      },
      async () => rules.listPresets(),
    );

    r.get(
      '/rules/presets/:presetId',
      {
        schema: {
          tags: TAGS,
          summary: 'One olympiad rule set',
          description: '404 NOT_FOUND for an id not in the list. Staff.',
          params: z.object({ presetId: z.string().max(100) }),
          response: { 200: rulePresetSchema },
        },
        preHandler: staff,
      },
      async (request) => rules.getPreset(request.params.presetId),
    );

    r.get(
      `${BASE}/rules`,
      {
        schema: {
          tags: TAGS,
          summary: "A phase's ranking and rule settings",
          params: phaseParams,
          response: { 200: phaseRulesSchema },
        },
        preHandler: staff,
      },
      async (request) => rules.getRules(actorOf(request), request.params),
    );

    r.put(
      `${BASE}/rules`,
      {
        schema: {
          tags: TAGS,
          summary: "Set a phase's ranking and rule settings",
          description:
            'Admins, exam admins and staff; audited. Once the phase is closed only ' +
            '`publication` may change (409 PHASE_CLOSED).',
          params: phaseParams,
          body: phaseRulesSchema,
          response: { 200: phaseRulesSchema },
        },
        preHandler: staff,
      },
      async (request) => rules.putRules(actorOf(request), request.params, request.body),
    );

    r.get(
      `${BASE}/rules/status`,
      {
        schema: {
          tags: TAGS,
          summary: 'Whether the decisions the rules wrote are out of date',
          description:
            'Those who may apply the rules. `outOfDate` once the rules have been applied, the ' +
            'phase is open and the stored rules would now decide otherwise (an appeal or a key ' +
            'fix moved scores): run the dry run again and apply. Changes nothing.',
          params: phaseParams,
          response: { 200: rulesStatusSchema },
        },
        preHandler: staff,
      },
      async (request) => rules.status(actorOf(request), request.params),
    );

    r.post(
      `${BASE}/rules/dry-run`,
      {
        schema: {
          tags: TAGS,
          summary: 'Who the rules would admit and award, and what would change',
          description:
            'With `rules` (unsaved) or the stored ones. Changes nothing. `fingerprint` goes ' +
            'to `apply`.',
          params: phaseParams,
          body: rulesDryRunRequestSchema.nullish(),
          response: { 200: rulesDryRunSchema },
        },
        preHandler: staff,
      },
      async (request) => rules.dryRun(actorOf(request), request.params, request.body ?? {}),
    );

    r.post(
      `${BASE}/rules/apply`,
      {
        schema: {
          tags: TAGS,
          summary: 'Apply the stored rules',
          description:
            'Writes admitted/rejected and prizes where they differ, audited. 409 ' +
            'RULES_OUTCOME_CHANGED (run the dry run again), RESULTS_INCOMPLETE, PHASE_CLOSED; ' +
            "400 CLIENT_ERROR `{rules:['required']}` without rules; 409 SECTOR_MISSING " +
            "(`details.students`) when the rules count Bucharest's sectors and some Bucharest " +
            'participants have none, unless `acceptMissingSectors: true`.',
          params: phaseParams,
          body: rulesApplyRequestSchema,
          response: { 200: rulesApplyResultSchema },
        },
        preHandler: staff,
      },
      async (request) => rules.apply(actorOf(request), request.params, request.body),
    );
  };
}
