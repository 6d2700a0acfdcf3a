import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { accountTypeBodySchema, teacherCodeBodySchema } from '../../../shared/schemas/people.js';
import { profilePatchSchema, userSchema } from '../../../shared/schemas/users.js';
import { actorOf, guard } from '../../lib/auth-guard.js';
import { idParams } from '../../lib/route-params.js';
import type { UsersService } from './users.service.js';

export const usersRoutes =
  (users: UsersService): FastifyPluginAsync =>
  async (app) => {
    const r = app.withTypeProvider<ZodTypeProvider>();

    r.get(
      '/users/:id',
      {
        schema: {
          tags: ['user-mgmt'],
          params: idParams,
          response: { 200: userSchema },
        },
        preHandler: guard({ active: false, registered: false }),
      },
      async (request) => users.getUser(actorOf(request), request.params.id),
    );

    r.patch(
      '/users/:email',
      {
        schema: {
          tags: ['user-mgmt'],
          params: z.object({ email: z.string().max(254) }),
          body: profilePatchSchema,
          response: { 200: userSchema },
        },
        // Inactive users may still save their layout settings and language.
        preHandler: guard({ active: false, registered: false }),
      },
      async (request) => users.patchProfile(actorOf(request), request.params.email, request.body),
    );

    r.put(
      '/users/:email/teacher-codes',
      {
        schema: {
          tags: ['user-mgmt'],
          params: z.object({ email: z.string().max(254) }),
          body: teacherCodeBodySchema,
          response: { 200: userSchema },
        },
        preHandler: guard(),
      },
      async (request) =>
        users.changeTeacherCode(actorOf(request), request.params.email, request.body.teacherCode),
    );

    r.put(
      '/users/:email/type',
      {
        schema: {
          tags: ['user-mgmt'],
          description:
            'Admins: makes a student account a teacher one or the other way round, before it has results or roles; the person then completes the registration of the new type.',
          params: z.object({ email: z.string().max(254) }),
          body: accountTypeBodySchema,
          response: { 200: userSchema },
        },
        preHandler: guard({ roles: ['admin'] }),
      },
      async (request) =>
        users.changeAccountType(actorOf(request), request.params.email, request.body.type),
    );
  };
