import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.js';
import { sessions, users } from '../../db/schema.js';
import type { Clock } from '../../lib/clock.js';
import { createStorage } from '../../lib/files/storage.js';
import { createMailer } from '../../lib/mail/mailer.js';
import { sha256 } from '../../lib/secrets.js';
import { buildTestApp, errorCode, type TestApp } from '../../test/app.js';

const API = '/api/v1/auth-service/auth';
const START = new Date('2026-11-23T09:00:00Z');
let now = new Date(START);
const clock: Clock = { now: () => new Date(now) };
let t: TestApp;

beforeAll(async () => {
  t = await buildTestApp({ clock });
});
afterAll(async () => {
  await t.close();
});

/** Runs `fn` with the server's clock moved forward, then puts it back. */
async function later<T>(ms: number, fn: () => Promise<T>): Promise<T> {
  now = new Date(START.getTime() + ms);
  try {
    return await fn();
  } finally {
    now = new Date(START);
  }
}
const HOUR = 3_600_000;
const MINUTE = 60_000;

const post = (
  url: string,
  payload: unknown,
  headers: Record<string, string> = {},
  remoteAddress?: string,
) =>
  t.app.inject({
    method: 'POST',
    url: `${API}${url}`,
    payload: payload as object,
    headers,
    ...(remoteAddress ? { remoteAddress } : {}),
  });
const whoami = (headers: Record<string, string> = {}) =>
  t.app.inject({ url: `${API}/whoami`, headers });

const linkParams = (link: string | undefined) => {
  const url = new URL(link ?? 'http://x/');
  return { uid: url.searchParams.get('uid') ?? '', code: url.searchParams.get('code') ?? '' };
};

describe('sign-up and e-mail confirmation', () => {
  it('creates an unconfirmed account and mails a one-time link that signs in once', async () => {
    const res = await post('/signup', {
      email: 'Elev.Nou@Example.ro ',
      password: 'parola-sigura-1',
      type: 'student',
      locale: 'ro',
    });
    expect(res.statusCode).toBe(202);
    expect(res.json()).toEqual({ ok: true });

    const mail = await t.lastMail('elev.nou@example.ro');
    expect(mail?.link).toMatch(/^http:\/\/podium\.test\/\?uid=[0-9a-f-]{36}&code=/);
    const { uid, code } = linkParams(mail?.link);

    // Stored with an argon2id hash; no sign-in before the address is confirmed.
    const [row] = await t.database.db.select().from(users).where(eq(users.id, uid));
    expect(row?.passwordHash).toMatch(/^\$argon2id\$/);
    expect(row).toMatchObject({ emailConfirmedAt: null, state: 'inactive', registered: false });
    const early = await post('/login', {
      email: 'elev.nou@example.ro',
      password: 'parola-sigura-1',
    });
    expect(errorCode(early)).toBe('EMAIL_NOT_CONFIRMED');

    const first = await t.app.inject({ url: `${API}/token/${uid}/${code}` });
    expect(first.statusCode).toBe(200);
    const session = first.json() as { token: string; userId: string };
    expect(session.userId).toBe(uid);

    const who = await whoami({ authorization: `Bearer ${session.token}`, userid: uid });
    expect(who.statusCode).toBe(200);
    const user = who.json();
    expect(user).toMatchObject({
      email: 'elev.nou@example.ro',
      type: 'student',
      role: ['student'],
      state: 'inactive',
      registered: false,
      emailConfirmed: true,
    });
    expect(JSON.stringify(user)).not.toMatch(/password|hash/i);

    const again = await t.app.inject({ url: `${API}/token/${uid}/${code}` });
    expect(again.statusCode).toBe(400);
    expect(errorCode(again)).toBe('INVALID_CODE');
    // Confirmed now, so the password signs in.
    expect(
      (await post('/login', { email: 'elev.nou@example.ro', password: 'parola-sigura-1' }))
        .statusCode,
    ).toBe(200);
  });

  it('binds a code to its account and honours it once, even when used twice at once', async () => {
    await post('/signup', {
      email: 'dublu@example.ro',
      password: 'parola-sigura-1',
      type: 'student',
      locale: 'ro',
    });
    const { uid, code } = linkParams((await t.lastMail('dublu@example.ro'))?.link);
    const stranger = await t.createUser();
    expect(errorCode(await t.app.inject({ url: `${API}/token/${stranger.id}/${code}` }))).toBe(
      'INVALID_CODE',
    );
    const both = await Promise.all(
      [1, 2].map(() => t.app.inject({ url: `${API}/token/${uid}/${code}` })),
    );
    expect(both.map((r) => r.statusCode).sort()).toEqual([200, 400]);
    expect(both.map(errorCode)).toContain('INVALID_CODE');
  });

  it('answers the same for a taken address and tells its owner by mail', async () => {
    const owner = await t.createUser({ email: 'ocupat@example.ro', type: 'student' });
    const signup = (email: string) =>
      post('/signup', { email, password: 'alta-parola-1', type: 'teacher', locale: 'en' });
    const fresh = await signup('liber@example.ro');
    const taken = await signup('ocupat@example.ro');
    expect(taken.statusCode).toBe(202);
    expect(taken.statusCode).toBe(fresh.statusCode);
    expect(taken.json()).toEqual(fresh.json());
    expect(taken.headers['content-type']).toBe(fresh.headers['content-type']);

    // The owner hears about it, with no code that would sign anyone in.
    const mail = await t.lastMail('ocupat@example.ro');
    expect(mail?.subject).toBeTruthy();
    expect(mail?.link).toBe('http://podium.test/');
    expect(mail?.text).not.toContain('code=');
    // The existing account is untouched: same role, and the old password still works.
    const headers = await t.login(owner.email, owner.password);
    expect((await whoami(headers)).json()).toMatchObject({ type: 'student', _id: owner.id });
  });

  it('refuses bad sign-up input with field codes and creates nothing', async () => {
    const res = await post('/signup', { email: 'not-an-email', password: 'short', type: 'admin' });
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body.error.code).toBe('VALIDATION_FAILED');
    const byField = Object.fromEntries(
      body.error.details.map((d: { code: string; path: string[] }) => [d.path.at(-1), d.code]),
    );
    expect(byField).toMatchObject({ email: 'invalid_email', password: 'password_too_short' });
    expect(byField.type).toBeDefined();
    expect(await t.lastMail('not-an-email')).toBeUndefined();
  });

  it('accepts a link until it expires, and not after', async () => {
    const signup = (email: string) =>
      post('/signup', { email, password: 'parola-sigura-1', type: 'teacher', locale: 'en' });
    await signup('devreme@example.ro');
    await signup('tarziu@example.ro');
    const early = linkParams((await t.lastMail('devreme@example.ro'))?.link);
    const late = linkParams((await t.lastMail('tarziu@example.ro'))?.link);
    const ttl = t.config.links.confirmTtlHours * HOUR;
    const inTime = await later(ttl - MINUTE, () =>
      t.app.inject({ url: `${API}/token/${early.uid}/${early.code}` }),
    );
    expect(inTime.statusCode).toBe(200);
    const tooLate = await later(ttl + MINUTE, () =>
      t.app.inject({ url: `${API}/token/${late.uid}/${late.code}` }),
    );
    expect(tooLate.statusCode).toBe(400);
    expect(errorCode(tooLate)).toBe('INVALID_CODE');
  });

  it('answers malformed JSON with a 400 and unknown ids with INVALID_CODE', async () => {
    const bad = await t.app.inject({
      method: 'POST',
      url: `${API}/login`,
      headers: { 'content-type': 'application/json' },
      payload: '{"email": ',
    });
    expect(bad.statusCode).toBe(400);
    expect(errorCode(bad)).toBe('CLIENT_ERROR');
    const unknown = await t.app.inject({
      url: `${API}/token/0190a0a0-0000-7000-8000-000000000000/abc`,
    });
    expect(errorCode(unknown)).toBe('INVALID_CODE');
    const notUuid = await t.app.inject({ url: `${API}/token/abc/abc` });
    expect(errorCode(notUuid)).toBe('VALIDATION_FAILED');
  });
});

describe('sign-in', () => {
  it('does not say which part was wrong', async () => {
    const from = '192.0.2.10';
    const u = await t.createUser();
    const unconfirmed = await t.createUser({ emailConfirmedAt: null });
    const attempt = (email: string) =>
      post('/login', { email, password: 'gresit-gresit' }, {}, from);
    const wrongPassword = await attempt(u.email);
    const wrongEmail = await attempt('nimeni@example.ro');
    const wrongUnconfirmed = await attempt(unconfirmed.email);
    expect(wrongPassword.statusCode).toBe(400);
    expect(errorCode(wrongPassword)).toBe('INVALID_CREDENTIALS');
    for (const other of [wrongEmail, wrongUnconfirmed]) {
      expect(other.statusCode).toBe(wrongPassword.statusCode);
      expect(other.json()).toEqual(wrongPassword.json());
    }
  });

  it('answers a flood of auth requests from one address with TOO_MANY_ATTEMPTS', async () => {
    const from = '198.51.100.99';
    const forgot = () => post('/password/forgot', { email: 'fantoma@example.ro' }, {}, from);
    for (let i = 0; i < t.config.rateLimit.authPerMinute; i++) {
      expect((await forgot()).statusCode).toBe(200);
    }
    const flooded = await forgot();
    expect(flooded.statusCode).toBe(429);
    expect(flooded.json().error).toMatchObject({ statusCode: 429, code: 'TOO_MANY_ATTEMPTS' });
  });

  it('counts one address’s auth requests across server processes on one database', async () => {
    const other = await buildApp({
      config: t.config,
      database: t.database,
      mailer: createMailer(t.config, { info: () => {} }),
      storage: createStorage(t.config),
      clock,
      logger: false,
    });
    await other.ready();
    try {
      const from = '198.51.100.98';
      const forgot = (app: typeof other) =>
        app.inject({
          method: 'POST',
          url: `${API}/password/forgot`,
          payload: { email: 'fantoma@example.ro' },
          remoteAddress: from,
        });
      // Half the minute's allowance through each process: together they use it all.
      for (let i = 0; i < t.config.rateLimit.authPerMinute / 2; i++) {
        expect((await forgot(t.app)).statusCode).toBe(200);
        expect((await forgot(other)).statusCode).toBe(200);
      }
      for (const app of [t.app, other]) {
        const flooded = await forgot(app);
        expect(flooded.statusCode).toBe(429);
        expect(Number(flooded.headers['retry-after'])).toBeGreaterThan(0);
      }
    } finally {
      await other.close();
    }
  });

  it('asks to confirm the address first and sends a new link', async () => {
    const u = await t.createUser({ emailConfirmedAt: null, registered: false, state: 'inactive' });
    const res = await post('/login', { email: u.email, password: u.password });
    expect(res.statusCode).toBe(403);
    expect(errorCode(res)).toBe('EMAIL_NOT_CONFIRMED');
    expect((await t.lastMail(u.email))?.link).toContain(`uid=${u.id}`);
  });
});

describe('sessions', () => {
  it('logout revokes that session and no other', async () => {
    const u = await t.createUser();
    const phone = await t.login(u.email, u.password);
    const laptop = await t.login(u.email, u.password);
    const out = await post('/logout', {}, phone);
    expect(out.statusCode).toBe(200);
    expect(out.json()).toEqual({ ok: true });
    const who = await whoami(phone);
    expect(who.statusCode).toBe(401);
    expect(errorCode(who)).toBe('UNAUTHORIZED');
    expect(errorCode(await post('/logout', {}, phone))).toBe('UNAUTHORIZED');
    expect(errorCode(await post('/logout', {}))).toBe('UNAUTHORIZED');
    expect((await whoami(laptop)).statusCode).toBe(200);
  });

  it('whoami needs a valid token whose user matches the userId header', async () => {
    const a = await t.createUser({ type: 'teacher', teacherCode: 'WHO-1' });
    const b = await t.createUser();
    const headers = await t.login(a.email, a.password);
    const invalid: Record<string, string>[] = [
      {},
      { authorization: 'Bearer nope' },
      { authorization: headers.authorization.replace('Bearer', 'Basic') },
      { ...headers, userid: b.id },
    ];
    for (const bad of invalid) {
      const res = await whoami(bad);
      expect(res.statusCode).toBe(401);
      expect(errorCode(res)).toBe('UNAUTHORIZED');
    }
    const me = await whoami(headers);
    expect(me.statusCode).toBe(200);
    // The fields of SPEC.md §3 the app needs, and nothing secret.
    expect(me.json()).toMatchObject({
      _id: a.id,
      email: a.email,
      givenName: a.givenName,
      familyName: a.familyName,
      type: 'teacher',
      role: ['teacher'],
      state: 'active',
      registered: true,
      county: 'Cluj',
      school: a.school,
      teacherCode: 'WHO-1',
      discipline: 'Matematică',
      data: { shortcuts: [] },
    });
    expect(Object.keys(me.json())).not.toContain('passwordHash');
  });

  it('keeps tokens only as hashes, and ends sessions when they expire', async () => {
    const u = await t.createUser();
    const headers = await t.login(u.email, u.password);
    const token = headers.authorization.slice('Bearer '.length);
    const rows = await t.database.db.select().from(sessions).where(eq(sessions.userId, u.id));
    expect(rows.map((r) => r.tokenHash)).toEqual([sha256(token)]);
    expect(JSON.stringify(rows)).not.toContain(token);
    const ttl = t.config.session.ttlHours * HOUR;
    expect((await later(ttl - MINUTE, () => whoami(headers))).statusCode).toBe(200);
    expect((await later(ttl + MINUTE, () => whoami(headers))).statusCode).toBe(401);
  });
});

describe('password reset', () => {
  it('mails a link only to real accounts, answers the same otherwise, and the link works once', async () => {
    const u = await t.createUser();
    const oldSession = await t.login(u.email, u.password);
    const unknown = await post('/password/forgot', { email: 'fantoma@example.ro' });
    const known = await post('/password/forgot', { email: u.email });
    expect(unknown.statusCode).toBe(200);
    expect(known.statusCode).toBe(unknown.statusCode);
    expect(known.json()).toEqual(unknown.json());
    expect(await t.lastMail('fantoma@example.ro')).toBeUndefined();

    const link = (await t.lastMail(u.email))?.link;
    expect(link).toContain('mode=reset');
    const { uid, code } = linkParams(link);
    const reset = await post('/password/reset', { uid, code, password: 'parola-noua-2026' });
    expect(reset.statusCode).toBe(200);
    expect(reset.json().userId).toBe(u.id);

    // Every older session ends; the new one from the reset works.
    expect((await whoami(oldSession)).statusCode).toBe(401);
    expect((await whoami({ authorization: `Bearer ${reset.json().token}` })).statusCode).toBe(200);
    expect(errorCode(await post('/login', { email: u.email, password: u.password }))).toBe(
      'INVALID_CREDENTIALS',
    );
    expect(
      (await post('/login', { email: u.email, password: 'parola-noua-2026' })).statusCode,
    ).toBe(200);
    expect(
      errorCode(await post('/password/reset', { uid, code, password: 'a-treia-parola' })),
    ).toBe('INVALID_CODE');
  });

  it('takes only an unexpired reset code', async () => {
    const u = await t.createUser();
    await post('/password/forgot', { email: u.email });
    const { uid, code } = linkParams((await t.lastMail(u.email))?.link);
    // A reset code is not a sign-in link.
    expect(errorCode(await t.app.inject({ url: `${API}/token/${uid}/${code}` }))).toBe(
      'INVALID_CODE',
    );
    const ttl = t.config.links.resetTtlMinutes * MINUTE;
    const expired = await later(ttl + MINUTE, () =>
      post('/password/reset', { uid, code, password: 'parola-noua-2026' }),
    );
    expect(errorCode(expired)).toBe('INVALID_CODE');
    // Nor is a confirmation code a reset code.
    const v = await t.createUser({ emailConfirmedAt: null });
    await post('/login', { email: v.email, password: v.password });
    const confirm = linkParams((await t.lastMail(v.email))?.link);
    const wrongKind = await post('/password/reset', { ...confirm, password: 'parola-noua-2026' });
    expect(errorCode(wrongKind)).toBe('INVALID_CODE');
    for (const who of [u, v]) {
      expect(
        errorCode(await post('/login', { email: who.email, password: 'parola-noua-2026' })),
      ).toBe('INVALID_CREDENTIALS');
    }
  });

  it('refuses a too short new password and keeps the old one', async () => {
    const u = await t.createUser();
    await post('/password/forgot', { email: u.email });
    const { uid, code } = linkParams((await t.lastMail(u.email))?.link);
    const res = await post('/password/reset', { uid, code, password: '123' });
    expect(errorCode(res)).toBe('VALIDATION_FAILED');
    expect((await post('/login', { email: u.email, password: u.password })).statusCode).toBe(200);
  });
});

describe('registration', () => {
  const student = {
    givenName: 'Ioana',
    familyName: 'Mureșan',
    dateOfBirth: '2012-03-14',
    county: 'Cluj',
    city: 'Turda',
    school: 'Școala Gimnazială nr. 1',
    grade: 8,
    locale: 'ro',
  };
  const teacher = {
    givenName: 'Mihai',
    familyName: 'Ștefănescu',
    county: 'Iași',
    city: 'Iași',
    school: 'Colegiul Național Iași',
    discipline: 'Matematică',
  };
  const newcomer = async (type: 'student' | 'teacher') => {
    const u = await t.createUser({ type, registered: false, state: 'inactive', grade: null });
    return { user: u, headers: await t.login(u.email, u.password) };
  };

  it('applies the team-code rules to students and links them to their teacher', async () => {
    const coach = await t.createUser({ type: 'teacher', teacherCode: 'IS-042' });
    const { headers } = await newcomer('student');

    for (const teacherCode of [undefined, '', '   ']) {
      const missing = await post('/register', { ...student, teacherCode }, headers);
      expect(missing.statusCode).toBe(400);
      expect(errorCode(missing)).toBe('TEACHER_CODE_NOT_PROVIDED');
      expect(missing.json().error.details).toEqual({ teacherCode: ['presence'] });
    }

    const wrong = await post('/register', { ...student, teacherCode: 'NOPE-1' }, headers);
    expect(wrong.statusCode).toBe(400);
    expect(errorCode(wrong)).toBe('TEACHER_CODE_NOT_FOUND');
    expect(wrong.json().error.details).toEqual({ teacherCode: ['teacher_not_found'] });
    expect((await whoami(headers)).json().registered).toBe(false);

    const ok = await post('/register', { ...student, teacherCode: ' is-042 ' }, headers);
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({
      registered: true,
      state: 'inactive',
      teacherRef: coach.id,
      grade: 8,
      familyNameNormalized: 'muresan',
    });

    const twice = await post('/register', { ...student, teacherCode: 'IS-042' }, headers);
    expect(errorCode(twice)).toBe('ALREADY_REGISTERED');
  });

  it('refuses a teacher code that exists and accepts a new one', async () => {
    await t.createUser({ type: 'teacher', teacherCode: 'CJ-001' });
    const { headers } = await newcomer('teacher');
    for (const teacherCode of ['CJ-001', 'cj-001']) {
      const taken = await post('/register', { ...teacher, teacherCode }, headers);
      expect(taken.statusCode).toBe(400);
      expect(errorCode(taken)).toBe('CLIENT_ERROR');
      expect(taken.json().error.details).toEqual({ teacherCode: ['code_exists'] });
    }
    const none = await post('/register', teacher, headers);
    expect(errorCode(none)).toBe('VALIDATION_FAILED');
    expect(none.json().error.details).toEqual([{ code: 'required', path: ['teacherCode'] }]);
    const ok = await post('/register', { ...teacher, teacherCode: 'IS-777' }, headers);
    expect(ok.json()).toMatchObject({ registered: true, teacherCode: 'IS-777', state: 'inactive' });
  });

  it('gives a new team code to one teacher only, even when two ask at once', async () => {
    const a = await newcomer('teacher');
    const b = await newcomer('teacher');
    const both = await Promise.all(
      [a, b].map(({ headers }) =>
        post('/register', { ...teacher, teacherCode: 'BV-100' }, headers),
      ),
    );
    expect(both.map((r) => r.statusCode).sort()).toEqual([200, 400]);
    const loser = both.find((r) => r.statusCode === 400);
    expect(loser?.json().error).toMatchObject({
      code: 'CLIENT_ERROR',
      details: { teacherCode: ['code_exists'] },
    });
  });

  it('keeps a registered account inactive until it is activated', async () => {
    await t.createUser({ type: 'teacher', teacherCode: 'AB-500' });
    const { user, headers } = await newcomer('student');
    const done = await post('/register', { ...student, teacherCode: 'AB-500' }, headers);
    expect(done.json()).toMatchObject({ registered: true, state: 'inactive' });
    // The app learns it from whoami; the server refuses what needs an active account.
    expect((await whoami(headers)).json()).toMatchObject({ registered: true, state: 'inactive' });
    const editProfile = () =>
      t.app.inject({
        method: 'PATCH',
        url: `/api/v1/user-mgmt/users/${encodeURIComponent(user.email)}`,
        payload: { city: 'Dej' },
        headers,
      });
    const refused = await editProfile();
    expect(refused.statusCode).toBe(403);
    expect(errorCode(refused)).toBe('OPERATION_NOT_PERMITTED');
    // Activation (by the coordinating teacher or an admin, through the people screens).
    await t.database.db.update(users).set({ state: 'active' }).where(eq(users.id, user.id));
    const allowed = await editProfile();
    expect(allowed.statusCode).toBe(200);
    expect(allowed.json()).toMatchObject({ city: 'Dej', state: 'active' });
  });

  it('reports each bad field and saves nothing', async () => {
    const s = await t.createUser({ registered: false, state: 'inactive' });
    const headers = await t.login(s.email, s.password);
    const res = await post(
      '/register',
      {
        ...student,
        givenName: 'Io',
        dateOfBirth: '2012-02-30',
        grade: 13,
        county: 'Atlantida',
        teacherCode: 'X',
      },
      headers,
    );
    expect(errorCode(res)).toBe('VALIDATION_FAILED');
    const byField = Object.fromEntries(
      res
        .json()
        .error.details.map((d: { code: string; path: string[] }) => [d.path.at(-1), d.code]),
    );
    expect(byField).toMatchObject({
      givenName: 'too_short',
      dateOfBirth: 'invalid_date',
      grade: 'invalid',
    });
    expect(byField.county).toBeDefined();
    const who = await whoami(headers);
    expect(who.json().registered).toBe(false);
  });

  it('needs a session, is not for admins, nor for another user id', async () => {
    const anonymous = await post('/register', { ...student, teacherCode: 'IS-042' });
    expect(anonymous.statusCode).toBe(401);
    expect(errorCode(anonymous)).toBe('UNAUTHORIZED');
    const admin = await t.createUser({ type: 'admin' });
    const headers = await t.login(admin.email, admin.password);
    const asAdmin = await post('/register', { ...teacher, teacherCode: 'ADM-1' }, headers);
    expect(asAdmin.statusCode).toBe(403);
    expect(errorCode(asAdmin)).toBe('OPERATION_NOT_PERMITTED');
    const s = await t.createUser({ registered: false, state: 'inactive' });
    const sh = await t.login(s.email, s.password);
    const other = await post(
      '/register',
      { ...student, teacherCode: 'IS-042' },
      { ...sh, userid: admin.id },
    );
    expect(other.statusCode).toBe(404);
    expect((await whoami(sh)).json().registered).toBe(false);
  });
});
