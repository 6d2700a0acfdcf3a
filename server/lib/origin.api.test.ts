import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../test/app.js';
import { startFakeOidc } from '../test/fake-oidc.js';

// Links in e-mails and the OpenID Connect round trip, with PUBLIC_ORIGIN unset (the quick
// start) and behind a proxy: whatever Host or X-Forwarded-* a request carries, links point at
// the listen origin or at one of LINK_ORIGINS, never at a host the sender made up.
const AUTH = '/api/v1/auth-service/auth';
const LISTEN = 'http://localhost:3000';
const LAN = 'http://podium.lan:3000';
const forged: Record<string, Record<string, string>> = {
  'a forged Host': { host: 'evil.example' },
  'a forged X-Forwarded-Host': {
    'x-forwarded-host': 'evil.example',
    'x-forwarded-proto': 'https',
  },
  'an allowed host over another scheme': { host: 'podium.lan:3000', 'x-forwarded-proto': 'https' },
};

let t: TestApp;
let idp: Awaited<ReturnType<typeof startFakeOidc>>;

beforeAll(async () => {
  idp = await startFakeOidc('podium-client');
  t = await buildTestApp({
    env: {
      PUBLIC_ORIGIN: '',
      HOST: '0.0.0.0',
      PORT: '3000',
      TRUST_PROXY: 'true',
      LINK_ORIGINS: `${LAN}, https://podium.example.ro/`,
      OIDC_ISSUER: idp.issuer,
      OIDC_CLIENT_ID: 'podium-client',
      OIDC_CLIENT_SECRET: 's3cret',
    },
  });
});
afterAll(async () => {
  await t.close();
  await idp.close();
});

const post = (url: string, payload: object, headers: Record<string, string>) =>
  t.app.inject({ method: 'POST', url, payload, headers });
const linkOf = async (email: string) => (await t.lastMail(email))?.link ?? '';

describe.each(Object.entries(forged))('with %s', (_, headers) => {
  it('mails reset, confirmation and sign-up links to the listen origin', async () => {
    const u = await t.createUser();
    expect((await post(`${AUTH}/password/forgot`, { email: u.email }, headers)).statusCode).toBe(
      200,
    );
    expect(await linkOf(u.email)).toMatch(new RegExp(`^${LISTEN}/\\?mode=reset&uid=`));

    const fresh = `nou-${Math.random().toString(36).slice(2)}@example.ro`;
    const signup = { email: fresh, password: 'parola-sigura-1', type: 'student', locale: 'ro' };
    expect((await post(`${AUTH}/signup`, signup, headers)).statusCode).toBe(202);
    expect(await linkOf(fresh)).toMatch(new RegExp(`^${LISTEN}/\\?uid=`));
    // The same address again: its owner is told, with a link to the site.
    await post(`${AUTH}/signup`, signup, headers);
    expect(await linkOf(fresh)).toBe(`${LISTEN}/`);

    const unconfirmed = await t.createUser({ emailConfirmedAt: null });
    const login = { email: unconfirmed.email, password: unconfirmed.password };
    expect((await post(`${AUTH}/login`, login, headers)).statusCode).toBe(403);
    expect(await linkOf(unconfirmed.email)).toMatch(new RegExp(`^${LISTEN}/\\?uid=`));
  });

  it('mails activation news with a link to the listen origin', async () => {
    const admin = await t.createUser({ type: 'admin' });
    const student = await t.createUser({ state: 'inactive' });
    const auth = await t.login(admin.email, admin.password);
    const res = await post(
      '/api/v1/user-mgmt/students/state',
      { students: [{ email: student.email, state: 'active' }] },
      { ...auth, ...headers },
    );
    expect(res.statusCode).toBe(200);
    expect(await linkOf(student.email)).toBe(`${LISTEN}/`);
  });

  it('sends the identity provider and the browser back to the listen origin', async () => {
    const start = await t.app.inject({ url: `${AUTH}/oidc/start`, headers });
    expect(start.statusCode).toBe(302);
    const who = { email: `oidc-${Math.random().toString(36).slice(2)}@x.ro`, email_verified: true };
    const { code, state, redirectUri } = idp.authorize(start.headers.location as string, who);
    expect(redirectUri).toBe(`${LISTEN}/api/v1/auth-service/auth/oauth/callback`);
    // The browser that started the sign-in brings back its cookie.
    const cookie = String(start.headers['set-cookie']).split(';')[0] ?? '';
    const back = await t.app.inject({
      url: `${AUTH}/oauth/callback?code=${code}&state=${state}`,
      headers: { ...headers, cookie },
    });
    expect(back.statusCode).toBe(302);
    const landing = new URL(back.headers.location as string);
    expect(landing.origin).toBe(LISTEN);
    expect(landing.searchParams.get('oauth')).toBe('1');
  });
});

describe('an origin of LINK_ORIGINS', () => {
  it('gets links to itself, directly or as the proxy reports it', async () => {
    const u = await t.createUser();
    await post(`${AUTH}/password/forgot`, { email: u.email }, { host: 'podium.lan:3000' });
    expect(await linkOf(u.email)).toMatch(new RegExp(`^${LAN}/\\?mode=reset`));
    await post(
      `${AUTH}/password/forgot`,
      { email: u.email },
      { 'x-forwarded-host': 'podium.example.ro', 'x-forwarded-proto': 'https' },
    );
    expect(await linkOf(u.email)).toMatch(/^https:\/\/podium\.example\.ro\/\?mode=reset/);
  });
});
