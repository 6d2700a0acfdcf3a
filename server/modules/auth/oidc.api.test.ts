import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, errorCode, type TestApp } from '../../test/app.js';
import { startFakeOidc } from '../../test/fake-oidc.js';

const API = '/api/v1/auth-service/auth';
let t: TestApp;
let idp: Awaited<ReturnType<typeof startFakeOidc>>;

beforeAll(async () => {
  idp = await startFakeOidc('podium-client');
  t = await buildTestApp({
    env: {
      OIDC_ISSUER: idp.issuer,
      OIDC_CLIENT_ID: 'podium-client',
      OIDC_CLIENT_SECRET: 's3cret',
      OIDC_LABEL: 'Școala mea',
    },
  });
});
afterAll(async () => {
  await t.close();
  await idp.close();
});

async function signInThroughProvider(who: Parameters<typeof idp.authorize>[1], type?: 'teacher') {
  const start = await t.app.inject({ url: `${API}/oidc/start${type ? `?type=${type}` : ''}` });
  expect(start.statusCode).toBe(302);
  const { code, state, redirectUri } = idp.authorize(start.headers.location as string, who);
  expect(redirectUri).toBe('http://podium.test/api/v1/auth-service/auth/oauth/callback');
  return t.app.inject({ url: `${API}/oauth/callback?code=${code}&state=${state}` });
}

describe('OpenID Connect sign-in', () => {
  it('says it is enabled, with its label', async () => {
    expect((await t.app.inject({ url: `${API}/oidc` })).json()).toEqual({
      enabled: true,
      label: 'Școala mea',
    });
  });

  it('creates a confirmed account and returns to the app with a one-time oauth code', async () => {
    const back = await signInThroughProvider(
      {
        email: 'Prof.Nou@Scoala.ro',
        email_verified: true,
        given_name: 'Irina',
        family_name: 'Matei',
      },
      'teacher',
    );
    expect(back.statusCode).toBe(302);
    const landing = new URL(back.headers.location as string);
    expect(landing.origin).toBe('http://podium.test');
    expect(landing.search).toContain('oauth');
    const uid = landing.searchParams.get('uid');
    const code = landing.searchParams.get('code');

    // The normal exchange does not take an oauth code; the OAuth one does, once.
    expect(errorCode(await t.app.inject({ url: `${API}/token/${uid}/${code}` }))).toBe(
      'INVALID_CODE',
    );
    const session = await t.app.inject({ url: `${API}/oauth/token/${uid}/${code}` });
    expect(session.statusCode).toBe(200);
    const { token } = session.json();
    const who = await t.app.inject({
      url: `${API}/whoami`,
      headers: { authorization: `Bearer ${token}` },
    });
    expect(who.json()).toMatchObject({
      email: 'prof.nou@scoala.ro',
      type: 'teacher',
      emailConfirmed: true,
      registered: false,
      state: 'inactive',
      givenName: 'Irina',
    });
    expect(errorCode(await t.app.inject({ url: `${API}/oauth/token/${uid}/${code}` }))).toBe(
      'INVALID_CODE',
    );
  });

  it('signs an existing account in without changing it', async () => {
    const u = await t.createUser({ email: 'elev.existent@scoala.ro', type: 'student' });
    const back = await signInThroughProvider({ email: u.email, email_verified: true }, 'teacher');
    const landing = new URL(back.headers.location as string);
    expect(landing.searchParams.get('uid')).toBe(u.id);
    const session = await t.app.inject({
      url: `${API}/oauth/token/${landing.searchParams.get('uid')}/${landing.searchParams.get('code')}`,
    });
    const who = await t.app.inject({
      url: `${API}/whoami`,
      headers: { authorization: `Bearer ${session.json().token}` },
    });
    expect(who.json()).toMatchObject({ type: 'student', registered: true });
  });

  it('refuses unverified addresses and replayed or unknown states', async () => {
    const unverified = await signInThroughProvider({ email: 'x@scoala.ro', email_verified: false });
    expect(errorCode(unverified)).toBe('OIDC_FAILED');
    const unknown = await t.app.inject({ url: `${API}/oauth/callback?code=abc&state=forged` });
    expect(errorCode(unknown)).toBe('OIDC_FAILED');
  });
});

describe('OpenID Connect when not configured', () => {
  it('is reported off and its routes answer OIDC_NOT_CONFIGURED', async () => {
    const plain = await buildTestApp();
    try {
      expect((await plain.app.inject({ url: `${API}/oidc` })).json()).toMatchObject({
        enabled: false,
      });
      expect(errorCode(await plain.app.inject({ url: `${API}/oidc/start` }))).toBe(
        'OIDC_NOT_CONFIGURED',
      );
    } finally {
      await plain.close();
    }
  });
});
