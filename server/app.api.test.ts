import { mkdtemp, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appendAudit } from './lib/audit.js';
import { ensureAdmin } from './modules/auth/bootstrap.js';
import { usersService } from './modules/users/users.service.js';
import { buildTestApp, type TestApp } from './test/app.js';

let t: TestApp;
let web: string;

beforeAll(async () => {
  web = await mkdtemp(path.join(tmpdir(), 'podium-web-'));
  await mkdir(path.join(web, 'assets'));
  await writeFile(
    path.join(web, 'index.html'),
    '<!doctype html><title>Podium</title><div id="root"></div>',
  );
  await writeFile(path.join(web, 'assets', 'app-123.js'), 'console.log(1)');
  t = await buildTestApp({ webDist: web });
});
afterAll(async () => {
  await t.close();
  await rm(web, { recursive: true, force: true });
});

describe('server', () => {
  it('reports health with the database status', async () => {
    const res = await t.app.inject({ url: '/api/v1/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'ok', database: 'ok' });
  });

  it('serves the OpenAPI description generated from the routes', async () => {
    const res = await t.app.inject({ url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(['/api/v1/auth-service/auth/login', '/api/v1/user-mgmt/users/{id}']),
    );
  });

  it('sends security headers', async () => {
    const res = await t.app.inject({ url: '/api/v1/health' });
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
  });

  it('serves the web app with an SPA fallback, but not for unknown API paths', async () => {
    const page = await t.app.inject({ url: '/examene/123/editii/456' });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<div id="root">');
    const asset = await t.app.inject({ url: '/assets/app-123.js' });
    expect(asset.headers['cache-control']).toContain('immutable');
    const api = await t.app.inject({ url: '/api/v1/nothing-here' });
    expect(api.statusCode).toBe(404);
    expect(api.json().error.code).toBe('NOT_FOUND');
  });
});

describe('first start', () => {
  it('creates one admin when there is none, and only then', async () => {
    const users = usersService({ db: t.database.db });
    const first = await ensureAdmin(users, t.config);
    expect(first).toMatchObject({ created: true, email: 'admin@podium.local' });
    if (!first.created) throw new Error('unreachable');
    expect(first.generatedPassword).toHaveLength(20);
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth-service/auth/login',
      payload: { email: first.email, password: first.generatedPassword },
    });
    expect(login.statusCode).toBe(200);
    expect(await ensureAdmin(users, t.config)).toEqual({ created: false });
  });
});

describe('audit trail', () => {
  it('refuses to change or delete an audit event', async () => {
    const db = t.database.db;
    await appendAudit(db, {
      actorId: null,
      action: 'test.event',
      entityType: 'test',
      entityId: 'x1',
    });
    await expect(
      db.execute(sql`update audit_events set action = 'forged' where entity_id = 'x1'`),
    ).rejects.toThrow();
    await expect(
      db.execute(sql`delete from audit_events where entity_id = 'x1'`),
    ).rejects.toThrow();
    const rows = await db.query.auditEvents.findMany({
      where: (e, { eq }) => eq(e.entityId, 'x1'),
    });
    expect(rows.map((r) => r.action)).toEqual(['test.event']);
  });
});
