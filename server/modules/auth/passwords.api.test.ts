import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../db/schema.js';
import { buildTestApp, errorCode, type TestApp } from '../../test/app.js';
import { createTestDatabase } from '../../test/db.js';
import { usersService } from '../users/index.js';
import { ensureAdmin, promoteAdmin } from './bootstrap.js';

// Every way a password is set (sign-up, reset, the first admin, `npm run admin`) refuses
// passwords that guessers try first, and changes nothing when it does.
const API = '/api/v1/auth-service/auth';
let t: TestApp;

beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t.close();
});

const post = (url: string, payload: object) =>
  t.app.inject({ method: 'POST', url: `${API}${url}`, payload });
const tooCommon = [{ code: 'password_too_common', path: ['password'] }];

describe('sign-up', () => {
  it('refuses common passwords and the e-mail address, creating nothing', async () => {
    const email = 'Maria.Ionescu@Scoala.ro';
    for (const password of [
      '12345678',
      'password',
      'Password',
      'parola123',
      email,
      'maria.ionescu',
    ]) {
      const res = await post('/signup', { email, password, type: 'student', locale: 'ro' });
      expect(res.statusCode, password).toBe(400);
      expect(res.json().error).toMatchObject({ code: 'VALIDATION_FAILED', details: tooCommon });
    }
    expect(await t.lastMail('maria.ionescu@scoala.ro')).toBeUndefined();
    const rows = await t.database.db
      .select()
      .from(users)
      .where(eq(users.email, 'maria.ionescu@scoala.ro'));
    expect(rows).toEqual([]);
    const fine = await post('/signup', {
      email,
      password: 'podium-demo-2026',
      type: 'student',
      locale: 'ro',
    });
    expect(fine.statusCode).toBe(202);
  });
});

describe('password reset', () => {
  it('refuses a common password and keeps both the link and the old password', async () => {
    const u = await t.createUser();
    await post('/password/forgot', { email: u.email });
    const link = new URL((await t.lastMail(u.email))?.link ?? 'http://x/');
    const uid = link.searchParams.get('uid') ?? '';
    const code = link.searchParams.get('code') ?? '';
    for (const password of ['qwertyuiop', u.email, u.email.split('@')[0] ?? '']) {
      const res = await post('/password/reset', { uid, code, password });
      expect(res.json().error, password).toMatchObject({
        code: 'VALIDATION_FAILED',
        details: tooCommon,
      });
    }
    expect((await post('/login', { email: u.email, password: u.password })).statusCode).toBe(200);
    // The refused tries did not use the link up.
    const ok = await post('/password/reset', { uid, code, password: 'parola-noua-2026' });
    expect(ok.statusCode).toBe(200);
    expect(errorCode(await post('/login', { email: u.email, password: u.password }))).toBe(
      'INVALID_CREDENTIALS',
    );
  });
});

describe('admins', () => {
  it('npm run admin refuses a common password and creates nobody', async () => {
    const deps = { db: t.database.db, users: usersService({ db: t.database.db }) };
    await expect(
      promoteAdmin(deps, { email: 'sef@scoala.ro', password: 'password1' }),
    ).rejects.toThrow(/too easy to guess/);
    await expect(promoteAdmin(deps, { email: 'sef@scoala.ro', password: 'sef' })).rejects.toThrow(
      /at least 8/,
    );
    await expect(
      promoteAdmin(deps, { email: 'sef@scoala.ro', password: 'SEF@scoala.ro' }),
    ).rejects.toThrow(/too easy to guess/);
    expect(await deps.users.accountByEmail('sef@scoala.ro')).toBeUndefined();
  });

  it('the first start refuses a common ADMIN_PASSWORD and creates no admin', async () => {
    const database = await createTestDatabase();
    try {
      const users = usersService({ db: database.db });
      const config = { ...t.config, admin: { email: 'director@scoala.ro', password: '11111111' } };
      const log = { warn: () => {} };
      await expect(ensureAdmin({ db: database.db, users, config, log })).rejects.toThrow(
        /ADMIN_PASSWORD/,
      );
      expect(await users.countAdmins()).toBe(0);
    } finally {
      await database.drop();
    }
  });
});
