import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Database } from '../../db/client.js';
import type { Readiness } from './readiness.js';

const healthSchema = z.object({
  status: z.enum(['ok', 'degraded']),
  database: z.enum(['ok', 'unavailable']),
  kind: z.enum(['pg', 'pglite']),
});

const check = z.object({ status: z.enum(['ok', 'unavailable']), detail: z.string().optional() });
const readinessSchema = z.object({
  status: z.enum(['ok', 'degraded', 'stopping']),
  database: check.extend({ kind: z.enum(['pg', 'pglite']) }),
  storage: check.extend({ kind: z.enum(['s3', 'directory']) }),
  mail: check.extend({
    kind: z.enum(['smtp', 'directory']),
    queued: z.number(),
    retrying: z.number(),
    failed: z.number(),
  }),
});

/**
 * Load balancers ask `/health` (liveness: 503 only when the database does not answer);
 * `/health/ready` says what works: database, file storage, mail, and the mail waiting, and
 * answers 503 `stopping` while a stopping instance drains.
 */
export const healthRoutes =
  (database: Database, readiness: () => Promise<Readiness>): FastifyPluginAsync =>
  async (app) => {
    app.withTypeProvider<ZodTypeProvider>().get(
      '/health/ready',
      {
        schema: {
          tags: ['health'],
          description:
            'Database, file storage (the bucket) and mail server, each ok or unavailable with why; 503 only when the database is unavailable, so a storage or mail outage never takes instances out of the balancer, or when the instance is stopping (status `stopping`: it got SIGTERM and still answers what the balancer sends until its checks have taken it out).',
          response: { 200: readinessSchema, 503: readinessSchema },
        },
      },
      async (_request, reply) => {
        const ready = await readiness();
        const serving = ready.database.status === 'ok' && ready.status !== 'stopping';
        return reply.status(serving ? 200 : 503).send(ready);
      },
    );
    app
      .withTypeProvider<ZodTypeProvider>()
      .get(
        '/health',
        { schema: { tags: ['health'], response: { 200: healthSchema, 503: healthSchema } } },
        async (_request, reply) => {
          const ok = await database
            .exec('select 1')
            .then(() => true)
            .catch(() => false);
          return reply.status(ok ? 200 : 503).send({
            status: ok ? 'ok' : 'degraded',
            database: ok ? 'ok' : 'unavailable',
            kind: database.kind,
          });
        },
      );
  };
