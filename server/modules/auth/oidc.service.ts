import * as oidc from 'openid-client';
import { safePictureUrl } from '../../../shared/picture.js';
import type { OidcErrorReason } from '../../../shared/schemas/auth.js';
import { stripLayoutControls } from '../../../shared/text-input.js';
import type { Config } from '../../config.js';
import type { Db } from '../../db/client.js';
import { appendAudit } from '../../lib/audit.js';
import type { Clock } from '../../lib/clock.js';
import { AppError } from '../../lib/errors.js';
import { uuidv7 } from '../../lib/ids.js';
import type { MailOutbox } from '../../lib/mail/outbox.js';
import { randomToken, sha256 } from '../../lib/secrets.js';
import { normalizeName } from '../../lib/text.js';
import { isPlaceholderEmail, type UsersService } from '../users/index.js';
import { canSignIn } from './auth.policy.js';
import * as repo from './auth.repo.js';
import type { AuthService } from './auth.service.js';

export type OidcDeps = {
  db: Db;
  config: Config;
  clock: Clock;
  users: UsersService;
  auth: Pick<AuthService, 'createLink'>;
  outbox: Pick<MailOutbox, 'enqueue'>;
};

const STATE_TTL_MS = 10 * 60_000;
/** Each call to the provider (discovery, token, userinfo) gives up after this. */
const PROVIDER_TIMEOUT_SECONDS = 10;
const isLocal = (url: string) => /^http:\/\/(localhost|127\.0\.0\.1)(:\d+)?(\/|$)/.test(url);

/** A sign-in that did not finish, with the reason the sign-in page shows. */
export class OidcFailure extends Error {
  constructor(
    readonly reason: OidcErrorReason,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** Network trouble (refused, reset, timed out, no such host) anywhere in the cause chain. */
function isUnreachable(error: unknown): boolean {
  let e: unknown = error;
  for (let depth = 0; depth < 6 && typeof e === 'object' && e !== null; depth++) {
    const { code, name, message } = e as { code?: unknown; name?: unknown; message?: unknown };
    if (
      typeof code === 'string' &&
      /^(ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|UND_ERR_)/.test(code)
    )
      return true;
    if (name === 'TimeoutError' || name === 'AbortError') return true;
    if (name === 'TypeError' && message === 'fetch failed') return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}

/**
 * Names as the provider sends them, minus control and direction characters (the sign-up form
 * refuses those; here they are dropped rather than the sign-in refused).
 */
const text = (v: unknown) => {
  const value = typeof v === 'string' ? stripLayoutControls(v).trim() : '';
  return value ? Array.from(value).slice(0, 100).join('') : null;
};

/**
 * School sign-in (OpenID Connect, code flow with PKCE, state and nonce). Each attempt is
 * bound to the browser that started it (a cookie whose hash the attempt keeps), so a callback
 * URL captured elsewhere signs nobody in. Accounts are found by the linked identity
 * (issuer + subject), else by e-mail; an account whose e-mail was never confirmed loses its
 * password when linked (whoever set it never proved the mailbox), and linking a confirmed
 * account mails its owner.
 */
export function oidcService({ db, config, clock, users, auth, outbox }: OidcDeps) {
  const { issuer, clientId, clientSecret, label, tokenAuthMethod, trustEmails } = config.oidc;
  const enabled = Boolean(issuer && clientId);
  let discovered: Promise<oidc.Configuration> | undefined;

  /** The provider's metadata, fetched once (again after a failure). */
  function configuration(): Promise<oidc.Configuration> {
    if (!issuer || !clientId)
      throw new AppError('OIDC_NOT_CONFIGURED', 'OpenID Connect is not configured');
    const authentication =
      tokenAuthMethod === 'client_secret_post'
        ? oidc.ClientSecretPost(clientSecret)
        : oidc.ClientSecretBasic(clientSecret);
    discovered ??= oidc
      .discovery(new URL(issuer), clientId, undefined, authentication, {
        execute: isLocal(issuer) ? [oidc.allowInsecureRequests] : [],
        timeout: PROVIDER_TIMEOUT_SECONDS,
      })
      .then((cfg) => {
        cfg.timeout = PROVIDER_TIMEOUT_SECONDS;
        return cfg;
      })
      .catch((e: unknown) => {
        discovered = undefined;
        throw new OidcFailure('unavailable', 'The identity provider did not answer', {
          cause: e,
        });
      });
    return discovered;
  }

  /** The verified e-mail and the claims of the person, reading userinfo when needed. */
  async function personOf(
    cfg: oidc.Configuration,
    tokens: oidc.TokenEndpointResponse & oidc.TokenEndpointResponseHelpers,
  ) {
    const idClaims = tokens.claims();
    if (!idClaims) throw new OidcFailure('failed', 'No ID token');
    let claims: Record<string, unknown> = { ...idClaims };
    // Providers that follow the standard's defaults put the profile in userinfo only.
    if (typeof claims.email !== 'string') {
      const info = await oidc
        .fetchUserInfo(cfg, tokens.access_token, idClaims.sub)
        .catch((e: unknown) => {
          throw new OidcFailure(
            isUnreachable(e) ? 'unavailable' : 'failed',
            'The identity provider gave no profile',
            { cause: e },
          );
        });
      claims = { ...info, ...idClaims, email: info.email, email_verified: info.email_verified };
    }
    const email = typeof claims.email === 'string' ? claims.email.trim().toLowerCase() : undefined;
    const verified =
      claims.email_verified === true || (trustEmails && claims.email_verified === undefined);
    // A placeholder (anonymised or deleted account, `.invalid`) is no one's mailbox, whatever
    // the provider says: answered like an address it does not vouch for.
    if (!email || !verified || isPlaceholderEmail(email)) {
      throw new OidcFailure('unverified', 'The identity provider gave no verified e-mail');
    }
    return { subject: idClaims.sub, issuer: idClaims.iss, email, claims };
  }

  return {
    enabled,
    label,

    /**
     * Starts a sign-in: the provider's authorization URL and the browser secret to set as a
     * cookie. `type` is the account type of a person who has no account yet.
     */
    async start(
      type: 'student' | 'teacher',
      callbackUrl: string,
    ): Promise<{ url: string; browserSecret: string }> {
      const cfg = await configuration();
      const codeVerifier = oidc.randomPKCECodeVerifier();
      const state = oidc.randomState();
      const nonce = oidc.randomNonce();
      const browserSecret = randomToken();
      await repo.insertOidcState(db, {
        state,
        codeVerifier,
        nonce,
        browserHash: sha256(browserSecret),
        signupType: type,
        expiresAt: new Date(clock.now().getTime() + STATE_TTL_MS),
      });
      const url = oidc.buildAuthorizationUrl(cfg, {
        redirect_uri: callbackUrl,
        scope: 'openid email profile',
        code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
        code_challenge_method: 'S256',
        state,
        nonce,
      });
      return { url: url.href, browserSecret };
    },

    /**
     * Finishes a sign-in from the provider's redirect: checks that this browser started it,
     * exchanges the code, finds or creates the account, and returns the one-time code the
     * web app exchanges for a session. Any failure is an OidcFailure with its reason.
     */
    async finish(
      callback: URL,
      browserSecret: string | undefined,
      origin: string,
    ): Promise<{ userId: string; code: string }> {
      const cfg = await configuration();
      const stateParam = callback.searchParams.get('state') ?? '';
      const saved = stateParam ? await repo.takeOidcState(db, stateParam, clock.now()) : undefined;
      if (!saved) throw new OidcFailure('expired', 'Unknown or expired sign-in attempt');
      if (!browserSecret || sha256(browserSecret) !== saved.browserHash) {
        throw new OidcFailure('failed', 'The sign-in was started in another browser');
      }
      const tokens = await oidc
        .authorizationCodeGrant(cfg, callback, {
          pkceCodeVerifier: saved.codeVerifier,
          expectedState: saved.state,
          expectedNonce: saved.nonce,
        })
        .catch((e: unknown) => {
          if (e instanceof oidc.AuthorizationResponseError && e.error === 'access_denied') {
            throw new OidcFailure('cancelled', 'Cancelled at the identity provider', { cause: e });
          }
          throw new OidcFailure(
            isUnreachable(e) ? 'unavailable' : 'failed',
            'The identity provider did not confirm the sign-in',
            { cause: e },
          );
        });
      const person = await personOf(cfg, tokens);
      const userId = await db.transaction((tx) =>
        linkAccount(tx, person, saved.signupType, origin),
      );
      const code = await auth.createLink(userId, 'oauth', 5 * 60_000);
      return { userId, code };
    },
  };

  /** The account this identity signs in, created or linked as the rules above say. */
  async function linkAccount(
    tx: Db,
    person: { issuer: string; subject: string; email: string; claims: Record<string, unknown> },
    signupType: 'student' | 'teacher',
    origin: string,
  ): Promise<string> {
    const now = clock.now();
    const identity = { issuer: person.issuer, subject: person.subject };
    const linked = await repo.findOidcIdentity(tx, identity.issuer, identity.subject);
    if (linked) {
      const owner = await users.accountById(linked.userId, tx);
      // An anonymised owner is nobody's any more: the identity signs in like an unknown one.
      if (canSignIn(owner)) return owner.id;
    }
    const names = {
      givenName: text(person.claims.given_name),
      familyName: text(person.claims.family_name),
    };
    const existing = await users.accountByEmail(person.email, tx);
    if (!existing) {
      const created = await users.createAccount(
        {
          id: uuidv7(),
          email: person.email,
          type: signupType,
          state: 'inactive',
          registered: false,
          emailConfirmedAt: now,
          ...names,
          givenNameNormalized: normalizeName(names.givenName),
          familyNameNormalized: normalizeName(names.familyName),
          picture: safePictureUrl(
            typeof person.claims.picture === 'string' ? person.claims.picture : null,
          ),
        },
        tx,
      );
      // Created by a concurrent sign-in of the same person: the unique e-mail decided it.
      const account = created ?? (await users.accountByEmail(person.email, tx));
      if (!account) throw new OidcFailure('failed', 'The account could not be created');
      await repo.linkOidcIdentity(tx, { ...identity, userId: account.id });
      return account.id;
    }

    await repo.linkOidcIdentity(tx, { ...identity, userId: existing.id });
    if (!existing.emailConfirmedAt) {
      // Whoever chose this account's password never proved the mailbox; the provider just
      // did. Their password goes, with any session or link, and the account is the owner's.
      await users.updateAccount(
        existing.id,
        {
          passwordHash: null,
          emailConfirmedAt: now,
          ...(existing.registered ? {} : { type: signupType }),
        },
        tx,
      );
      await repo.revokeUserSessions(tx, existing.id, now);
      await repo.spendLinks(tx, existing.id, now);
      await appendAudit(tx, {
        actorId: existing.id,
        action: 'user.oidc.link',
        entityType: 'user',
        entityId: existing.id,
        after: { issuer: identity.issuer, passwordDropped: true },
      });
    } else {
      await outbox.enqueue(tx, {
        template: 'oidc-linked',
        to: existing.email,
        userId: existing.id,
        locale: existing.uiLocale,
        params: { label, link: `${origin}/` },
      });
      await appendAudit(tx, {
        actorId: existing.id,
        action: 'user.oidc.link',
        entityType: 'user',
        entityId: existing.id,
        after: { issuer: identity.issuer },
      });
    }
    return existing.id;
  }
}

export type OidcService = ReturnType<typeof oidcService>;
