import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../db/schema.js';
import { buildTestApp, type TestApp } from '../../test/app.js';

/**
 * A profile picture is an https image address or nothing: `javascript:`, `data:`, `http:` and
 * addresses with credentials are refused on the field, and one already stored is never handed
 * to a screen.
 */

const API = '/api/v1/user-mgmt';
let t: TestApp;

beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

describe('the profile picture', () => {
  it('takes only an https address and refuses the others on the field, changing nothing', async () => {
    const u = await t.createUser();
    const headers = await t.login(u.email, u.password);
    const patch = (picture: string | null) =>
      t.app.inject({
        method: 'PATCH',
        url: `${API}/users/${encodeURIComponent(u.email)}`,
        headers,
        payload: { picture },
      });
    for (const bad of [
      'javascript:alert(document.cookie)',
      'JavaScript:alert(1)',
      'data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+',
      'http://example.ro/poza.png',
      'https://elev:parola@example.ro/poza.png',
      '//example.ro/poza.png',
    ]) {
      const res = await patch(bad);
      expect({ bad, status: res.statusCode, body: res.json() }).toMatchObject({
        bad,
        status: 400,
        body: {
          error: {
            code: 'VALIDATION_FAILED',
            details: [{ code: 'url_not_https', path: ['picture'] }],
          },
        },
      });
    }
    const [row] = await t.database.db.select().from(users).where(eq(users.id, u.id));
    expect(row?.picture).toBeNull();
    const good = await patch('https://example.ro/poze/elev.png');
    expect(good.statusCode).toBe(200);
    expect(good.json().picture).toBe('https://example.ro/poze/elev.png');
    expect((await patch(null)).json().picture).toBeNull();
  });

  it('already stored as javascript: or data:, reaches no screen', async () => {
    const admin = await t.createUser({ type: 'admin' });
    const adminHeaders = await t.login(admin.email, admin.password);
    for (const stored of ['javascript:alert(1)', 'data:text/html,<script>alert(1)</script>']) {
      const u = await t.createUser({ picture: stored });
      const headers = await t.login(u.email, u.password);
      const whoami = await t.app.inject({ url: '/api/v1/auth-service/auth/whoami', headers });
      expect(whoami.json().picture).toBeNull();
      const read = await t.app.inject({ url: `${API}/users/${u.id}`, headers: adminHeaders });
      expect(read.json().picture).toBeNull();
      const list = await t.app.inject({
        url: `${API}/students?filter=${encodeURIComponent(JSON.stringify({ where: { email: u.email } }))}`,
        headers: adminHeaders,
      });
      expect(list.statusCode).toBe(200);
      expect(list.json()).toMatchObject([{ _id: u.id, picture: null }]);
    }
  });
});
