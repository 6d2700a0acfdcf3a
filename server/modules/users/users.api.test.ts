import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, errorCode, type TestApp } from '../../test/app.js';

const API = '/api/v1/user-mgmt';
let t: TestApp;

beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t.close();
});

const patch = (email: string, payload: unknown, headers: Record<string, string>) =>
  t.app.inject({
    method: 'PATCH',
    url: `${API}/users/${encodeURIComponent(email)}`,
    payload: payload as object,
    headers,
  });

describe('GET /users/{id}', () => {
  it('shows a user to themself and to admins, and is "not found" for anyone else', async () => {
    const a = await t.createUser();
    const b = await t.createUser({ type: 'teacher' });
    const admin = await t.createUser({ type: 'admin' });
    const ha = await t.login(a.email, a.password);
    const hb = await t.login(b.email, b.password);
    const hadmin = await t.login(admin.email, admin.password);
    expect((await t.app.inject({ url: `${API}/users/${a.id}`, headers: ha })).json().email).toBe(
      a.email,
    );
    const other = await t.app.inject({ url: `${API}/users/${a.id}`, headers: hb });
    expect(other.statusCode).toBe(404);
    expect(errorCode(other)).toBe('NOT_FOUND');
    expect((await t.app.inject({ url: `${API}/users/${a.id}`, headers: hadmin })).statusCode).toBe(
      200,
    );
    expect((await t.app.inject({ url: `${API}/users/${a.id}` })).statusCode).toBe(401);
    expect(errorCode(await t.app.inject({ url: `${API}/users/not-a-uuid`, headers: ha }))).toBe(
      'VALIDATION_FAILED',
    );
  });
});

describe('/users/{user}: one path for a user, by id or by e-mail', () => {
  it('reads a user by e-mail and changes a profile by id, as well as the other way round', async () => {
    const u = await t.createUser();
    const other = await t.createUser();
    const h = await t.login(u.email, u.password);
    const byEmail = await t.app.inject({
      url: `${API}/users/${encodeURIComponent(u.email)}`,
      headers: h,
    });
    expect(byEmail.statusCode).toBe(200);
    expect(byEmail.json()._id).toBe(u.id);
    const changed = await patch(u.id, { city: 'Sibiu' }, h);
    expect(changed.statusCode).toBe(200);
    expect(changed.json().city).toBe('Sibiu');
    // The scope is the same whichever way the user is named.
    const hidden = await t.app.inject({
      url: `${API}/users/${encodeURIComponent(other.email)}`,
      headers: h,
    });
    expect(errorCode(hidden)).toBe('NOT_FOUND');
    expect((await patch(other.id, { city: 'Sibiu' }, h)).statusCode).toBe(404);
    // Neither an id nor an address: refused before any lookup.
    expect(errorCode(await patch('nimeni', { city: 'Sibiu' }, h))).toBe('VALIDATION_FAILED');
  });
});

describe('PATCH /users/{email}', () => {
  it('edits the own profile, re-normalises names and audits the change', async () => {
    const u = await t.createUser();
    const h = await t.login(u.email, u.password);
    const res = await patch(u.email, { familyName: 'Țuțuianu', city: 'Brașov', grade: 99 }, h);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      familyName: 'Țuțuianu',
      familyNameNormalized: 'tutuianu',
      city: 'Brașov',
      grade: 99,
    });
    const audit = await t.database.db.query.auditEvents.findMany({
      where: (e, { eq }) => eq(e.entityId, u.id),
    });
    expect(audit.map((e) => e.action)).toContain('user.profile.update');
  });

  it('keeps layout settings and shortcuts in data', async () => {
    const u = await t.createUser();
    const h = await t.login(u.email, u.password);
    await patch(u.email, { data: { shortcuts: ['/profil'], settings: { theme: 'dark' } } }, h);
    const res = await patch(
      u.email,
      { data: { shortcuts: ['/profil', '/ajutor'], settings: { direction: 'rtl' } } },
      h,
    );
    expect(res.json().data).toEqual({
      shortcuts: ['/profil', '/ajutor'],
      settings: { theme: 'dark', direction: 'rtl' },
    });
    // A settings-only change leaves the shortcuts alone, and the reverse.
    const settingsOnly = await patch(u.email, { data: { settings: { layout: 'boxed' } } }, h);
    expect(settingsOnly.json().data.shortcuts).toEqual(['/profil', '/ajutor']);
    const shortcutsOnly = await patch(u.email, { data: { shortcuts: [] } }, h);
    expect(shortcutsOnly.json().data).toEqual({
      shortcuts: [],
      settings: { theme: 'dark', direction: 'rtl', layout: 'boxed' },
    });
    expect((await patch(u.email, { data: { settings: { theme: 'pink' } } }, h)).statusCode).toBe(
      400,
    );
  });

  it("refuses another user's profile, unknown fields, bad values and fields of the other role", async () => {
    const a = await t.createUser();
    const b = await t.createUser();
    const h = await t.login(a.email, a.password);
    expect((await patch(b.email, { city: 'Arad' }, h)).statusCode).toBe(404);
    expect(errorCode(await patch(a.email, { type: 'admin' }, h))).toBe('VALIDATION_FAILED');
    expect(errorCode(await patch(a.email, { state: 'active' }, h))).toBe('VALIDATION_FAILED');
    const bad = await patch(
      a.email,
      { givenName: 'x'.repeat(10_000), dateOfBirth: '31.12.2010' },
      h,
    );
    expect(errorCode(bad)).toBe('VALIDATION_FAILED');
    const wrongRole = await patch(a.email, { discipline: 'Informatică' }, h);
    expect(wrongRole.json().error).toMatchObject({
      code: 'CLIENT_ERROR',
      details: { discipline: ['invalid'] },
    });
    const after = await t.app.inject({ url: `${API}/users/${a.id}`, headers: h });
    expect(after.json()).toMatchObject({ givenName: a.givenName, discipline: null });
  });

  it('lets an inactive account keep its settings and language but nothing else', async () => {
    const u = await t.createUser({ state: 'inactive' });
    const h = await t.login(u.email, u.password);
    expect((await patch(u.email, { uiLocale: 'en', data: { shortcuts: [] } }, h)).statusCode).toBe(
      200,
    );
    const res = await patch(u.email, { city: 'Deva' }, h);
    expect(res.statusCode).toBe(403);
    expect(errorCode(res)).toBe('OPERATION_NOT_PERMITTED');
  });

  it('lets an admin correct anyone', async () => {
    const u = await t.createUser({ type: 'teacher' });
    const admin = await t.createUser({ type: 'admin' });
    const h = await t.login(admin.email, admin.password);
    expect(
      (await patch(u.email.toUpperCase(), { school: 'Liceul Teoretic Avram Iancu' }, h)).json()
        .school,
    ).toBe('Liceul Teoretic Avram Iancu');
  });
});
