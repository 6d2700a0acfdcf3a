import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { createMailer } from '../lib/mail/mailer.js';
import { buildTestApp, type TestApp } from '../test/app.js';
import { fixedClock, smallCompetition } from '../test/competition.js';
import { startSmtp, type TestSmtp } from '../test/smtp.js';

// Nothing personal in the logs at `info`: the server's own log (every request's line, the
// mail worker's lines over SMTP, sign-in's) is captured while people sign up, confirm, complete
// their registration, sign in rightly and wrongly, ask for a new password, change their name,
// write an answer, and an admin searches the people lists by name and address — and none of
// the addresses, names, passwords, answers or link codes they typed is in it.

const lines: string[] = [];
const stream = new Writable({
  write(chunk, _encoding, done) {
    lines.push(String(chunk));
    done();
  },
});
let t: TestApp;
let smtp: TestSmtp;

beforeAll(async () => {
  smtp = await startSmtp();
  // The mailer logs to the server's log, as server/main.ts wires it.
  const log = { info: (obj: object, msg?: string) => t?.app.log.info(obj, msg) };
  const mailEnv = { SMTP_URL: smtp.url, MAIL_FROM: 'podium@example.ro', DATA_DIR: '/tmp' };
  t = await buildTestApp({
    clock: fixedClock(),
    env: { SMTP_URL: smtp.url, AUTH_RATE_LIMIT_PER_MINUTE: '100000' },
    logger: { level: 'info', stream },
    mailer: createMailer(loadConfig(mailEnv), log),
  });
}, 180_000);
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

const AUTH = '/api/v1/auth-service/auth';

describe('the log at info', () => {
  it('keeps no address, name, password, answer or link code', async () => {
    const secret = {
      email: 'ana.secretaru@example.ro',
      password: 'parola-Secreta-991',
      wrongPassword: 'gresita-Secreta-992',
      givenName: 'Anastasia',
      familyName: 'Secretaru',
      newName: 'Anisoara',
      school: 'Școala Tainică nr. 7',
      answer: 'raspunsul-meu-secret-42',
    };
    const post = (url: string, payload: object, headers: Record<string, string> = {}) =>
      t.app.inject({ method: 'POST', url, payload, headers });

    // Sign-up, the confirmation link, registration.
    const signup = await post(`${AUTH}/signup`, {
      email: secret.email,
      password: secret.password,
      type: 'student',
      locale: 'ro',
    });
    expect(signup.statusCode).toBe(202);
    const confirm = await t.lastMail(secret.email);
    expect(confirm).toBeUndefined(); // sent over SMTP, not to the outbox directory
    await t.deliverMail();
    const mail = smtp.received.find((m) => m.rcpt.includes(secret.email));
    const link = new URL(mail?.link ?? 'http://x/');
    const code = link.searchParams.get('code') ?? '';
    const uid = link.searchParams.get('uid') ?? '';
    expect(code.length).toBeGreaterThan(10);
    const exchanged = await t.app.inject({ url: `${AUTH}/token/${uid}/${code}` });
    expect(exchanged.statusCode).toBe(200);
    const headers = await t.login(secret.email, secret.password);
    await t.createUser({ type: 'teacher', teacherCode: 'JURNAL-1' });
    const register = await post(
      `${AUTH}/register`,
      {
        givenName: secret.givenName,
        familyName: secret.familyName,
        dateOfBirth: '2012-03-14',
        county: 'Cluj',
        city: 'Turda',
        school: secret.school,
        grade: 8,
        locale: 'ro',
        teacherCode: 'JURNAL-1',
      },
      headers,
    );
    expect(register.statusCode, register.body).toBe(200);

    // Signing in wrongly and rightly, a forgotten password (mailed), a change of name.
    const wrong = await post(`${AUTH}/login`, {
      email: secret.email,
      password: secret.wrongPassword,
    });
    expect(wrong.statusCode).toBe(400);
    await t.login(secret.email, secret.password);
    expect((await post(`${AUTH}/password/forgot`, { email: secret.email })).statusCode).toBe(200);
    await t.deliverMail();
    // The new account is not active yet: an admin changes the name.
    const anAdmin = await t.createUser({ type: 'admin' });
    const patched = await t.app.inject({
      method: 'PATCH',
      url: `/api/v1/user-mgmt/users/${encodeURIComponent(secret.email)}`,
      headers: await t.login(anAdmin.email, anAdmin.password),
      payload: { givenName: secret.newName },
    });
    expect(patched.statusCode, patched.body).toBe(200);

    // An answer written on exam day.
    const c = await smallCompetition(t);
    const start = await t.app.inject({
      method: 'POST',
      url: `/api/v1/test-player/mytests/${c.onlineTest.id}`,
      headers: c.student.headers,
      payload: { termsAccepted: true },
    });
    expect(start.statusCode, start.body).toBe(200);
    const answer = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/test-player/mytests/${c.onlineTest.id}`,
      headers: c.student.headers,
      payload: { itemId: c.openItemId, submittedAnswer: secret.answer, seq: 1 },
    });
    expect(answer.statusCode, answer.body).toBe(200);

    // An admin's searches of the people lists by name and address.
    const admin = c.admin.headers;
    const filter = (where: object) => encodeURIComponent(JSON.stringify({ where, limit: 10 }));
    for (const url of [
      `/api/v1/user-mgmt/students?filter=${filter({ familyName: { ilike: `%${secret.familyName}%` } })}`,
      `/api/v1/user-mgmt/students?filter=${filter({ email: secret.email })}`,
      `/api/v1/user-mgmt/students/count?where=${encodeURIComponent(JSON.stringify({ givenName: secret.newName }))}`,
      `/api/v1/user-mgmt/teachers?filter=${filter({ school: secret.school })}`,
    ]) {
      const res = await t.app.inject({ url, headers: admin });
      expect(res.statusCode).toBe(200);
    }
    const found = await t.app.inject({
      url: `/api/v1/user-mgmt/students?filter=${filter({ familyName: { ilike: `%${secret.familyName}%` } })}`,
      headers: admin,
    });
    expect(found.body).toContain(secret.email);

    const log = lines.join('');
    // The log was on: a line for each request, and the mails' lines.
    expect(log.match(/"request completed"/g)?.length ?? 0).toBeGreaterThan(15);
    expect(log).toContain('"mail sent"');
    const typed = [
      secret.email,
      secret.email.split('@')[0] ?? '',
      encodeURIComponent(secret.email),
      secret.password,
      secret.wrongPassword,
      secret.givenName,
      secret.familyName,
      secret.newName,
      secret.school,
      secret.answer,
      code,
      encodeURIComponent(code),
      c.student.email,
    ];
    for (const text of typed) expect(log, `the log shows «${text}»`).not.toContain(text);
    expect(log).not.toContain('$argon2');
  }, 120_000);
});
