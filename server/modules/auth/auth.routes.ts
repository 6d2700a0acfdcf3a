import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  DEVICE_HEADER,
  forgotPasswordSchema,
  loginSchema,
  okSchema,
  resetPasswordSchema,
  sessionSchema,
  signupSchema,
  tokenParamsSchema,
} from '../../../shared/schemas/auth.js';
import { userSchema } from '../../../shared/schemas/users.js';
import type { Config } from '../../config.js';
import { actorOf, guard } from '../../lib/auth-guard.js';
import { siteOrigin } from '../../lib/origin.js';
import type { AuthService, RequestInfo } from './auth.service.js';
import { isDeviceToken } from './throttle.rules.js';

const userIdHeader = z.object({ userid: z.string().max(64).optional() });

export const authRoutes =
  (auth: AuthService, config: Config): FastifyPluginAsync =>
  async (app) => {
    const r = app.withTypeProvider<ZodTypeProvider>();
    // Counted per address in the database, so every process of every instance shares one count.
    const limited = {
      rateLimit: {
        max: config.rateLimit.authPerMinute,
        timeWindow: '1 minute',
        acrossProcesses: true,
      },
    };
    const originOf = siteOrigin(config);
    const info = (request: FastifyRequest): RequestInfo => ({
      origin: originOf(request),
      ip: request.ip,
      userAgent: request.headers['user-agent'],
      deviceToken: isDeviceToken(request.headers[DEVICE_HEADER])
        ? request.headers[DEVICE_HEADER]
        : undefined,
    });

    r.post(
      '/auth/signup',
      {
        config: limited,
        schema: { tags: ['auth-service'], body: signupSchema, response: { 202: okSchema } },
      },
      async (request, reply) =>
        reply.status(202).send(await auth.signup(request.body, info(request))),
    );

    r.get(
      '/auth/token/:uid/:code',
      {
        config: limited,
        schema: {
          errors: ['INVALID_CODE'],
          tags: ['auth-service'],
          params: tokenParamsSchema,
          response: { 200: sessionSchema },
        },
      },
      async (request) =>
        auth.exchangeCode(request.params.uid, request.params.code, 'link', info(request)),
    );

    r.get(
      '/auth/oauth/token/:uid/:code',
      {
        config: limited,
        schema: {
          errors: ['OIDC_FAILED'],
          tags: ['auth-service'],
          params: tokenParamsSchema,
          response: { 200: sessionSchema },
        },
      },
      async (request) =>
        auth.exchangeCode(request.params.uid, request.params.code, 'oauth', info(request)),
    );

    r.post(
      '/auth/login',
      {
        config: limited,
        schema: {
          errors: ['INVALID_CREDENTIALS', 'EMAIL_NOT_CONFIRMED'],
          tags: ['auth-service'],
          body: loginSchema,
          response: { 200: sessionSchema },
        },
      },
      async (request) => auth.login(request.body, info(request)),
    );

    r.post(
      '/auth/password/forgot',
      {
        config: limited,
        schema: { tags: ['auth-service'], body: forgotPasswordSchema, response: { 200: okSchema } },
      },
      async (request) => auth.forgotPassword(request.body, info(request)),
    );

    r.post(
      '/auth/password/reset',
      {
        config: limited,
        schema: {
          errors: ['INVALID_CODE'],
          tags: ['auth-service'],
          body: resetPasswordSchema,
          response: { 200: sessionSchema },
        },
      },
      async (request) => auth.resetPassword(request.body, info(request)),
    );

    r.get(
      '/auth/whoami',
      {
        schema: { tags: ['auth-service'], headers: userIdHeader, response: { 200: userSchema } },
        preHandler: guard({ active: false, registered: false }),
      },
      async (request) => auth.whoami(actorOf(request), request.headers.userid),
    );

    r.post(
      '/auth/register',
      {
        schema: {
          errors: ['ALREADY_REGISTERED', 'TEACHER_CODE_NOT_PROVIDED', 'TEACHER_CODE_NOT_FOUND'],
          tags: ['auth-service'],
          description:
            'Completes the profile: registerTeacherSchema for teachers, registerStudentSchema for students.',
          headers: userIdHeader,
          body: z.record(z.string(), z.unknown()),
          response: { 200: userSchema },
        },
        preHandler: guard({ active: false, registered: false, roles: ['student', 'teacher'] }),
      },
      async (request) => auth.register(actorOf(request), request.headers.userid, request.body),
    );

    r.post(
      '/auth/logout',
      {
        schema: { tags: ['auth-service'], response: { 200: okSchema } },
        preHandler: guard({ active: false, registered: false }),
      },
      async (request) => auth.logout(actorOf(request)),
    );
  };
