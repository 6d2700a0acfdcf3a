import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { MAX_EMAIL_LENGTH } from '../../../shared/constants.js';
import { EMAIL_RE } from '../../../shared/schemas/fields.js';
import { accountTypeBodySchema, teacherCodeBodySchema } from '../../../shared/schemas/people.js';
import { profilePatchSchema, userSchema } from '../../../shared/schemas/users.js';
import { actorOf, guard } from '../../lib/auth-guard.js';
import type { UsersService } from './users.service.js';

/**
 * `/users/{user}`: SPEC.md §7 reads a user by id (`GET /users/{id}`) and changes a profile by
 * e-mail (`PATCH /users/{email}`) — one path, so one parameter that takes either.
 */
const userParams = z.object({
  user: z
    .union([z.uuid(), z.string().max(MAX_EMAIL_LENGTH).regex(EMAIL_RE)])
    .meta({ description: 'The user: their id (a UUID) or their e-mail address.' }),
});
const emailParams = z.object({
  email: z.string().max(254).meta({ description: "The user's e-mail address." }),
});

export const usersRoutes =
  (users: UsersService): FastifyPluginAsync =>
  async (app) => {
    const r = app.withTypeProvider<ZodTypeProvider>();

    r.get(
      '/users/:user',
      {
        schema: {
          operationId: 'getUser',
          summary: 'A user, by id or e-mail',
          description:
            'Themself, their students, the teachers (for active teachers), everyone for ' +
            'admins; anyone else is 404, never a hint that the account exists.',
          params: userParams,
          response: { 200: userSchema },
        },
        preHandler: guard({ active: false, registered: false }),
      },
      async (request) => users.getUser(actorOf(request), request.params.user),
    );

    r.patch(
      '/users/:user',
      {
        schema: {
          operationId: 'patchUser',
          summary: "Change a user's profile (only the fields sent)",
          description:
            'Their own profile, or anyone’s for admins. Until an account is registered and ' +
            'active its owner may change only `data` (layout settings) and `uiLocale`. A ' +
            "student's `teacherCode` links them to that teacher (400 TEACHER_CODE_NOT_FOUND).",
          errors: ['OPERATION_NOT_PERMITTED'],
          params: userParams,
          body: profilePatchSchema,
          response: { 200: userSchema },
        },
        // Inactive users may still save their layout settings and language.
        preHandler: guard({ active: false, registered: false }),
      },
      async (request) => users.patchProfile(actorOf(request), request.params.user, request.body),
    );

    r.put(
      '/users/:email/teacher-codes',
      {
        schema: {
          summary: "Change a teacher's team code",
          description:
            "Their own, or anyone's for admins; students stay linked to the teacher, not the code.",
          errors: ['OPERATION_NOT_PERMITTED'],
          params: emailParams,
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
          summary: 'Make a student account a teacher one, or the other way round',
          description:
            'Admins: makes a student account a teacher one or the other way round, before it has results or roles; the person then completes the registration of the new type.',
          errors: ['USER_HAS_RESULTS'],
          params: emailParams,
          body: accountTypeBodySchema,
          response: { 200: userSchema },
        },
        preHandler: guard({ roles: ['admin'] }),
      },
      async (request) =>
        users.changeAccountType(actorOf(request), request.params.email, request.body.type),
    );
  };
