import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { okSchema, throttleSchema } from '../../../shared/schemas/auth.js';
import { actorOf, guard } from '../../lib/auth-guard.js';
import { registerPeriodicJob } from '../../lib/jobs/periodic.js';
import type { ThrottleService } from './throttle.service.js';

/** Admins see who is made to wait at sign-in and clear a counter (audited). */
export const throttleRoutes =
  (throttle: ThrottleService): FastifyPluginAsync =>
  async (app) => {
    const r = app.withTypeProvider<ZodTypeProvider>();

    r.get(
      '/auth/throttles',
      {
        schema: {
          tags: ['auth-service'],
          description:
            'Sign-in failure counters with failures in the window, those making someone wait first.',
          response: { 200: z.array(throttleSchema) },
        },
        preHandler: guard({ roles: ['admin'] }),
      },
      async () => throttle.list(),
    );

    r.delete(
      '/auth/throttles/:id',
      {
        schema: {
          tags: ['auth-service'],
          params: z.object({ id: z.uuid() }),
          response: { 200: okSchema },
        },
        preHandler: guard({ roles: ['admin'] }),
      },
      async (request) => throttle.clear(actorOf(request), request.params.id),
    );
  };

const CLEANUP_MS = 10 * 60_000;

/** Deletes forgotten counters every ten minutes in this process; stops with the server. */
export function registerThrottleCleanup(
  app: FastifyInstance,
  throttle: Pick<ThrottleService, 'cleanup'>,
): void {
  registerPeriodicJob(app, {
    name: 'throttle-cleanup',
    intervalMs: CLEANUP_MS,
    run: () => throttle.cleanup(),
  });
}
