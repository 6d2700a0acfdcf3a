import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import * as oidc from 'openid-client';
import { z } from 'zod';
import { safePictureUrl } from '../../../shared/picture.js';
import { stripLayoutControls } from '../../../shared/text-input.js';
import type { Config } from '../../config.js';
import type { Db } from '../../db/client.js';
import type { Clock } from '../../lib/clock.js';
import { AppError } from '../../lib/errors.js';
import { uuidv7 } from '../../lib/ids.js';
import { siteOrigin } from '../../lib/origin.js';
import { normalizeName } from '../../lib/text.js';
import type { UsersService } from '../users/index.js';
import * as repo from './auth.repo.js';
import type { AuthService } from './auth.service.js';

type OidcDeps = { db: Db; config: Config; clock: Clock; users: UsersService; auth: AuthService };

const STATE_TTL_MS = 10 * 60_000;
const isLocal = (url: string) => /^http:\/\/(localhost|127\.0\.0\.1)(:\d+)?(\/|$)/.test(url);

/**
 * Optional OpenID Connect sign-in (a school's Google or Microsoft tenant). The callback path
 * contains "oauth"; it ends on the web app with a one-time code that the app exchanges
 * through /auth/oauth/token/{uid}/{code}, as SPEC.md §2 describes.
 */
export const oidcRoutes =
  ({ db, config, clock, users, auth }: OidcDeps): FastifyPluginAsync =>
  async (app) => {
    const r = app.withTypeProvider<ZodTypeProvider>();
    const { issuer, clientId, clientSecret, label } = config.oidc;
    const enabled = Boolean(issuer && clientId);
    let discovered: Promise<oidc.Configuration> | undefined;

    const configuration = () => {
      if (!issuer || !clientId)
        throw new AppError('OIDC_NOT_CONFIGURED', 'OpenID Connect is not configured');
      discovered ??= oidc
        .discovery(new URL(issuer), clientId, clientSecret, undefined, {
          execute: isLocal(issuer) ? [oidc.allowInsecureRequests] : [],
        })
        .catch((e) => {
          discovered = undefined;
          throw e;
        });
      return discovered;
    };
    // The redirect URI and the return to the app, like e-mail links, never follow a forged Host.
    const origin = siteOrigin(config);
    const callbackUrl = (request: FastifyRequest) =>
      `${origin(request)}/api/v1/auth-service/auth/oauth/callback`;

    r.get(
      '/auth/oidc',
      {
        schema: {
          tags: ['auth-service'],
          response: { 200: z.object({ enabled: z.boolean(), label: z.string() }) },
        },
      },
      async () => ({ enabled, label }),
    );

    r.get(
      '/auth/oidc/start',
      {
        schema: {
          tags: ['auth-service'],
          querystring: z.object({ type: z.enum(['student', 'teacher']).default('student') }),
        },
      },
      async (request, reply) => {
        const cfg = await configuration();
        const codeVerifier = oidc.randomPKCECodeVerifier();
        const state = oidc.randomState();
        const nonce = oidc.randomNonce();
        await repo.insertOidcState(db, {
          state,
          codeVerifier,
          nonce,
          signupType: request.query.type,
          expiresAt: new Date(clock.now().getTime() + STATE_TTL_MS),
        });
        const url = oidc.buildAuthorizationUrl(cfg, {
          redirect_uri: callbackUrl(request),
          scope: 'openid email profile',
          code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
          code_challenge_method: 'S256',
          state,
          nonce,
        });
        return reply.redirect(url.href);
      },
    );

    r.get(
      '/auth/oauth/callback',
      {
        schema: {
          tags: ['auth-service'],
          querystring: z.object({ state: z.string().max(200) }).passthrough(),
        },
      },
      async (request, reply) => {
        const cfg = await configuration();
        const saved = await repo.takeOidcState(db, request.query.state, clock.now());
        if (!saved) throw new AppError('OIDC_FAILED', 'Unknown or expired sign-in attempt');
        const current = new URL(request.url, callbackUrl(request));
        const tokens = await oidc
          .authorizationCodeGrant(cfg, current, {
            pkceCodeVerifier: saved.codeVerifier,
            expectedState: saved.state,
            expectedNonce: saved.nonce,
          })
          .catch((e: unknown) => {
            request.log.warn({ err: e }, 'OpenID Connect code exchange failed');
            throw new AppError('OIDC_FAILED', 'The identity provider did not confirm the sign-in');
          });
        const claims = tokens.claims();
        const email =
          typeof claims?.email === 'string' ? claims.email.trim().toLowerCase() : undefined;
        if (!email || claims?.email_verified !== true) {
          throw new AppError(
            'OIDC_FAILED',
            'The identity provider gave no verified e-mail address',
          );
        }
        // Names as the provider sends them, minus control and direction characters (the
        // sign-up form refuses those; here they are dropped rather than the sign-in refused).
        const str = (v: unknown) => {
          const text = typeof v === 'string' ? stripLayoutControls(v).trim() : '';
          return text ? Array.from(text).slice(0, 100).join('') : null;
        };
        const user =
          (await users.accountByEmail(email)) ??
          (await users.createAccount({
            id: uuidv7(),
            email,
            type: saved.signupType,
            state: 'inactive',
            registered: false,
            emailConfirmedAt: clock.now(),
            givenName: str(claims.given_name),
            familyName: str(claims.family_name),
            givenNameNormalized: normalizeName(str(claims.given_name)),
            familyNameNormalized: normalizeName(str(claims.family_name)),
            picture: safePictureUrl(typeof claims.picture === 'string' ? claims.picture : null),
          })) ??
          (await users.accountByEmail(email));
        if (!user) throw new AppError('OIDC_FAILED', 'The account could not be created');
        if (!user.emailConfirmedAt)
          await users.updateAccount(user.id, { emailConfirmedAt: clock.now() });
        const code = await auth.createLink(user.id, 'oauth', 5 * 60_000);
        return reply.redirect(`${origin(request)}/?oauth=1&uid=${user.id}&code=${code}`);
      },
    );
  };
