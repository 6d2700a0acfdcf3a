import { generateKeyPairSync } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

/** What the provider knows of a person (standard claims). */
export type Identity = {
  sub: string;
  email?: string;
  email_verified?: boolean;
  given_name?: string;
  family_name?: string;
};

export type ProviderOptions = {
  clientId: string;
  clientSecret: string;
  redirectUri: string;
  /** How the client must authenticate at the token endpoint. */
  tokenAuthMethod: 'client_secret_basic' | 'client_secret_post';
  /**
   * true: the ID token carries the e-mail and profile claims. false (the standard's default
   * for the code flow): the ID token carries `sub` only and the rest is at userinfo.
   */
  claimsInIdToken: boolean;
};

/**
 * A certified OpenID provider (the `oidc-provider` package) on a free local port, with the
 * login and consent screens replaced by `signIn`, which plays the person in the browser: it
 * follows the authorization URL with the provider's cookies and answers each interaction
 * with the identity given (or cancels), then returns the URL the provider sends back.
 */
export async function startOidcProvider(options: ProviderOptions) {
  const accounts = new Map<string, Identity>();
  let next: Identity | 'cancel' | undefined;
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const jwk = { ...privateKey.export({ format: 'jwk' }), kid: 'test-key', use: 'sig' };

  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: options.clientId,
        client_secret: options.clientSecret,
        redirect_uris: [options.redirectUri],
        token_endpoint_auth_method: options.tokenAuthMethod,
        grant_types: ['authorization_code'],
        response_types: ['code'],
      },
    ],
    jwks: { keys: [jwk as never] },
    cookies: { keys: ['podium-test-cookies'] },
    claims: {
      openid: ['sub'],
      email: ['email', 'email_verified'],
      profile: ['given_name', 'family_name'],
    },
    conformIdTokenClaims: !options.claimsInIdToken,
    pkce: { required: () => true },
    features: { devInteractions: { enabled: false } },
    async findAccount(_ctx, sub) {
      const who = accounts.get(sub);
      if (!who) return undefined;
      return { accountId: sub, claims: () => ({ ...who }) };
    },
  });
  provider.on('server_error', (_ctx, err) => console.error('oidc-provider:', err));
  const callback = provider.callback();

  /** How the client authenticated at each token request: Basic header or the form body. */
  const tokenAuth: ('basic' | 'post')[] = [];
  /** Set by willSignIn: stop the provider once it has sent the browser back to the client. */
  let stopAfterReturn = false;
  server.on('request', (req, res) => {
    const url = new URL(req.url ?? '/', issuer);
    res.on('finish', () => {
      const location = res.getHeader('location');
      if (stopAfterReturn && String(location ?? '').startsWith(options.redirectUri)) {
        stopAfterReturn = false;
        server.closeAllConnections();
        server.close();
      }
    });
    if (url.pathname === '/token') {
      tokenAuth.push(req.headers.authorization?.startsWith('Basic ') ? 'basic' : 'post');
    }
    if (!url.pathname.startsWith('/interaction/')) {
      callback(req, res);
      return;
    }
    // The provider's login and consent screens: answered with what the test chose.
    void (async () => {
      try {
        const details = await provider.interactionDetails(req, res);
        if (next === 'cancel' || next === undefined) {
          await provider.interactionFinished(req, res, {
            error: 'access_denied',
            error_description: 'End-User aborted interaction',
          });
          return;
        }
        if (details.prompt.name === 'login') {
          accounts.set(next.sub, next);
          await provider.interactionFinished(req, res, { login: { accountId: next.sub } });
          return;
        }
        const grant = new provider.Grant({
          accountId: details.session?.accountId ?? next.sub,
          clientId: options.clientId,
        });
        grant.addOIDCScope(String(details.params.scope ?? 'openid'));
        const grantId = await grant.save();
        await provider.interactionFinished(
          req,
          res,
          { consent: { grantId } },
          { mergeWithLastSubmission: true },
        );
      } catch (error) {
        res.statusCode = 500;
        res.end(String(error));
      }
    })();
  });

  /** Follows redirects on the provider's side, keeping its cookies like a browser. */
  async function browse(start: string): Promise<string> {
    const jar = new Map<string, string>();
    let url = start;
    for (let hop = 0; hop < 10; hop++) {
      if (!url.startsWith(issuer)) return url;
      const res = await fetch(url, {
        redirect: 'manual',
        headers: { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') },
      });
      for (const line of res.headers.getSetCookie()) {
        const [pair = ''] = line.split(';');
        const eq = pair.indexOf('=');
        jar.set(pair.slice(0, eq), pair.slice(eq + 1));
      }
      const location = res.headers.get('location');
      if (!location) throw new Error(`provider answered ${res.status}: ${await res.text()}`);
      url = new URL(location, url).href;
    }
    throw new Error('too many redirects at the provider');
  }

  return {
    issuer,
    accounts,
    tokenAuth,
    /**
     * What the provider's screens do for the next browser that comes (a browser test); with
     * `thenStop`, the provider goes down right after sending that browser back, before the
     * client can redeem the code.
     */
    willSignIn(who: Identity | 'cancel', { thenStop = false } = {}) {
      next = who;
      stopAfterReturn = thenStop;
    },
    /** Signs `who` in at the authorization URL (or cancels); the URL the provider returns to. */
    async signIn(authorizationUrl: string, who: Identity | 'cancel'): Promise<string> {
      next = who;
      try {
        return await browse(authorizationUrl);
      } finally {
        next = undefined;
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
