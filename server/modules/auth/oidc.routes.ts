import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Config } from '../../config.js';
import { siteOrigin } from '../../lib/origin.js';
import { OidcFailure, type OidcService } from './oidc.service.js';

const CALLBACK_PATH = '/api/v1/auth-service/auth/oauth/callback';
/** Holds the browser's secret of a sign-in in flight; sent only to the callback. */
const COOKIE = 'podium_oidc';

/** The value of one cookie of the request, if present. */
function cookieOf(request: FastifyRequest, name: string): string | undefined {
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/**
 * Optional OpenID Connect sign-in (a school's Google or Microsoft tenant). The callback path
 * contains "oauth"; it ends on the web app with a one-time code that the app exchanges
 * through /auth/oauth/token/{uid}/{code}, as SPEC.md §2 describes, or on the sign-in page with
 * `?oidcError=<reason>` when the sign-in did not finish.
 */
export const oidcRoutes =
  (service: OidcService, config: Config): FastifyPluginAsync =>
  async (app) => {
    const r = app.withTypeProvider<ZodTypeProvider>();
    // The redirect URI and the return to the app, like e-mail links, never follow a forged Host.
    const origin = siteOrigin(config);
    const cookie = (request: FastifyRequest, value: string, maxAge: number) =>
      [
        `${COOKIE}=${value}`,
        `Path=${CALLBACK_PATH}`,
        `Max-Age=${maxAge}`,
        'HttpOnly',
        // Lax: the provider's redirect back is a top-level navigation from another site.
        'SameSite=Lax',
        ...(origin(request).startsWith('https:') ? ['Secure'] : []),
      ].join('; ');
    const failed = (request: FastifyRequest, reply: FastifyReply, error: OidcFailure) => {
      request.log.warn({ reason: error.reason, err: error.cause ?? error }, error.message);
      return reply
        .header('set-cookie', cookie(request, '', 0))
        .redirect(`${origin(request)}/?oidcError=${error.reason}`);
    };

    r.get(
      '/auth/oidc',
      {
        schema: {
          tags: ['auth-service'],
          response: { 200: z.object({ enabled: z.boolean(), label: z.string() }) },
        },
      },
      async () => ({ enabled: service.enabled, label: service.label }),
    );

    r.get(
      '/auth/oidc/start',
      {
        schema: {
          errors: ['OIDC_NOT_CONFIGURED'],
          tags: ['auth-service'],
          description:
            'Redirects to the provider; `type` is the account type of someone without an account.',
          redirect:
            'To the provider’s sign-in page; when the sign-in cannot start, back to Podium with `?oidcError=<reason>`.',
          querystring: z.object({
            type: z
              .enum(['student', 'teacher'])
              .default('student')
              .meta({ description: 'The account type made for someone who has no account yet.' }),
          }),
        },
      },
      async (request, reply) => {
        try {
          const { url, browserSecret } = await service.start(
            request.query.type,
            `${origin(request)}${CALLBACK_PATH}`,
          );
          return reply
            .header('set-cookie', cookie(request, browserSecret, 600))
            .header('cache-control', 'no-store')
            .redirect(url);
        } catch (error) {
          if (error instanceof OidcFailure) return failed(request, reply, error);
          throw error;
        }
      },
    );

    r.get(
      '/auth/oauth/callback',
      {
        schema: {
          errors: ['OIDC_NOT_CONFIGURED'],
          tags: ['auth-service'],
          redirect:
            'Back to Podium: signed in with `?oauth=1&uid=<id>&code=<one-time code>` for the app to exchange, or with `?oidcError=<reason>`.',
          querystring: z
            .object({
              state: z.string().max(200).optional().meta({
                description: 'The state the sign-in started with, as the provider returns it.',
              }),
            })
            .passthrough(),
        },
      },
      async (request, reply) => {
        const callback = new URL(request.url, `${origin(request)}${CALLBACK_PATH}`);
        try {
          const { userId, code } = await service.finish(
            callback,
            cookieOf(request, COOKIE),
            origin(request),
          );
          return reply
            .header('set-cookie', cookie(request, '', 0))
            .redirect(`${origin(request)}/?oauth=1&uid=${userId}&code=${code}`);
        } catch (error) {
          if (error instanceof OidcFailure) return failed(request, reply, error);
          throw error;
        }
      },
    );
  };
