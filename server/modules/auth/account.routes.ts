import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  accountSessionSchema,
  changePasswordSchema,
  endedSessionsSchema,
  sessionParamsSchema,
} from '../../../shared/schemas/auth.js';
import type { Config } from '../../config.js';
import { actorOf, guard } from '../../lib/auth-guard.js';
import type { AccountService } from './account.service.js';

const tags = ['auth-service'];
// Any signed-in account, also one not yet active or registered: its password is its own.
const signedIn = guard({ active: false, registered: false });

/** The signed-in user's password and sessions (`/api/v1/auth-service/auth/…`). */
export const accountRoutes =
  (account: AccountService, config: Config): FastifyPluginAsync =>
  async (app) => {
    const r = app.withTypeProvider<ZodTypeProvider>();
    // Each try checks a password: as limited as signing in (counted in the database).
    const limited = {
      rateLimit: {
        max: config.rateLimit.authPerMinute,
        timeWindow: '1 minute',
        acrossProcesses: true,
      },
    };

    r.post(
      '/auth/password/change',
      {
        config: limited,
        schema: {
          tags,
          description:
            'Changes the password (the current one required; sign-up rules) and ends every other session.',
          body: changePasswordSchema,
          response: { 200: endedSessionsSchema },
        },
        preHandler: signedIn,
      },
      async (request) => account.changePassword(actorOf(request), request.body),
    );

    r.get(
      '/auth/sessions',
      {
        schema: { tags, response: { 200: z.array(accountSessionSchema) } },
        preHandler: signedIn,
      },
      async (request) => account.listSessions(actorOf(request)),
    );

    r.delete(
      '/auth/sessions/:sessionId',
      {
        schema: { tags, params: sessionParamsSchema, response: { 200: endedSessionsSchema } },
        preHandler: signedIn,
      },
      async (request) => account.endSession(actorOf(request), request.params.sessionId),
    );

    r.post(
      '/auth/sessions/end-others',
      {
        schema: {
          tags,
          description: 'Ends every session of the account except this one.',
          response: { 200: endedSessionsSchema },
        },
        preHandler: signedIn,
      },
      async (request) => account.endOtherSessions(actorOf(request)),
    );
  };
