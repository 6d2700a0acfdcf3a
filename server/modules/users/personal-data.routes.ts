import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { actorOf, guard } from '../../lib/auth-guard.js';
import { idParams } from '../../lib/route-params.js';
import {
  PERSONAL_DATA_NAME,
  type PersonalDataExport,
  type PersonalDataService,
} from './personal-data.service.js';

const formatQuery = z.object({
  format: z.enum(['json', 'zip']).default('json').meta({
    description: '`json`: the data as one JSON document; `zip`: with the answers’ files.',
  }),
});

/** The download: one JSON document, or a ZIP with the files (`format`). */
const exportFile = z.unknown().describe('application/json, application/zip');

function sendExport(reply: FastifyReply, out: { json: PersonalDataExport } | { zip: Buffer }) {
  reply.header('cache-control', 'no-store');
  if ('zip' in out) {
    return reply
      .type('application/zip')
      .header('content-disposition', `attachment; filename="${PERSONAL_DATA_NAME}.zip"`)
      .send(out.zip);
  }
  return reply
    .type('application/json; charset=utf-8')
    .header('content-disposition', `attachment; filename="${PERSONAL_DATA_NAME}.json"`)
    .send(JSON.stringify(out.json, null, 2));
}

/** A person's data for a data-subject request: admins for anyone, everyone for themselves. */
export const personalDataRoutes =
  (service: PersonalDataService): FastifyPluginAsync =>
  async (app) => {
    const r = app.withTypeProvider<ZodTypeProvider>();
    r.get(
      '/users/:id/personal-data',
      {
        schema: {
          tags: ['user-mgmt'],
          summary: "A person's data (GDPR access and portability), as JSON or a ZIP with files",
          description:
            'Admins only (403 otherwise). The profile and every module’s part: enrolments, attempts, answers with their points, results, ranks, diplomas issued (code and what each printed), answer files, sign-in records and the audit events about the person. `format=zip` adds the answers’ files. Audited as user.export.',
          params: idParams,
          querystring: formatQuery,
          response: { 200: exportFile },
        },
        preHandler: guard({ roles: ['admin'] }),
      },
      async (request, reply) =>
        sendExport(
          reply,
          await service.exportOf(actorOf(request), request.params.id, request.query.format),
        ),
    );
    r.get(
      '/my-personal-data',
      {
        schema: {
          tags: ['user-mgmt'],
          summary: 'The signed-in person’s own data, as JSON or a ZIP with files',
          description:
            'What GET /users/{id}/personal-data gives an admin, for oneself; inactive and unregistered accounts too. Audited as user.export.',
          querystring: formatQuery,
          response: { 200: exportFile },
        },
        preHandler: guard({ active: false, registered: false }),
      },
      async (request, reply) => {
        const actor = actorOf(request);
        return sendExport(reply, await service.exportOf(actor, actor.id, request.query.format));
      },
    );
  };
