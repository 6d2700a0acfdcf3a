import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, errorCode, type TestApp } from '../../test/app.js';

// A signed-in user changes their password and sees and ends their own sessions; nobody
// reaches another person's sessions, and a refused change changes nothing.
const API = '/api/v1/auth-service/auth';
let t: TestApp;

beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t.close();
});

type Headers = { authorization: string; userid: string };
const call = (
  method: 'GET' | 'POST' | 'DELETE',
  url: string,
  headers?: Headers,
  payload?: object,
) => t.app.inject({ method, url: `${API}${url}`, headers, payload });
const whoami = (h: Headers) => call('GET', '/whoami', h);

describe('sessions', () => {
  it('lists the live sessions with this one marked, and ends one or all others', async () => {
    const u = await t.createUser();
    const first = await t.login(u.email, u.password);
    const second = await t.login(u.email, u.password);
    const third = await t.login(u.email, u.password);
    const list = await call('GET', '/sessions', second);
    expect(list.statusCode).toBe(200);
    const rows = list.json() as { _id: string; current: boolean }[];
    expect(rows).toHaveLength(3);
    expect(rows.filter((s) => s.current)).toHaveLength(1);

    const firstId = (await call('GET', '/sessions', first))
      .json()
      .find((s: { current: boolean }) => s.current)._id as string;
    const end = await call('DELETE', `/sessions/${firstId}`, second);
    expect(end.json()).toEqual({ ended: 1 });
    expect((await whoami(first)).statusCode).toBe(401);
    // Ended already: not found, and nothing else changes.
    expect(errorCode(await call('DELETE', `/sessions/${firstId}`, second))).toBe('NOT_FOUND');

    const others = await call('POST', '/sessions/end-others', second);
    expect(others.json()).toEqual({ ended: 1 });
    expect((await whoami(third)).statusCode).toBe(401);
    expect((await whoami(second)).statusCode).toBe(200);
    expect((await call('GET', '/sessions', second)).json()).toHaveLength(1);
  });

  it("cannot see or end another user's session (not found)", async () => {
    const a = await t.createUser();
    const b = await t.createUser();
    const ha = await t.login(a.email, a.password);
    const hb = await t.login(b.email, b.password);
    const bId = (await call('GET', '/sessions', hb)).json()[0]._id as string;
    const listA = (await call('GET', '/sessions', ha)).json() as { _id: string }[];
    expect(listA.map((s) => s._id)).not.toContain(bId);
    expect(errorCode(await call('DELETE', `/sessions/${bId}`, ha))).toBe('NOT_FOUND');
    expect((await whoami(hb)).statusCode).toBe(200);
    expect(errorCode(await call('DELETE', '/sessions/not-a-uuid', ha))).toBe('VALIDATION_FAILED');
  });

  it('answers 401 without a session', async () => {
    expect(errorCode(await call('GET', '/sessions'))).toBe('UNAUTHORIZED');
    expect(errorCode(await call('POST', '/sessions/end-others'))).toBe('UNAUTHORIZED');
    expect(
      errorCode(
        await call('POST', '/password/change', undefined, {
          currentPassword: 'x',
          password: 'o-parola-noua-2026',
        }),
      ),
    ).toBe('UNAUTHORIZED');
  });
});

describe('password change', () => {
  it('needs the current password and changes nothing when it is wrong', async () => {
    const u = await t.createUser();
    const h = await t.login(u.email, u.password);
    const other = await t.login(u.email, u.password);
    const res = await call('POST', '/password/change', h, {
      currentPassword: 'not-my-password',
      password: 'o-parola-noua-2026',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatchObject({
      code: 'CLIENT_ERROR',
      details: { currentPassword: ['wrong_password'] },
    });
    expect((await whoami(other)).statusCode).toBe(200);
    await expect(t.login(u.email, 'o-parola-noua-2026')).rejects.toThrow();
    await t.login(u.email, u.password);
  });

  it('applies the sign-up rules to the new password', async () => {
    const u = await t.createUser();
    const h = await t.login(u.email, u.password);
    for (const [password, code] of [
      ['short', 'password_too_short'],
      ['12345678', 'password_too_common'],
      [u.email, 'password_too_common'],
    ] as const) {
      const res = await call('POST', '/password/change', h, {
        currentPassword: u.password,
        password,
      });
      expect(res.statusCode, password).toBe(400);
      expect(res.json().error.details).toEqual([{ code, path: ['password'] }]);
    }
    await t.login(u.email, u.password);
  });

  it('sets the new password and ends every other session, keeping this one', async () => {
    const u = await t.createUser();
    const h = await t.login(u.email, u.password);
    const other = await t.login(u.email, u.password);
    const res = await call('POST', '/password/change', h, {
      currentPassword: u.password,
      password: 'o-parola-noua-2026',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ended: 1 });
    expect((await whoami(other)).statusCode).toBe(401);
    expect((await whoami(h)).statusCode).toBe(200);
    await expect(t.login(u.email, u.password)).rejects.toThrow();
    await t.login(u.email, 'o-parola-noua-2026');
  });
});
