import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, users } from '../../db/schema.js';
import { buildTestApp, errorCode, type TestApp } from '../../test/app.js';
import { type Identity, startOidcProvider } from '../../test/oidc-provider.js';
import { freePort } from '../../test/smtp.js';

const API = '/api/v1/auth-service/auth';
const CALLBACK = 'http://podium.test/api/v1/auth-service/auth/oauth/callback';
type Idp = Awaited<ReturnType<typeof startOidcProvider>>;

// Tests that start an app of their own (a migrated database each) are slow on a busy
// machine; the provider's own timeouts are what the tests bound.
const SLOW = { timeout: 120_000 };
const closers: { close(): Promise<void> }[] = [];
afterAll(async () => {
  for (const c of closers.reverse()) await c.close();
});

async function setUp(
  provider: {
    tokenAuthMethod: 'client_secret_basic' | 'client_secret_post';
    claimsInIdToken: boolean;
  },
  env: NodeJS.ProcessEnv = {},
) {
  const idp = await startOidcProvider({
    clientId: 'podium',
    clientSecret: 'secret-of-podium',
    redirectUri: CALLBACK,
    ...provider,
  });
  closers.push(idp);
  const t = await buildTestApp({
    env: {
      OIDC_ISSUER: idp.issuer,
      OIDC_CLIENT_ID: 'podium',
      OIDC_CLIENT_SECRET: 'secret-of-podium',
      OIDC_LABEL: 'Școala mea',
      ...env,
    },
  });
  closers.push(t);
  return { idp, t };
}

/** The cookie a response sets for the browser (name=value), if any. */
const cookieFrom = (res: { headers: Record<string, unknown> }) => {
  const header = res.headers['set-cookie'];
  const line = Array.isArray(header) ? header[0] : header;
  return typeof line === 'string' ? line.split(';')[0] : undefined;
};

/** One browser's round trip: start, the person at the provider, back to Podium's callback. */
async function roundTrip(
  t: TestApp,
  idp: Idp,
  who: Identity | 'cancel',
  options: {
    type?: 'student' | 'teacher';
    cookie?: (own: string | undefined) => string | undefined;
  } = {},
) {
  const start = await t.app.inject({ url: `${API}/oidc/start?type=${options.type ?? 'student'}` });
  expect(start.statusCode).toBe(302);
  const own = cookieFrom(start);
  expect(own).toMatch(/^podium_oidc=.{20,}/);
  expect(String(start.headers['set-cookie'])).toMatch(/HttpOnly; SameSite=Lax/);
  const back = new URL(await idp.signIn(start.headers.location as string, who));
  expect(back.href.startsWith(CALLBACK)).toBe(true);
  const cookie = options.cookie ? options.cookie(own) : own;
  const res = await t.app.inject({
    url: back.pathname + back.search,
    headers: cookie ? { cookie } : {},
  });
  expect(res.statusCode).toBe(302);
  return { res, back, landing: new URL(res.headers.location as string) };
}

/** Exchanges the landing's one-time code for a session and reads whoami. */
async function sessionOf(t: TestApp, landing: URL) {
  const uid = landing.searchParams.get('uid');
  const code = landing.searchParams.get('code');
  const session = await t.app.inject({ url: `${API}/oauth/token/${uid}/${code}` });
  expect(session.statusCode).toBe(200);
  const who = await t.app.inject({
    url: `${API}/whoami`,
    headers: { authorization: `Bearer ${session.json().token}` },
  });
  return who.json();
}

describe('school sign-in against a certified provider (claims at userinfo, client_secret_basic)', () => {
  let idp: Idp;
  let t: TestApp;
  beforeAll(async () => {
    ({ idp, t } = await setUp({ tokenAuthMethod: 'client_secret_basic', claimsInIdToken: false }));
  });

  it('says it is enabled, with its label', async () => {
    expect((await t.app.inject({ url: `${API}/oidc` })).json()).toEqual({
      enabled: true,
      label: 'Școala mea',
    });
  });

  it('creates a confirmed teacher account from the userinfo claims when the teacher chose so', async () => {
    const { res, landing } = await roundTrip(
      t,
      idp,
      {
        sub: 'prof-1',
        email: 'Prof.Nou@Scoala.ro',
        email_verified: true,
        given_name: 'Irina',
        family_name: 'Matei',
      },
      { type: 'teacher' },
    );
    expect(landing.origin).toBe('http://podium.test');
    expect(landing.searchParams.get('oauth')).toBe('1');
    // client_secret_basic, the standard's default, unless configured otherwise.
    expect(idp.tokenAuth).toEqual(['basic']);
    // The browser's secret is spent.
    expect(String(res.headers['set-cookie'])).toMatch(/^podium_oidc=; .*Max-Age=0/);
    const uid = landing.searchParams.get('uid');
    const code = landing.searchParams.get('code');
    expect(errorCode(await t.app.inject({ url: `${API}/token/${uid}/${code}` }))).toBe(
      'INVALID_CODE',
    );
    expect(await sessionOf(t, landing)).toMatchObject({
      email: 'prof.nou@scoala.ro',
      type: 'teacher',
      emailConfirmed: true,
      registered: false,
      state: 'inactive',
      givenName: 'Irina',
      familyName: 'Matei',
    });
  });

  it('answers OIDC_FAILED when the end of a school sign-in cannot be exchanged', async () => {
    const { landing } = await roundTrip(t, idp, {
      sub: 'elev-schimb',
      email: 'elev.schimb@scoala.ro',
      email_verified: true,
    });
    const uid = landing.searchParams.get('uid');
    const code = landing.searchParams.get('code');
    expect((await sessionOf(t, landing)).email).toBe('elev.schimb@scoala.ro');
    // Spent, forged or someone else's: the sign-in failed, said so by its own code.
    for (const url of [
      `${API}/oauth/token/${uid}/${code}`,
      `${API}/oauth/token/${uid}/not-the-code`,
      `${API}/oauth/token/00000000-0000-7000-8000-000000000000/${code}`,
    ]) {
      const res = await t.app.inject({ url });
      expect(res.statusCode).toBe(400);
      expect(errorCode(res)).toBe('OIDC_FAILED');
    }
  });

  it('refuses a callback brought to another browser (login CSRF)', async () => {
    for (const cookie of [() => undefined, () => 'podium_oidc=someone-elses-secret']) {
      const { landing } = await roundTrip(
        t,
        idp,
        { sub: 'atacator', email: 'atacator@scoala.ro', email_verified: true },
        { cookie },
      );
      expect(landing.href).toBe('http://podium.test/?oidcError=failed');
    }
    const [account] = await t.database.db
      .select()
      .from(users)
      .where(eq(users.email, 'atacator@scoala.ro'));
    expect(account).toBeUndefined();
  });

  it('lands a cancel, a tampered code or state, and a replay on the sign-in page with the reason', async () => {
    const cancelled = await roundTrip(t, idp, 'cancel');
    expect(cancelled.landing.href).toBe('http://podium.test/?oidcError=cancelled');

    const who = { sub: 'elev-9', email: 'elev9@scoala.ro', email_verified: true };
    const start = await t.app.inject({ url: `${API}/oidc/start` });
    const cookie = cookieFrom(start) as string;
    const back = new URL(await idp.signIn(start.headers.location as string, who));
    const tampered = new URL(back);
    tampered.searchParams.set('code', `${back.searchParams.get('code')}x`);
    const bad = await t.app.inject({
      url: tampered.pathname + tampered.search,
      headers: { cookie },
    });
    expect(bad.headers.location).toBe('http://podium.test/?oidcError=failed');
    // The attempt is spent by the failure: the genuine callback after it is expired.
    const late = await t.app.inject({ url: back.pathname + back.search, headers: { cookie } });
    expect(late.headers.location).toBe('http://podium.test/?oidcError=expired');

    const forged = await t.app.inject({
      url: `${API}/oauth/callback?code=abc&state=forged`,
      headers: { cookie },
    });
    expect(forged.headers.location).toBe('http://podium.test/?oidcError=expired');
  });

  it('refuses addresses the provider does not vouch for', async () => {
    const unverified = await roundTrip(t, idp, {
      sub: 'x1',
      email: 'x1@scoala.ro',
      email_verified: false,
    });
    expect(unverified.landing.href).toBe('http://podium.test/?oidcError=unverified');
    // email_verified absent: refused unless OIDC_TRUST_EMAILS says this provider's are.
    const silent = await roundTrip(t, idp, { sub: 'x2', email: 'x2@scoala.ro' });
    expect(silent.landing.href).toBe('http://podium.test/?oidcError=unverified');
    const none = await roundTrip(t, idp, { sub: 'x3' });
    expect(none.landing.href).toBe('http://podium.test/?oidcError=unverified');
  });

  it("drops the password a stranger set on an unconfirmed account of the owner's address", async () => {
    const signup = await t.app.inject({
      method: 'POST',
      url: `${API}/signup`,
      payload: {
        email: 'victima@scoala.ro',
        password: 'parola-strainului-1',
        type: 'teacher',
        locale: 'ro',
      },
    });
    expect(signup.statusCode).toBe(202);
    // The confirmation reaches the owner's mailbox, unused.
    const mail = await t.lastMail('victima@scoala.ro');

    const { landing } = await roundTrip(
      t,
      idp,
      { sub: 'victima', email: 'victima@scoala.ro', email_verified: true },
      { type: 'student' },
    );
    expect(await sessionOf(t, landing)).toMatchObject({
      email: 'victima@scoala.ro',
      type: 'student',
      emailConfirmed: true,
    });
    const login = await t.app.inject({
      method: 'POST',
      url: `${API}/login`,
      payload: { email: 'victima@scoala.ro', password: 'parola-strainului-1' },
    });
    expect(errorCode(login)).toBe('INVALID_CREDENTIALS');
    // The confirmation link mailed to the address does not work any more either.
    const link = new URL(mail?.link ?? 'http://x/');
    const old = await t.app.inject({
      url: `${API}/token/${link.searchParams.get('uid')}/${link.searchParams.get('code')}`,
    });
    expect(errorCode(old)).toBe('INVALID_CODE');
    const [event] = await t.database.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.entityId, landing.searchParams.get('uid') ?? ''));
    expect(event).toMatchObject({ action: 'user.oidc.link', after: { passwordDropped: true } });
  });

  it('signs a confirmed account in, tells its owner once, and follows the identity after an address change', async () => {
    const u = await t.createUser({ email: 'elev.existent@scoala.ro', type: 'student' });
    const first = await roundTrip(
      t,
      idp,
      { sub: 'elev-existent', email: u.email, email_verified: true },
      { type: 'teacher' },
    );
    expect(first.landing.searchParams.get('uid')).toBe(u.id);
    expect(await sessionOf(t, first.landing)).toMatchObject({ type: 'student', registered: true });
    const told = await t.lastMail(u.email);
    expect(told?.subject).toBe('Contul dumneavoastră Podium se poate deschide acum cu Școala mea');
    // The password still works: the owner proved the mailbox long ago.
    await t.login(u.email, u.password);

    const again = await roundTrip(t, idp, {
      sub: 'elev-existent',
      email: 'adresa.noua@scoala.ro',
      email_verified: true,
    });
    expect(again.landing.searchParams.get('uid')).toBe(u.id);
    await t.deliverMail();
    const mails = await t.lastMail('adresa.noua@scoala.ro');
    expect(mails).toBeUndefined();
    const sameSubject = await t.lastMail(u.email);
    expect(sameSubject?.subject).toBe(told?.subject);
  });

  it('never signs into an anonymised account: not by its placeholder address, not by its old identity', async () => {
    const admin = await t.createUser({ email: 'admin.anonimizare@scoala.ro', type: 'admin' });
    const adminHeaders = await t.login(admin.email, admin.password);
    const u = await t.createUser({ email: 'pleaca@scoala.ro', type: 'student' });
    const linked = await roundTrip(t, idp, {
      sub: 'pleaca',
      email: u.email,
      email_verified: true,
    });
    expect(linked.landing.searchParams.get('uid')).toBe(u.id);
    const anonymised = await t.app.inject({
      method: 'POST',
      url: `/api/v1/user-mgmt/users/${u.id}/anonymise`,
      headers: adminHeaders,
    });
    expect(anonymised.statusCode, anonymised.body).toBe(200);
    const [row] = await t.database.db.select().from(users).where(eq(users.id, u.id));
    const placeholder = row?.email ?? '';
    expect(placeholder).toMatch(/@podium\.invalid$/);

    // A provider asserting the placeholder (any case) is refused like an address it does not vouch for.
    for (const email of [placeholder, placeholder.toUpperCase()]) {
      const asserted = await roundTrip(t, idp, {
        sub: `impostor-${email}`,
        email,
        email_verified: true,
      });
      expect(asserted.landing.href).toBe('http://podium.test/?oidcError=unverified');
    }
    // The identity it had signs in like an unknown one: a new account, never the anonymised one.
    const again = await roundTrip(t, idp, { sub: 'pleaca', email: u.email, email_verified: true });
    expect(again.landing.searchParams.get('uid')).not.toBe(u.id);
    const [still] = await t.database.db.select().from(users).where(eq(users.id, u.id));
    expect(still).toMatchObject({ email: placeholder, emailConfirmedAt: null, passwordHash: null });

    // The other paths answer like an unknown account too.
    const login = await t.app.inject({
      method: 'POST',
      url: `${API}/login`,
      payload: { email: placeholder, password: 'orice-parola-1' },
    });
    expect(errorCode(login)).toBe('INVALID_CREDENTIALS');
    const forgot = await t.app.inject({
      method: 'POST',
      url: `${API}/password/forgot`,
      payload: { email: placeholder },
    });
    expect(forgot.statusCode).toBeLessThan(300);
    await t.deliverMail();
    expect(await t.lastMail(placeholder)).toBeUndefined();
  });

  it('lands on the sign-in page when the provider goes down during the sign-in', async () => {
    const start = await t.app.inject({ url: `${API}/oidc/start` });
    const cookie = cookieFrom(start) as string;
    const back = new URL(
      await idp.signIn(start.headers.location as string, {
        sub: 'elev-10',
        email: 'elev10@scoala.ro',
        email_verified: true,
      }),
    );
    await idp.close();
    const res = await t.app.inject({ url: back.pathname + back.search, headers: { cookie } });
    expect(res.headers.location).toBe('http://podium.test/?oidcError=unavailable');
  });
});

describe('school sign-in with other provider settings', SLOW, () => {
  it('uses client_secret_post and reads claims from the ID token when configured so', async () => {
    const { idp, t } = await setUp(
      { tokenAuthMethod: 'client_secret_post', claimsInIdToken: true },
      { OIDC_TOKEN_AUTH_METHOD: 'client_secret_post' },
    );
    const { landing } = await roundTrip(t, idp, {
      sub: 'p1',
      email: 'post@scoala.ro',
      email_verified: true,
      given_name: 'Ana',
    });
    expect(await sessionOf(t, landing)).toMatchObject({
      email: 'post@scoala.ro',
      givenName: 'Ana',
    });
    expect(idp.tokenAuth).toEqual(['post']);
  });

  it('lands on the sign-in page with a wrong client secret', async () => {
    const { idp, t } = await setUp(
      { tokenAuthMethod: 'client_secret_basic', claimsInIdToken: true },
      { OIDC_CLIENT_SECRET: 'mistyped-secret' },
    );
    const { landing } = await roundTrip(t, idp, {
      sub: 'p2',
      email: 'p2@scoala.ro',
      email_verified: true,
    });
    expect(landing.href).toBe('http://podium.test/?oidcError=failed');
  });

  it("trusts a provider's e-mails without email_verified when OIDC_TRUST_EMAILS is set", async () => {
    const { idp, t } = await setUp(
      { tokenAuthMethod: 'client_secret_basic', claimsInIdToken: false },
      { OIDC_TRUST_EMAILS: 'true' },
    );
    const silent = await roundTrip(t, idp, { sub: 's1', email: 'tacut@scoala.ro' });
    expect(await sessionOf(t, silent.landing)).toMatchObject({ email: 'tacut@scoala.ro' });
    // An explicit "not verified" is still refused.
    const no = await roundTrip(t, idp, { sub: 's2', email: 's2@scoala.ro', email_verified: false });
    expect(no.landing.href).toBe('http://podium.test/?oidcError=unverified');
  });

  it('signs in from a tenant that puts the e-mail in the ID token without email_verified and wants client_secret_post (as Microsoft Entra does), with OIDC_TRUST_EMAILS', async () => {
    const { idp, t } = await setUp(
      { tokenAuthMethod: 'client_secret_post', claimsInIdToken: true },
      { OIDC_TOKEN_AUTH_METHOD: 'client_secret_post', OIDC_TRUST_EMAILS: 'true' },
    );
    const { landing } = await roundTrip(
      t,
      idp,
      { sub: 'entra-1', email: 'Profesor@Liceu.ro', given_name: 'Dan', family_name: 'Pop' },
      { type: 'teacher' },
    );
    expect(await sessionOf(t, landing)).toMatchObject({
      email: 'profesor@liceu.ro',
      type: 'teacher',
      emailConfirmed: true,
      givenName: 'Dan',
    });
    expect(idp.tokenAuth).toEqual(['post']);
  });

  it('lands on the sign-in page when the provider is down before the sign-in starts', async () => {
    const port = await freePort();
    const t = await buildTestApp({
      env: { OIDC_ISSUER: `http://127.0.0.1:${port}`, OIDC_CLIENT_ID: 'podium' },
    });
    closers.push(t);
    const start = await t.app.inject({ url: `${API}/oidc/start?type=teacher` });
    expect(start.statusCode).toBe(302);
    expect(start.headers.location).toBe('http://podium.test/?oidcError=unavailable');
  });
});

describe('OpenID Connect when not configured', SLOW, () => {
  it('is reported off and its routes answer OIDC_NOT_CONFIGURED', async () => {
    const plain = await buildTestApp();
    closers.push(plain);
    expect((await plain.app.inject({ url: `${API}/oidc` })).json()).toMatchObject({
      enabled: false,
    });
    expect(errorCode(await plain.app.inject({ url: `${API}/oidc/start` }))).toBe(
      'OIDC_NOT_CONFIGURED',
    );
  });
});
