import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Clock } from '../../lib/clock.js';
import { buildTestApp, errorCode, type TestApp } from '../../test/app.js';

const API = '/api/v1/auth-service/auth';
let now = new Date('2026-11-23T09:00:00Z');
const clock: Clock = { now: () => new Date(now) };
let t: TestApp;

beforeAll(async () => {
  t = await buildTestApp({ clock });
});
afterAll(async () => {
  await t.close();
});

const post = (url: string, payload: unknown, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url: `${API}${url}`, payload: payload as object, headers });

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

    const first = await t.app.inject({ url: `${API}/token/${uid}/${code}` });
    expect(first.statusCode).toBe(200);
    const session = first.json() as { token: string; userId: string };
    expect(session.userId).toBe(uid);

    const who = await t.app.inject({
      url: `${API}/whoami`,
      headers: { authorization: `Bearer ${session.token}`, userid: uid },
    });
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
  });

  it('answers the same for a taken address and tells its owner by mail', async () => {
    const owner = await t.createUser({ email: 'ocupat@example.ro' });
    const res = await post('/signup', {
      email: 'ocupat@example.ro',
      password: 'alta-parola-1',
      type: 'teacher',
      locale: 'en',
    });
    expect(res.statusCode).toBe(202);
    expect(res.json()).toEqual({ ok: true });
    const mail = await t.lastMail('ocupat@example.ro');
    expect(mail?.subject).toBeTruthy();
    // The existing account is untouched: the old password still works.
    expect(
      (await post('/login', { email: owner.email, password: owner.password })).statusCode,
    ).toBe(200);
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

  it('refuses expired links', async () => {
    await post('/signup', {
      email: 'tarziu@example.ro',
      password: 'parola-sigura-1',
      type: 'teacher',
      locale: 'en',
    });
    const { uid, code } = linkParams((await t.lastMail('tarziu@example.ro'))?.link);
    now = new Date(now.getTime() + (t.config.links.confirmTtlHours + 1) * 3_600_000);
    try {
      const res = await t.app.inject({ url: `${API}/token/${uid}/${code}` });
      expect(errorCode(res)).toBe('INVALID_CODE');
    } finally {
      now = new Date('2026-11-23T09:00:00Z');
    }
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
    const u = await t.createUser();
    const wrongPassword = await post('/login', { email: u.email, password: 'gresit-gresit' });
    const wrongEmail = await post('/login', {
      email: 'nimeni@example.ro',
      password: 'gresit-gresit',
    });
    expect(wrongPassword.statusCode).toBe(400);
    expect(wrongEmail.statusCode).toBe(400);
    expect(errorCode(wrongPassword)).toBe('INVALID_CREDENTIALS');
    expect(wrongEmail.json()).toEqual(wrongPassword.json());
  });

  it('locks an account after repeated failures, even for the right password', async () => {
    const u = await t.createUser();
    for (let i = 0; i < t.config.auth.maxFailuresPerAccount; i++) {
      expect(errorCode(await post('/login', { email: u.email, password: `gresit-${i}-xx` }))).toBe(
        'INVALID_CREDENTIALS',
      );
    }
    const locked = await post('/login', { email: u.email, password: u.password });
    expect(locked.statusCode).toBe(429);
    expect(errorCode(locked)).toBe('TOO_MANY_ATTEMPTS');
    // The window passes and the right password works again.
    now = new Date(now.getTime() + (t.config.auth.failureWindowMinutes + 1) * 60_000);
    try {
      expect((await post('/login', { email: u.email, password: u.password })).statusCode).toBe(200);
    } finally {
      now = new Date('2026-11-23T09:00:00Z');
    }
  });

  it('asks to confirm the address first and sends a new link', async () => {
    const u = await t.createUser({ emailConfirmedAt: null, registered: false, state: 'inactive' });
    const res = await post('/login', { email: u.email, password: u.password });
    expect(res.statusCode).toBe(403);
    expect(errorCode(res)).toBe('EMAIL_NOT_CONFIRMED');
    expect((await t.lastMail(u.email))?.link).toContain(`uid=${u.id}`);
  });

  it('logout revokes the session', async () => {
    const u = await t.createUser();
    const headers = await t.login(u.email, u.password);
    expect((await post('/logout', {}, headers)).statusCode).toBe(200);
    const who = await t.app.inject({ url: `${API}/whoami`, headers });
    expect(who.statusCode).toBe(401);
    expect(errorCode(who)).toBe('UNAUTHORIZED');
  });

  it('whoami needs a valid token whose user matches the userId header', async () => {
    const a = await t.createUser();
    const b = await t.createUser();
    const headers = await t.login(a.email, a.password);
    expect((await t.app.inject({ url: `${API}/whoami` })).statusCode).toBe(401);
    expect(
      (await t.app.inject({ url: `${API}/whoami`, headers: { authorization: 'Bearer nope' } }))
        .statusCode,
    ).toBe(401);
    expect(
      (await t.app.inject({ url: `${API}/whoami`, headers: { ...headers, userid: b.id } }))
        .statusCode,
    ).toBe(401);
    expect((await t.app.inject({ url: `${API}/whoami`, headers })).json()._id).toBe(a.id);
  });
});

describe('password reset', () => {
  it('mails a link only to real accounts, answers the same otherwise, and the link works once', async () => {
    const u = await t.createUser();
    const oldSession = await t.login(u.email, u.password);
    const unknown = await post('/password/forgot', { email: 'fantoma@example.ro' });
    const known = await post('/password/forgot', { email: u.email });
    expect(unknown.statusCode).toBe(200);
    expect(known.json()).toEqual(unknown.json());
    expect(await t.lastMail('fantoma@example.ro')).toBeUndefined();

    const link = (await t.lastMail(u.email))?.link;
    expect(link).toContain('mode=reset');
    const { uid, code } = linkParams(link);
    const reset = await post('/password/reset', { uid, code, password: 'parola-noua-2026' });
    expect(reset.statusCode).toBe(200);
    expect(reset.json().userId).toBe(u.id);

    expect((await t.app.inject({ url: `${API}/whoami`, headers: oldSession })).statusCode).toBe(
      401,
    );
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

  it('applies the team-code rules to students and links them to their teacher', async () => {
    const coach = await t.createUser({ type: 'teacher', teacherCode: 'IS-042' });
    const s = await t.createUser({ registered: false, state: 'inactive', grade: null });
    const headers = await t.login(s.email, s.password);

    const missing = await post('/register', student, headers);
    expect(errorCode(missing)).toBe('TEACHER_CODE_NOT_PROVIDED');
    expect(missing.json().error.details).toEqual({ teacherCode: ['presence'] });

    const wrong = await post('/register', { ...student, teacherCode: 'NOPE-1' }, headers);
    expect(errorCode(wrong)).toBe('TEACHER_CODE_NOT_FOUND');
    expect(wrong.json().error.details).toEqual({ teacherCode: ['teacher_not_found'] });

    const ok = await post('/register', { ...student, teacherCode: 'is-042' }, headers);
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
    const tch = await t.createUser({ type: 'teacher', registered: false, state: 'inactive' });
    const headers = await t.login(tch.email, tch.password);
    const taken = await post('/register', { ...teacher, teacherCode: 'CJ-001' }, headers);
    expect(errorCode(taken)).toBe('CLIENT_ERROR');
    expect(taken.json().error.details).toEqual({ teacherCode: ['code_exists'] });
    const ok = await post('/register', { ...teacher, teacherCode: 'IS-777' }, headers);
    expect(ok.json()).toMatchObject({ registered: true, teacherCode: 'IS-777', state: 'inactive' });
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
    const who = await t.app.inject({ url: `${API}/whoami`, headers });
    expect(who.json().registered).toBe(false);
  });

  it('is not for admins, nor for another user id', async () => {
    const admin = await t.createUser({ type: 'admin' });
    const headers = await t.login(admin.email, admin.password);
    expect(
      (await post('/register', { ...teacher, teacherCode: 'ADM-1' }, headers)).statusCode,
    ).toBe(403);
    const s = await t.createUser({ registered: false, state: 'inactive' });
    const sh = await t.login(s.email, s.password);
    const other = await post(
      '/register',
      { ...student, teacherCode: 'IS-042' },
      { ...sh, userid: admin.id },
    );
    expect(other.statusCode).toBe(404);
  });
});
