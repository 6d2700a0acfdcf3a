import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.js';
import { auditEvents, mailOutbox, users } from '../../db/schema.js';
import { buildTestApp, errorCode, type TestApp } from '../../test/app.js';
import { freePort, startSmtp, startStalledServer, type TestSmtp } from '../../test/smtp.js';
import type { Clock } from '../clock.js';
import { createMailer, type Mailer } from './mailer.js';
import { createMailOutbox } from './outbox.js';

const AUTH = '/api/v1/auth-service/auth';
const OUTBOX = '/api/v1/mail-service/outbox';
const START = new Date('2026-11-23T09:00:00Z');
let now = new Date(START);
const clock: Clock = { now: () => new Date(now) };
const advance = (ms: number) => {
  now = new Date(now.getTime() + ms);
};

const servers: { close(): Promise<void> }[] = [];
let t: TestApp;
/** Where the server's mail goes: each test points it at its own SMTP server. */
let mailer: Mailer;
const useSmtp = (url: string, env: NodeJS.ProcessEnv = {}) => {
  mailer = createMailer(loadConfig({ SMTP_URL: url, MAIL_TIMEOUT_SECONDS: '1', ...env }), {
    info: () => {},
  });
};
beforeAll(async () => {
  t = await buildTestApp({
    clock,
    env: { MAIL_MAX_ATTEMPTS: '3' },
    mailer: {
      kind: 'smtp',
      send: (message) => mailer.send(message),
      verify: () => mailer.verify(),
    },
  });
});
afterAll(async () => {
  await t.close();
  await Promise.all(servers.map((s) => s.close()));
});
afterEach(() => {
  now = new Date(START);
});

const signup = (t: TestApp, email: string) =>
  t.app.inject({
    method: 'POST',
    url: `${AUTH}/signup`,
    payload: { email, password: 'parola-sigura-1', type: 'student', locale: 'ro' },
  });
const forgot = (t: TestApp, email: string) =>
  t.app.inject({ method: 'POST', url: `${AUTH}/password/forgot`, payload: { email } });
const rowsTo = (t: TestApp, email: string) =>
  t.database.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, email));
type OutboxRowList = Awaited<ReturnType<typeof rowsTo>>;

describe('mail goes through the outbox and never holds a request', () => {
  let port: number;
  let smtp: TestSmtp | undefined;
  beforeAll(async () => {
    port = await freePort();
    useSmtp(`smtp://127.0.0.1:${port}`);
  });
  afterAll(async () => {
    await smtp?.close();
  });

  it('signs up while the SMTP server is down and delivers the confirmation once it is back', async () => {
    const res = await signup(t, 'jos@example.ro');
    expect(res.statusCode).toBe(202);
    const [account] = await t.database.db
      .select()
      .from(users)
      .where(eq(users.email, 'jos@example.ro'));
    expect(account).toBeDefined();

    // The worker tries, fails to connect, and schedules a retry 30 s later.
    expect(await t.deliverMail()).toBe(1);
    const [retrying] = await rowsTo(t, 'jos@example.ro');
    expect(retrying).toMatchObject({ state: 'retrying', attempts: 1, template: 'confirm-email' });
    expect(retrying?.lastError).toMatch(/ECONNREFUSED|ECONNECTION/);
    expect(retrying?.nextAttemptAt.getTime()).toBe(now.getTime() + 30_000);
    // Nothing is due before then.
    expect(await t.deliverMail()).toBe(0);

    smtp = await startSmtp({ port });
    servers.push(smtp);
    advance(30_000);
    expect(await t.deliverMail()).toBe(1);
    const [sent] = await rowsTo(t, 'jos@example.ro');
    expect(sent).toMatchObject({ state: 'sent', attempts: 2, lastError: null });
    expect(smtp.received).toHaveLength(1);
    const mail = smtp.received[0];
    expect(mail?.rcpt).toEqual(['jos@example.ro']);
    expect(mail?.subject).toBe('Confirmați adresa de e-mail pentru Podium');

    // The link made at sending time signs the new account in.
    const link = new URL(mail?.link ?? 'http://x/');
    const session = await t.app.inject({
      url: `${AUTH}/token/${link.searchParams.get('uid')}/${link.searchParams.get('code')}`,
    });
    expect(session.statusCode).toBe(200);
    // No usable code is kept in the outbox.
    expect(JSON.stringify(sent?.params)).not.toContain(link.searchParams.get('code'));
  });

  it('marks a mail failed after its last attempt, and an admin sees it and resends it', async () => {
    await smtp?.close();
    smtp = undefined;
    const admin = await t.createUser({ type: 'admin', email: 'admin.posta@example.ro' });
    const teacher = await t.createUser({ type: 'teacher', email: 'prof.posta@example.ro' });
    const res = await forgot(t, 'prof.posta@example.ro');
    expect(res.statusCode).toBe(200);

    // Each retry waits twice as long as the one before: 30 s, then 60 s.
    for (const step of [30_000, 60_000]) {
      await t.deliverMail();
      const [waiting] = await rowsTo(t, 'prof.posta@example.ro');
      expect(waiting?.state).toBe('retrying');
      expect((waiting?.nextAttemptAt.getTime() ?? 0) - now.getTime()).toBe(step);
      advance(step);
    }
    await t.deliverMail();
    const [failed] = await rowsTo(t, 'prof.posta@example.ro');
    expect(failed).toMatchObject({ state: 'failed', attempts: 3, template: 'reset-password' });

    const headers = await t.login(admin.email, admin.password);
    const list = await t.app.inject({
      url: `${OUTBOX}?filter=${encodeURIComponent(JSON.stringify({ where: { state: 'failed' } }))}`,
      headers,
    });
    expect(list.statusCode).toBe(200);
    expect(list.json()).toEqual([
      expect.objectContaining({
        _id: failed?.id,
        to: 'prof.posta@example.ro',
        template: 'reset-password',
        state: 'failed',
        attempts: 3,
        lastError: expect.stringMatching(/ECONNREFUSED|ECONNECTION/),
      }),
    ]);
    const count = await t.app.inject({
      url: `${OUTBOX}/count?where=${encodeURIComponent(JSON.stringify({ state: 'failed' }))}`,
      headers,
    });
    expect(count.json()).toEqual({ count: 1 });

    // Only admins see the outbox or resend.
    const teacherHeaders = await t.login(teacher.email, teacher.password);
    expect(errorCode(await t.app.inject({ url: OUTBOX, headers: teacherHeaders }))).toBe(
      'OPERATION_NOT_PERMITTED',
    );
    const refused = await t.app.inject({
      method: 'POST',
      url: `${OUTBOX}/${failed?.id}/resend`,
      headers: teacherHeaders,
    });
    expect(errorCode(refused)).toBe('OPERATION_NOT_PERMITTED');

    smtp = await startSmtp({ port });
    servers.push(smtp);
    const resend = await t.app.inject({
      method: 'POST',
      url: `${OUTBOX}/${failed?.id}/resend`,
      headers,
    });
    expect(resend.statusCode).toBe(200);
    expect(resend.json()).toMatchObject({ state: 'queued', attempts: 0, lastError: null });
    await t.deliverMail();
    expect(smtp.received.map((m) => m.subject)).toEqual(['Resetarea parolei Podium']);
    expect((await rowsTo(t, 'prof.posta@example.ro'))[0]?.state).toBe('sent');
    const audit = await t.database.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.entityId, failed?.id ?? ''));
    expect(audit).toMatchObject([{ action: 'mail.resend', actorId: admin.id }]);

    const unknown = await t.app.inject({
      method: 'POST',
      url: `${OUTBOX}/018f0000-0000-7000-8000-000000000000/resend`,
      headers,
    });
    expect(errorCode(unknown)).toBe('NOT_FOUND');
  });

  it('commits an activation with its mail and delivers the mail when the server is back', async () => {
    await smtp?.close();
    smtp = undefined;
    const admin = await t.createUser({ type: 'admin', email: 'admin.stari@example.ro' });
    const student = await t.createUser({ email: 'elev.stare@example.ro', state: 'inactive' });
    const headers = await t.login(admin.email, admin.password);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/user-mgmt/students/state',
      headers,
      payload: { students: [{ email: student.email, state: 'active' }] },
    });
    expect(res.json()).toEqual([]);
    await t.deliverMail();
    expect((await rowsTo(t, student.email))[0]).toMatchObject({
      state: 'retrying',
      template: 'account-activated',
    });
    smtp = await startSmtp({ port });
    servers.push(smtp);
    advance(30_000);
    await t.deliverMail();
    expect(smtp.received.map((m) => m.subject)).toEqual([
      'Contul dumneavoastră Podium a fost activat',
    ]);
  });
});

describe("the outbox in its caller's transaction", () => {
  it('sends a mail only when what caused it was committed', async () => {
    const smtp = await startSmtp();
    servers.push(smtp);
    useSmtp(smtp.url);
    const outbox = createMailOutbox({ clock, maxPerRecipientPerHour: 5 });
    const activated = (to: string) => ({
      template: 'account-activated' as const,
      to,
      locale: 'ro',
      params: { link: 'http://podium.test/' },
    });
    await t.database.db.transaction(async (tx) => {
      await outbox.enqueue(tx, activated('comis@example.ro'));
    });
    await expect(
      t.database.db.transaction(async (tx) => {
        await outbox.enqueue(tx, activated('anulat@example.ro'));
        throw new Error('the change failed after its mail was queued');
      }),
    ).rejects.toThrow(/change failed/);
    expect(await rowsTo(t, 'anulat@example.ro')).toEqual([]);
    await t.deliverMail();
    const to = smtp.received.flatMap((m) => m.rcpt);
    expect(to).toContain('comis@example.ro');
    expect(to).not.toContain('anulat@example.ro');
  });
});

describe('a mail server that accepts connections and stalls', () => {
  for (const greet of [false, true]) {
    it(`${greet ? 'greets, then says nothing' : 'says nothing, not even a greeting'}: the request is done at once, the worker gives up after the timeout`, async () => {
      const stalled = await startStalledServer({ greet });
      servers.push(stalled);
      useSmtp(stalled.url);
      const res = await signup(t, `stalled${greet ? 1 : 0}@example.ro`);
      expect(res.statusCode).toBe(202);
      // The request never talked to the mail server.
      expect(stalled.connections).toBe(0);

      const started = Date.now();
      await t.deliverMail();
      // MAIL_TIMEOUT_SECONDS=1: about a second for the greeting; seconds, never nodemailer's
      // ten minutes (with room for a busy machine).
      expect(Date.now() - started).toBeLessThan(15_000);
      expect(stalled.connections).toBe(1);
      const [row] = await rowsTo(t, `stalled${greet ? 1 : 0}@example.ro`);
      expect(row).toMatchObject({ state: 'retrying', attempts: 1 });
      expect(row?.lastError).toMatch(/ETIMEDOUT|timeout/i);
    });
  }
});

describe('SMTP with STARTTLS and authentication, SMTPS, and refused recipients', () => {
  it('delivers over STARTTLS with a password', async () => {
    const smtp = await startSmtp({ auth: { user: 'podium', pass: 'p@rolă:1' } });
    servers.push(smtp);
    useSmtp(smtp.url);
    // smtp:// with a password: the session is upgraded by STARTTLS before AUTH (the server
    // refuses AUTH in the clear).
    expect(smtp.url).toMatch(/^smtp:\/\/podium:/);
    await signup(t, 'tls@example.ro');
    await t.deliverMail();
    expect(smtp.received.map((m) => [m.rcpt, m.tls, m.user])).toEqual([
      [['tls@example.ro'], true, 'podium'],
    ]);
    expect(smtp.received[0]?.subject).toBe('Confirmați adresa de e-mail pentru Podium');
    expect((await rowsTo(t, 'tls@example.ro'))[0]?.state).toBe('sent');
  });

  it('retries a wrong password and delivers over SMTPS', async () => {
    const smtp = await startSmtp({ secure: true, auth: { user: 'podium', pass: 'corect' } });
    servers.push(smtp);
    useSmtp(smtp.url.replace('corect', 'gresit'));
    await signup(t, 'smtps@example.ro');
    await t.deliverMail();
    expect((await rowsTo(t, 'smtps@example.ro'))[0]).toMatchObject({
      state: 'retrying',
      lastError: expect.stringMatching(/EAUTH/),
    });

    // The admin fixes SMTP_URL; the next attempt goes through.
    useSmtp(smtp.url);
    advance(30_000);
    await t.deliverMail();
    expect(
      smtp.received.filter((m) => m.rcpt.includes('smtps@example.ro')).map((m) => [m.tls, m.user]),
    ).toEqual([[true, 'podium']]);
    expect((await rowsTo(t, 'smtps@example.ro'))[0]).toMatchObject({ state: 'sent', attempts: 2 });
  });

  it('marks a refused recipient failed at once, without retrying', async () => {
    const smtp = await startSmtp({ rejectRecipients: 550 });
    servers.push(smtp);
    useSmtp(smtp.url);
    await signup(t, 'nimeni@example.ro');
    await t.deliverMail();
    expect((await rowsTo(t, 'nimeni@example.ro'))[0]).toMatchObject({
      state: 'failed',
      attempts: 1,
      lastError: expect.stringMatching(/550/),
    });
  });
});

describe('a password reset while the mail server is down or stalled', () => {
  const comparable = (r: Awaited<ReturnType<typeof forgot>>) => ({
    status: r.statusCode,
    body: r.body,
    headers: Object.keys(r.headers)
      .filter((h) => h !== 'date' && h !== 'x-request-id')
      .sort()
      .map((h) => [h, h === 'content-length' ? r.headers[h] : typeof r.headers[h]]),
  });

  for (const server of ['down', 'stalled'] as const) {
    it(`answers a known and an unknown address alike, at once, while it is ${server}`, async () => {
      const stalled = server === 'stalled' ? await startStalledServer({ greet: true }) : undefined;
      if (stalled) servers.push(stalled);
      useSmtp(stalled?.url ?? `smtp://127.0.0.1:${await freePort()}`);
      const known = `cunoscut.${server}@example.ro`;
      const unknown = `necunoscut.${server}@example.ro`;
      await t.createUser({ email: known });

      const answers = [];
      for (const email of [known, unknown]) {
        const started = Date.now();
        const res = await forgot(t, email);
        // Answered without waiting for the mail server (a stalled one never answers).
        expect(Date.now() - started).toBeLessThan(5_000);
        answers.push(comparable(res));
      }
      expect(answers[0]).toEqual(answers[1]);
      expect(answers[0]?.status).toBe(200);
      expect(stalled?.connections ?? 0).toBe(0);

      // The worker then tries the known address only, and keeps it for a retry.
      await t.deliverMail();
      expect((await rowsTo(t, known)).map((r) => [r.state, r.attempts])).toEqual([['retrying', 1]]);
      expect(await rowsTo(t, unknown)).toEqual([]);
    });
  }
});

describe('requests that anyone can make', () => {
  let smtp: TestSmtp;
  beforeAll(async () => {
    smtp = await startSmtp();
    servers.push(smtp);
    useSmtp(smtp.url);
  });

  it('sends at most 5 requested mails an hour to one address', async () => {
    const u = await t.createUser({ email: 'tinta@example.ro' });
    for (let i = 0; i < 25; i++) expect((await forgot(t, u.email)).statusCode).toBe(200);
    await t.deliverMail();
    const rows = await rowsTo(t, u.email);
    expect(rows.filter((r) => r.state === 'sent')).toHaveLength(5);
    expect(rows.filter((r) => r.state === 'limited')).toHaveLength(20);

    // An hour later the address may be mailed again.
    advance(3_600_000 + 1);
    await forgot(t, u.email);
    await t.deliverMail();
    expect((await rowsTo(t, u.email)).filter((r) => r.state === 'sent')).toHaveLength(6);
  });

  it("neither counts nor holds system mails: a student's reset goes after 6 score changes", async () => {
    const u = await t.createUser({ email: 'punctaj@example.ro' });
    const outbox = createMailOutbox({ clock, maxPerRecipientPerHour: 5 });
    for (let i = 0; i < 6; i++) {
      await outbox.enqueue(t.database.db, {
        template: 'score-published',
        to: u.email,
        userId: u.id,
        locale: 'ro',
        params: { test: 'Clasa a IX-a', link: 'http://podium.test/teste/1/rezultat' },
      });
    }
    expect((await forgot(t, u.email)).statusCode).toBe(200);
    await t.deliverMail();
    const rows = await rowsTo(t, u.email);
    expect(rows.filter((r) => r.state === 'limited')).toEqual([]);
    expect(rows.find((r) => r.template === 'reset-password')?.state).toBe('sent');
    expect(rows.filter((r) => r.template === 'score-published' && r.state === 'sent')).toHaveLength(
      6,
    );
  });

  it('answers a reset request for a known and an unknown address alike, with the same work', async () => {
    await t.createUser({ email: 'cunoscut@example.ro' });
    const answers: { res: Awaited<ReturnType<typeof forgot>>; queued: OutboxRowList }[] = [];
    for (const email of ['cunoscut@example.ro', 'necunoscut@example.ro']) {
      const res = await forgot(t, email);
      // The request itself is queued for both; the worker resolves the address later.
      const queued = await rowsTo(t, email);
      answers.push({ res, queued });
    }
    const [known, unknown] = answers;
    const comparable = (r: Awaited<ReturnType<typeof forgot>>) => ({
      status: r.statusCode,
      body: r.body,
      headers: Object.keys(r.headers)
        .filter((h) => h !== 'date' && h !== 'x-request-id')
        .sort()
        .map((h) => [h, h === 'content-length' ? r.headers[h] : typeof r.headers[h]]),
    });
    if (!known || !unknown) throw new Error('two answers expected');
    expect(comparable(known.res)).toEqual(comparable(unknown.res));
    expect(known.queued.map((r) => [r.template, r.state, r.userId])).toEqual([
      ['reset-password', 'queued', null],
    ]);
    expect(unknown.queued.map((r) => [r.template, r.state, r.userId])).toEqual([
      ['reset-password', 'queued', null],
    ]);

    await t.deliverMail();
    const to = (email: string) => smtp.received.filter((m) => m.rcpt.includes(email));
    expect(to('cunoscut@example.ro').map((m) => m.subject)).toEqual(['Resetarea parolei Podium']);
    expect(to('necunoscut@example.ro')).toEqual([]);
    // Nothing is kept of a request for an address without an account.
    expect(await rowsTo(t, 'necunoscut@example.ro')).toEqual([]);
  });
});
