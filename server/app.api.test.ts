import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gzipSync } from 'node:zlib';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from './app.js';
import { appendAudit } from './lib/audit.js';
import { createStorage } from './lib/files/storage.js';
import { createMailer } from './lib/mail/mailer.js';
import { verifyPassword } from './lib/secrets.js';
import { ensureAdmin, promoteAdmin } from './modules/auth/index.js';
import { usersService } from './modules/users/index.js';
import { buildTestApp, errorCode, type TestApp } from './test/app.js';
import { createTestDatabase } from './test/db.js';

const AUTH = '/api/v1/auth-service/auth';
const INDEX_HTML = '<!doctype html><title>Podium</title><div id="root"></div>';
const BIG_SCRIPT = `export const rows = ${JSON.stringify(Array.from({ length: 500 }, (_, i) => `row ${i}`))};`;
let t: TestApp;
let web: string;

beforeAll(async () => {
  web = await mkdtemp(path.join(tmpdir(), 'podium-web-'));
  await mkdir(path.join(web, 'assets'));
  await writeFile(path.join(web, 'index.html'), INDEX_HTML);
  await writeFile(path.join(web, 'assets', 'app-123.js'), 'console.log(1)');
  // What scripts/precompress.mjs writes beside a large script and the page.
  await writeFile(path.join(web, 'assets', 'big-456.js'), BIG_SCRIPT);
  await writeFile(path.join(web, 'assets', 'big-456.js.br'), brotliCompressSync(BIG_SCRIPT));
  await writeFile(path.join(web, 'assets', 'big-456.js.gz'), gzipSync(BIG_SCRIPT));
  await writeFile(path.join(web, 'index.html.br'), brotliCompressSync(INDEX_HTML));
  t = await buildTestApp({ webDist: web });
});
afterAll(async () => {
  await t.close();
  await rm(web, { recursive: true, force: true });
});

/** Another server instance on the same database, as behind a load balancer. */
const buildSibling = (database = t.database) =>
  buildApp({
    config: t.config,
    database,
    mailer: createMailer(t.config, { info: () => {} }),
    storage: createStorage(t.config),
    logger: false,
  });

/** A log that keeps what it is told, like the server's pino logger. */
const captureLog = () => {
  const lines: string[] = [];
  return { lines, warn: (obj: object, msg: string) => lines.push(`${msg} ${JSON.stringify(obj)}`) };
};

describe('server', () => {
  it('reports health with the database status', async () => {
    const res = await t.app.inject({ url: '/api/v1/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok', database: 'ok', kind: t.database.kind });
  });

  it('answers 503 on health when the database does not answer', async () => {
    const app = await buildSibling({
      ...t.database,
      exec: () => Promise.reject(new Error('connection refused')),
    });
    try {
      const res = await app.inject({ url: '/api/v1/health' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toMatchObject({ status: 'degraded', database: 'unavailable' });
    } finally {
      await app.close();
    }
  });

  it('serves the OpenAPI description generated from the routes, and its UI', async () => {
    const res = await t.app.inject({ url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        `${AUTH}/signup`,
        `${AUTH}/token/{uid}/{code}`,
        `${AUTH}/oauth/token/{uid}/{code}`,
        `${AUTH}/login`,
        `${AUTH}/password/forgot`,
        `${AUTH}/password/reset`,
        `${AUTH}/whoami`,
        `${AUTH}/register`,
        `${AUTH}/logout`,
        '/api/v1/health',
        '/api/v1/user-mgmt/users/{user}',
      ]),
    );
    // Generated from the zod schemas, not hand-written.
    const login = doc.paths[`${AUTH}/login`].post;
    expect(login.requestBody.content['application/json'].schema.required).toEqual(
      expect.arrayContaining(['email', 'password']),
    );
    const ui = await t.app.inject({ url: '/api/docs' });
    expect(ui.statusCode).toBe(200);
    expect(ui.headers['content-type']).toContain('text/html');
  });

  it('sends security headers on API answers and on the web app', async () => {
    for (const url of ['/api/v1/health', '/profil']) {
      const res = await t.app.inject({ url });
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
      // Only the app's own pages and its blob: PDFs may be framed; no plugins at all.
      expect(res.headers['content-security-policy']).toContain("frame-src 'self' blob:");
      expect(res.headers['content-security-policy']).toContain("object-src 'none'");
      expect(res.headers['strict-transport-security']).toContain('max-age=');
      expect(res.headers['referrer-policy']).toBe('no-referrer');
      expect(res.headers['x-frame-options']).toBeDefined();
    }
  });

  it('serves the web app with an SPA fallback, but not for unknown API paths', async () => {
    for (const url of ['/', '/examene/123/editii/456', '/inregistrare/elev?x=1']) {
      const page = await t.app.inject({ url });
      expect(page.statusCode).toBe(200);
      expect(page.headers['content-type']).toContain('text/html');
      expect(page.body).toContain('<div id="root">');
    }
    const asset = await t.app.inject({ url: '/assets/app-123.js' });
    expect(asset.body).toBe('console.log(1)');
    expect(asset.headers['cache-control']).toContain('immutable');
    // A missing file is a 404, never the app's HTML served as a script.
    const missing = await t.app.inject({ url: '/assets/gone-456.js' });
    expect(missing.statusCode).toBe(404);
    expect(missing.headers['content-type']).toContain('application/json');
    for (const req of [
      { url: '/api/unknown' },
      { url: '/api/v1/nothing-here' },
      { method: 'POST' as const, url: '/api/v1/nothing-here', payload: {} },
    ]) {
      const api = await t.app.inject(req);
      expect(api.statusCode).toBe(404);
      expect(api.headers['content-type']).toContain('application/json');
      expect(api.json().error).toMatchObject({ statusCode: 404, code: 'NOT_FOUND' });
    }
  });

  it('sends the precompressed copy of a file to browsers that accept it', async () => {
    const br = await t.app.inject({
      url: '/assets/big-456.js',
      headers: { 'accept-encoding': 'gzip, deflate, br' },
    });
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(br.headers['content-type']).toContain('javascript');
    expect(br.headers['cache-control']).toContain('immutable');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(BIG_SCRIPT);

    const gz = await t.app.inject({
      url: '/assets/big-456.js',
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(gz.headers['content-encoding']).toBe('gzip');
    // A browser that accepts nothing gets the file as it is.
    const plain = await t.app.inject({ url: '/assets/big-456.js' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(BIG_SCRIPT);

    // The app's page too, on every path it answers, still revalidated each time.
    for (const url of ['/', '/tests']) {
      const page = await t.app.inject({ url, headers: { 'accept-encoding': 'br' } });
      expect(page.headers['content-encoding'], url).toBe('br');
      expect(page.headers.vary, url).toMatch(/accept-encoding/i);
      expect(page.headers['cache-control'], url).toBe('no-cache');
      expect(brotliDecompressSync(page.rawPayload).toString(), url).toBe(INDEX_HTML);
    }
  });

  it('compresses large JSON answers, not small ones', async () => {
    // Not an admin: "first start" below needs a database without one.
    const u = await t.createUser();
    const headers = { ...(await t.login(u.email, u.password)), 'accept-encoding': 'br, gzip' };
    const large = await t.app.inject({ url: '/api/docs/json', headers });
    expect(large.statusCode).toBe(200);
    expect(large.headers['content-encoding']).toBe('br');
    expect(large.headers.vary).toMatch(/accept-encoding/i);
    const body = JSON.parse(brotliDecompressSync(large.rawPayload).toString());
    expect(body.openapi).toMatch(/^3\./);
    // Under the threshold (1 KB): as it is.
    const small = await t.app.inject({ url: `${AUTH}/whoami`, headers });
    expect(small.statusCode).toBe(200);
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.json()._id).toBe(u.id);
    // A client that accepts no encoding (as app.inject does) gets plain JSON.
    const plain = await t.app.inject({ url: '/api/docs/json' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.json().openapi).toMatch(/^3\./);
  });

  it("keeps Fastify's own 4xx as 4xx error bodies, never a 500", async () => {
    const post = (payload: string) =>
      t.app.inject({
        method: 'POST',
        url: `${AUTH}/login`,
        headers: { 'content-type': 'application/json' },
        payload,
      });
    for (const payload of ['{"email": ', '', '[1,']) {
      const res = await post(payload);
      expect(res.statusCode).toBe(400);
      expect(errorCode(res)).toBe('CLIENT_ERROR');
    }
    const tooLarge = await post(JSON.stringify({ email: 'a@b.ro', password: 'x'.repeat(2 << 20) }));
    expect(tooLarge.statusCode).toBe(413);
  });

  it('accepts a session on every instance, and a logout on one ends it on all', async () => {
    const u = await t.createUser();
    const headers = await t.login(u.email, u.password);
    const sibling = await buildSibling();
    try {
      expect((await sibling.inject({ url: `${AUTH}/whoami`, headers })).json()._id).toBe(u.id);
      expect(
        (await sibling.inject({ method: 'POST', url: `${AUTH}/logout`, headers })).statusCode,
      ).toBe(200);
      expect((await t.app.inject({ url: `${AUTH}/whoami`, headers })).statusCode).toBe(401);
    } finally {
      await sibling.close();
    }
  });
});

describe('first start', () => {
  it('creates admin@podium.local with a random password logged once, and only once', async () => {
    const users = usersService({ db: t.database.db });
    const log = captureLog();
    const first = await ensureAdmin({ db: t.database.db, users, config: t.config, log });
    expect(first).toMatchObject({ created: true, email: 'admin@podium.local' });
    if (!first.created || !first.generatedPassword) throw new Error('unreachable');
    expect(first.generatedPassword).toHaveLength(20);
    expect(log.lines).toHaveLength(1);
    expect(log.lines[0]).toContain(first.generatedPassword);

    const login = await t.app.inject({
      method: 'POST',
      url: `${AUTH}/login`,
      payload: { email: first.email, password: first.generatedPassword },
    });
    expect(login.statusCode).toBe(200);
    const who = await t.app.inject({
      url: `${AUTH}/whoami`,
      headers: { authorization: `Bearer ${login.json().token}` },
    });
    expect(who.json()).toMatchObject({ type: 'admin', state: 'active', registered: true });

    // The next start finds the admin: nothing created, nothing logged.
    expect(await ensureAdmin({ db: t.database.db, users, config: t.config, log })).toEqual({
      created: false,
    });
    expect(log.lines).toHaveLength(1);
  });

  it('uses ADMIN_EMAIL/ADMIN_PASSWORD, never logs that password, and creates one admin when instances start together', async () => {
    const database = await createTestDatabase();
    try {
      const users = usersService({ db: database.db });
      const config = {
        ...t.config,
        admin: { email: ' Director@Scoala.ro ', password: 'parola-directorului' },
      };
      const log = captureLog();
      const results = await Promise.all(
        [1, 2, 3].map(() => ensureAdmin({ db: database.db, users, config, log })),
      );
      expect(results.filter((r) => r.created)).toEqual([
        { created: true, email: 'director@scoala.ro', generatedPassword: undefined },
      ]);
      expect(log.lines).toHaveLength(1);
      expect(log.lines[0]).not.toContain('parola-directorului');
      const admins = await database.db.query.users.findMany({
        where: (u, { eq }) => eq(u.type, 'admin'),
      });
      expect(admins.map((a) => a.email)).toEqual(['director@scoala.ro']);
      expect(admins[0]).toMatchObject({ state: 'active', registered: true });
      expect(admins[0]?.emailConfirmedAt).not.toBeNull();
      expect(await verifyPassword(admins[0]?.passwordHash, 'parola-directorului')).toBe(true);
    } finally {
      await database.drop();
    }
  });
});

describe('npm run admin', () => {
  const deps = () => ({ db: t.database.db, users: usersService({ db: t.database.db }) });

  it('promotes an existing user, who keeps their password, and audits it', async () => {
    const u = await t.createUser({ type: 'teacher', state: 'inactive', registered: false });
    const result = await promoteAdmin(deps(), { email: ` ${u.email.toUpperCase()} ` });
    expect(result).toEqual({ outcome: 'promoted', userId: u.id });
    const headers = await t.login(u.email, u.password);
    const who = await t.app.inject({ url: `${AUTH}/whoami`, headers });
    expect(who.json()).toMatchObject({
      type: 'admin',
      role: ['admin'],
      state: 'active',
      registered: true,
    });
    const audit = await t.database.db.query.auditEvents.findMany({
      where: (e, { eq }) => eq(e.entityId, u.id),
    });
    expect(audit).toEqual([
      expect.objectContaining({
        action: 'user.promote.admin',
        before: { type: 'teacher', state: 'inactive' },
        after: { type: 'admin', state: 'active' },
      }),
    ]);
  });

  it('creates the admin when given a password, and otherwise creates nobody', async () => {
    expect(await promoteAdmin(deps(), { email: 'nimeni@scoala.ro' })).toEqual({
      outcome: 'not_found',
    });
    expect(await usersService({ db: t.database.db }).accountByEmail('nimeni@scoala.ro')).toBe(
      undefined,
    );
    const created = await promoteAdmin(deps(), {
      email: 'nou.admin@scoala.ro',
      password: 'parola-noua-admin',
    });
    expect(created.outcome).toBe('created');
    const headers = await t.login('nou.admin@scoala.ro', 'parola-noua-admin');
    expect((await t.app.inject({ url: `${AUTH}/whoami`, headers })).json().type).toBe('admin');
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
    // The refusal comes from the trigger, not from some other failure of the statement.
    const refusal = (e: unknown) => {
      const messages: string[] = [];
      for (let c = e; c instanceof Error; c = c.cause) messages.push(c.message);
      return messages.join(' | ');
    };
    for (const statement of [
      sql`update audit_events set action = 'forged' where entity_id = 'x1'`,
      sql`delete from audit_events where entity_id = 'x1'`,
    ]) {
      const error = await db.execute(statement).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(refusal(error)).toContain('audit_events is append-only');
    }
    const rows = await db.query.auditEvents.findMany({
      where: (e, { eq }) => eq(e.entityId, 'x1'),
    });
    expect(rows.map((r) => r.action)).toEqual(['test.event']);
  });
});
