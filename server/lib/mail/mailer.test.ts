import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import nodemailer from 'nodemailer';
import { SMTPServer } from 'smtp-server';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.js';
import { createMailer, parseEml, readOutbox } from './mailer.js';
import { renderMail } from './templates.js';

const silent = { info: () => {} };
const LONG_LINK =
  'https://podium.test/confirmare-email?token=Zm9vYmFyYmF6cXV4Zm9vYmFyYmF6cXV4Zm9vYmFyYmF6cXV4&lang=ro';

let dataDir: string;
let outbox: string;

beforeEach(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'podium-mail-'));
  outbox = path.join(dataDir, 'outbox');
});

afterEach(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

describe('outbox mailer', () => {
  it('writes a real .eml that reads back with its Romanian diacritics intact', async () => {
    const logged: Array<{ obj: object; msg?: string }> = [];
    const mailer = createMailer(loadConfig({ DATA_DIR: dataDir }), {
      info: (obj, msg) => logged.push({ obj, msg }),
    });
    const params = { link: LONG_LINK, minutes: '60' };
    await mailer.send({ to: 'ana@example.ro', template: 'reset-password', locale: 'ro', params });

    const [mail, ...rest] = await readOutbox(outbox);
    expect(rest).toEqual([]);
    const expected = renderMail('reset-password', 'ro', params);
    expect(mail?.to).toBe('ana@example.ro');
    expect(mail?.subject).toBe('Resetarea parolei Podium');
    expect(mail?.text).toBe(expected.text);
    expect(mail?.text).toContain('rămâne neschimbată');
    expect(mail?.text).toContain('valabil 60 de minute');
    expect(mail?.link).toBe(LONG_LINK);

    const raw = await readFile(path.join(outbox, mail?.file ?? ''), 'utf8');
    expect(raw).toMatch(/^From: Podium <no-reply@podium\.local>\r$/m);
    expect(raw).toMatch(/^To: ana@example\.ro\r$/m);
    expect(raw).toMatch(/^Subject: Resetarea parolei Podium\r$/m);
    expect(raw).toMatch(/^Date: \w{3}, \d{1,2} \w{3} \d{4} /m);
    expect(raw).toMatch(/^MIME-Version: 1\.0\r$/m);
    expect(raw).toContain('text/html');

    expect(logged).toEqual([
      {
        obj: { to: 'ana@example.ro', subject: 'Resetarea parolei Podium', link: LONG_LINK },
        msg: 'mail written to outbox',
      },
    ]);
  });

  it('encodes a subject with diacritics and decodes it back', async () => {
    const mailer = createMailer(loadConfig({ DATA_DIR: dataDir }), silent);
    await mailer.send({
      to: 'ion@example.ro',
      template: 'account-activated',
      locale: 'ro',
      params: { link: 'https://podium.test/' },
    });
    const [mail] = await readOutbox(outbox);
    expect(mail?.subject).toBe('Contul dumneavoastră Podium a fost activat');
    expect(mail?.text).toContain('Vă puteți autentifica aici:');
    const raw = await readFile(path.join(outbox, mail?.file ?? ''), 'latin1');
    // The header itself must be 7-bit: an encoded word, not raw UTF-8.
    expect(raw).toMatch(/^Subject: =\?UTF-8\?[QB]\?/m);
    expect(/[^\t\r\n -~]/.test(raw)).toBe(false);
  });

  it('chooses English only for en, Romanian for everything else', async () => {
    const mailer = createMailer(loadConfig({ DATA_DIR: dataDir }), silent);
    const locales = ['en', 'ro', 'hu', 'de', null, undefined, 'en-GB'];
    for (const [i, locale] of locales.entries()) {
      await mailer.send({
        to: `u${i}@example.ro`,
        template: 'login-link',
        locale,
        params: { link: `https://podium.test/l/${i}`, minutes: '10' },
      });
    }
    const mails = await readOutbox(outbox);
    expect(mails.map((m) => m.subject)).toEqual([
      'Your Podium sign-in link',
      'Linkul de autentificare Podium',
      'Linkul de autentificare Podium',
      'Linkul de autentificare Podium',
      'Linkul de autentificare Podium',
      'Linkul de autentificare Podium',
      'Your Podium sign-in link',
    ]);
    expect(mails[0]?.text).toContain('valid for 10 minutes');
    expect(mails[1]?.text).toContain('valabil 10 minute');
  });

  it('keeps sending order, leaves no temporary files and links each mail to its own link', async () => {
    const mailer = createMailer(loadConfig({ DATA_DIR: dataDir }), silent);
    for (let i = 0; i < 20; i++) {
      await mailer.send({
        to: `elev${i}@example.ro`,
        template: 'confirm-email',
        locale: i % 2 ? 'en' : 'ro',
        params: { link: `https://podium.test/confirm?token=t${i}&x=1` },
      });
    }
    const mails = await readOutbox(outbox);
    expect(mails.map((m) => m.to)).toEqual(
      Array.from({ length: 20 }, (_, i) => `elev${i}@example.ro`),
    );
    expect(mails.map((m) => m.link)).toEqual(
      Array.from({ length: 20 }, (_, i) => `https://podium.test/confirm?token=t${i}&x=1`),
    );
    const names = await readdir(outbox);
    expect(names.every((n) => /^\d{15}-\d{6}-[0-9a-f]{8}\.eml$/.test(n))).toBe(true);
    expect([...names].sort()).toEqual(mails.map((m) => m.file));
  });

  it('reads an empty outbox when none exists', async () => {
    expect(await readOutbox(path.join(dataDir, 'nowhere'))).toEqual([]);
  });
});

describe('parseEml', () => {
  const SUBJECT = Array(3).fill('Șapte țărani își înșală ‘vecinii’ — ăâîșț ĂÂÎȘȚ').join(' ');

  it('decodes base64 bodies and B-encoded subjects', async () => {
    const composer = nodemailer.createTransport({ streamTransport: true, buffer: true });
    const info = await composer.sendMail({
      from: 'Podium <no-reply@podium.local>',
      to: 'Ștefan Țurcanu <stefan@example.ro>',
      subject: SUBJECT,
      text: 'Înscrierea: https://podium.test/a?b=c\nGata.',
      textEncoding: 'base64',
    });
    const mail = parseEml(info.message as Buffer);
    expect(mail.subject).toBe(SUBJECT);
    expect(mail.to).toContain('Ștefan Țurcanu');
    expect(mail.to).toContain('<stefan@example.ro>');
    expect(mail.text).toBe('Înscrierea: https://podium.test/a?b=c\nGata.');
    expect(mail.link).toBe('https://podium.test/a?b=c');
  });
});

describe('templates', () => {
  it('escapes parameters in the HTML body', () => {
    const { html, text } = renderMail('account-activated', 'en', {
      link: 'https://podium.test/?a=1&b="><script>alert(1)</script>',
    });
    expect(html).not.toContain('<script>');
    expect(html).toContain('&amp;b=&quot;&gt;&lt;script&gt;');
    expect(text).toContain('b="><script>');
  });

  it('uses Romanian plural forms for minutes', () => {
    const valid = (minutes: string) =>
      renderMail('login-link', 'ro', { link: 'https://podium.test/', minutes }).text;
    expect(valid('1')).toContain('valabil 1 minut.');
    expect(valid('19')).toContain('valabil 19 minute.');
    expect(valid('20')).toContain('valabil 20 de minute.');
    expect(valid('100')).toContain('valabil 100 de minute.');
    expect(valid('105')).toContain('valabil 105 minute.');
  });

  it('refuses to render a mail without its link', () => {
    expect(() => renderMail('confirm-email', 'ro', {})).toThrow(/link/);
    expect(() => renderMail('reset-password', 'en', { link: 'https://x.test/' })).toThrow(
      /minutes/,
    );
  });
});

describe('SMTP mailer', () => {
  it('delivers to a real SMTP server', async () => {
    const received: Array<{ rcpt: string[]; from: string; raw: Buffer }> = [];
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          const from = session.envelope.mailFrom;
          received.push({
            rcpt: session.envelope.rcptTo.map((r) => r.address),
            from: from ? from.address : '',
            raw: Buffer.concat(chunks),
          });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    const { port } = server.server.address() as AddressInfo;
    try {
      const config = loadConfig({
        DATA_DIR: dataDir,
        SMTP_URL: `smtp://127.0.0.1:${port}`,
        MAIL_FROM: 'Podium <concurs@podium.test>',
      });
      const lines: string[] = [];
      const mailer = createMailer(config, {
        info: (obj, msg) => lines.push(JSON.stringify({ obj, msg })),
      });
      await mailer.send({
        to: 'maria@example.ro',
        template: 'signup-existing',
        locale: 'ro',
        params: { link: LONG_LINK },
      });

      expect(received).toHaveLength(1);
      const [message] = received;
      expect(message?.rcpt).toEqual(['maria@example.ro']);
      expect(message?.from).toBe('concurs@podium.test');
      const mail = parseEml(message?.raw ?? Buffer.alloc(0));
      expect(mail.subject).toBe('Încercare de creare a unui cont Podium');
      expect(mail.text).toContain('Cineva a încercat să creeze un cont Podium');
      expect(mail.link).toBe(LONG_LINK);
      // Nothing goes to the outbox when SMTP is configured.
      expect(await readOutbox(outbox)).toEqual([]);
      // The log says a mail went, not to whom: nothing personal at info.
      expect(lines).toHaveLength(1);
      expect(lines.join('')).not.toContain('maria');
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
