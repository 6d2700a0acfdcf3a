import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  outboxCountQuerySchema,
  outboxMailSchema,
  outboxQuerySchema,
} from '../../../shared/schemas/mail.js';
import { countSchema } from '../../../shared/schemas/people.js';
import { actorOf, guard } from '../../lib/auth-guard.js';
import { outboxResource } from '../../lib/mail/outbox.js';
import { listDoc } from '../../lib/openapi/index.js';
import type { MailService } from './mail.service.js';

const outboxList = listDoc({ resources: [{ resource: outboxResource }] });

const tags = ['mail-service'];
const admin = guard({ roles: ['admin'] });

/** The mail outbox (`/api/v1/mail-service/outbox`): admins see every mail and resend one. */
export const mailRoutes =
  (mail: MailService): FastifyPluginAsync =>
  async (app) => {
    const r = app.withTypeProvider<ZodTypeProvider>();

    r.get(
      '/outbox',
      {
        schema: {
          tags,
          description:
            'Mails, newest first: `filter` {limit, skip, order, where on to, template, state, attempts, createdAt, updatedAt, sentAt}.',
          querystring: outboxQuerySchema,
          list: outboxList,
          response: { 200: z.array(outboxMailSchema) },
        },
        preHandler: admin,
      },
      async (request) => mail.listMail(actorOf(request), request.query.filter),
    );

    r.get(
      '/outbox/count',
      {
        schema: {
          tags,
          summary: 'Count mails',
          querystring: outboxCountQuerySchema,
          list: outboxList,
          response: { 200: countSchema },
        },
        preHandler: admin,
      },
      async (request) => mail.countMail(actorOf(request), request.query.where),
    );

    r.post(
      '/outbox/:mailId/resend',
      {
        schema: {
          tags,
          description: 'Queues the mail again (a fresh link when it carries one).',
          params: z.object({ mailId: z.uuid() }),
          response: { 200: outboxMailSchema },
        },
        preHandler: admin,
      },
      async (request) => mail.resend(actorOf(request), request.params.mailId),
    );
  };
