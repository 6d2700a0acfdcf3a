import { createHash, generateKeyPairSync, randomBytes, sign } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type FakeIdentity = {
  email: string;
  email_verified: boolean;
  given_name?: string;
  family_name?: string;
};

/**
 * A minimal OpenID Connect provider for tests: discovery, an authorize step driven by the
 * test, and a token endpoint that checks PKCE and returns a signed ID token.
 */
export async function startFakeOidc(clientId: string) {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const jwk = { ...publicKey.export({ format: 'jwk' }), kid: 'k1', alg: 'RS256', use: 'sig' };
  const grants = new Map<
    string,
    { challenge: string; nonce: string; redirectUri: string; who: FakeIdentity }
  >();
  const b64 = (v: object | Buffer) =>
    Buffer.from(Buffer.isBuffer(v) ? v : JSON.stringify(v)).toString('base64url');
  let issuer = '';

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', issuer);
    const json = (status: number, body: object) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (url.pathname === '/.well-known/openid-configuration') {
      return json(200, {
        issuer,
        authorization_endpoint: `${issuer}/authorize`,
        token_endpoint: `${issuer}/token`,
        jwks_uri: `${issuer}/jwks`,
        response_types_supported: ['code'],
        subject_types_supported: ['public'],
        id_token_signing_alg_values_supported: ['RS256'],
        code_challenge_methods_supported: ['S256'],
      });
    }
    if (url.pathname === '/jwks') return json(200, { keys: [jwk] });
    if (url.pathname === '/token' && req.method === 'POST') {
      let raw = '';
      req.on('data', (c) => {
        raw += c;
      });
      req.on('end', () => {
        const form = new URLSearchParams(raw);
        const grant = grants.get(form.get('code') ?? '');
        grants.delete(form.get('code') ?? '');
        const verifier = form.get('code_verifier') ?? '';
        const challenge = createHash('sha256').update(verifier).digest('base64url');
        if (
          !grant ||
          grant.challenge !== challenge ||
          grant.redirectUri !== form.get('redirect_uri')
        ) {
          return json(400, { error: 'invalid_grant' });
        }
        const now = Math.floor(Date.now() / 1000);
        const header = b64({ alg: 'RS256', kid: 'k1', typ: 'JWT' });
        const payload = b64({
          iss: issuer,
          aud: clientId,
          sub: grant.who.email,
          iat: now,
          exp: now + 300,
          nonce: grant.nonce,
          ...grant.who,
        });
        const signature = sign('sha256', Buffer.from(`${header}.${payload}`), privateKey).toString(
          'base64url',
        );
        return json(200, {
          access_token: randomBytes(16).toString('hex'),
          token_type: 'Bearer',
          expires_in: 300,
          id_token: `${header}.${payload}.${signature}`,
        });
      });
      return;
    }
    json(404, { error: 'not_found' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    issuer,
    /** What the provider does when the person signs in at the authorization URL. */
    authorize(
      authorizationUrl: string,
      who: FakeIdentity,
    ): { code: string; state: string; redirectUri: string } {
      const u = new URL(authorizationUrl);
      const code = randomBytes(12).toString('hex');
      const redirectUri = u.searchParams.get('redirect_uri') ?? '';
      grants.set(code, {
        challenge: u.searchParams.get('code_challenge') ?? '',
        nonce: u.searchParams.get('nonce') ?? '',
        redirectUri,
        who,
      });
      return { code, state: u.searchParams.get('state') ?? '', redirectUri };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
