import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Database } from '../../db/client.js';

const healthSchema = z.object({
  status: z.enum(['ok', 'degraded']),
  database: z.enum(['ok', 'unavailable']),
  kind: z.enum(['pg', 'pglite']),
});

/** Load balancers ask this; 503 when the database does not answer. */
export const healthRoutes =
  (database: Database): FastifyPluginAsync =>
  async (app) => {
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
