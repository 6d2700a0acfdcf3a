import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { Config } from '../../config.js';
import { type MailParams, type MailTemplate, renderMail } from './templates.js';

export type { MailTemplate } from './templates.js';

export type MailMessage = {
  to: string;
  template: MailTemplate;
  locale: string | undefined | null;
  params: MailParams;
};

export type Mailer = {
  send(message: MailMessage): Promise<void>;
  /** Resolves when the mail server (or the outbox directory) can take mail now. */
  verify(): Promise<void>;
  kind: 'smtp' | 'directory';
};

export type OutboxMail = {
  file: string;
  to: string;
  subject: string;
  text: string;
  link: string | undefined;
};

type MailLog = { info: (obj: object, msg?: string) => void };

/**
 * Sends over SMTP when SMTP_URL is set; otherwise writes each message as an .eml file to
 * DATA_DIR/outbox and logs its link, so an embedded install can still confirm accounts.
 */
export function createMailer(config: Config, log: MailLog): Mailer {
  const { smtpUrl, from, timeoutSeconds } = config.mail;
  if (smtpUrl) {
    const ms = timeoutSeconds * 1000;
    // nodemailer waits 2 minutes to connect and 10 minutes for a silent server by default; a
    // mail worker stuck that long holds back every mail behind it.
    const transport = nodemailer.createTransport({
      url: smtpUrl,
      connectionTimeout: ms,
      greetingTimeout: ms,
      socketTimeout: ms,
      dnsTimeout: ms,
    });
    return {
      kind: 'smtp',
      async send(message) {
        const mail = renderMail(message.template, message.locale, message.params);
        // A server that answers each command just before the timeout could still hold a
        // send for minutes: the whole conversation gets a bound too.
        await withDeadline(transport.sendMail({ from, to: message.to, ...mail }), ms * 3);
        // No address at info: the log keeps nothing personal (the mail's row names it).
        log.info({ template: message.template, subject: mail.subject }, 'mail sent');
      },
      async verify() {
        await withDeadline(transport.verify(), ms * 2);
      },
    };
  }

  const outbox = path.join(config.dataDir, 'outbox');
  // The stream transport only composes the RFC 822 message; nothing leaves the machine.
  const composer = nodemailer.createTransport({
    streamTransport: true,
    buffer: true,
    newline: 'windows',
  });
  return {
    kind: 'directory',
    async verify() {
      await mkdir(outbox, { recursive: true });
    },
    async send(message) {
      const mail = renderMail(message.template, message.locale, message.params);
      const info = await composer.sendMail({ from, to: message.to, ...mail });
      if (!Buffer.isBuffer(info.message)) throw new Error('Expected a composed message buffer');
      await mkdir(outbox, { recursive: true });
      const name = outboxFileName();
      // Written aside then renamed, so a reader never sees half a message.
      const tmp = path.join(outbox, `.${name}.tmp`);
      try {
        await writeFile(tmp, info.message);
        await rename(tmp, path.join(outbox, name));
      } catch (error) {
        await rm(tmp, { force: true });
        throw error;
      }
      log.info(
        { to: message.to, subject: mail.subject, link: message.params.link },
        'mail written to outbox',
      );
    },
  };
}

/** Rejects with a timeout error when `work` takes longer than `ms`. */
function withDeadline<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      reject(Object.assign(new Error(`No answer within ${ms} ms`), { code: 'ETIMEDOUT' }));
    }, ms);
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}

let lastStamp = 0;
let sequence = 0;

/**
 * Names sort in sending order: milliseconds, then a per-process sequence for mails sent in
 * the same millisecond (or while the clock steps back), then randomness against other
 * processes writing to the same outbox.
 */
function outboxFileName(): string {
  const now = Date.now();
  if (now > lastStamp) {
    lastStamp = now;
    sequence = 0;
  } else {
    sequence += 1;
  }
  const stamp = String(lastStamp).padStart(15, '0');
  return `${stamp}-${String(sequence).padStart(6, '0')}-${randomBytes(4).toString('hex')}.eml`;
}

/** The outbox's messages, oldest first; [] when nothing was ever written. */
export async function readOutbox(dir: string): Promise<OutboxMail[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const files = names.filter((n) => n.endsWith('.eml') && !n.startsWith('.')).sort();
  return Promise.all(
    files.map(async (file) => {
      const mail = parseEml(await readFile(path.join(dir, file)));
      return { file, ...mail };
    }),
  );
}

/**
 * Reads what nodemailer writes: folded headers, RFC 2047 encoded words, multipart bodies,
 * quoted-printable or base64 parts. Not a general MIME parser.
 */
export function parseEml(raw: Buffer | string): Omit<OutboxMail, 'file'> {
  // latin1 maps bytes 1:1 to chars, so decoders below can rebuild the original bytes.
  const source = typeof raw === 'string' ? raw : raw.toString('latin1');
  const message = splitPart(source);
  const text = findPlainText(message) ?? '';
  return {
    to: decodeWords(message.headers.get('to') ?? ''),
    subject: decodeWords(message.headers.get('subject') ?? ''),
    text,
    link: text.match(/https?:\/\/[^\s<>"]+/)?.[0],
  };
}

type Part = { headers: Map<string, string>; body: string };

function splitPart(source: string): Part {
  const match = /\r?\n\r?\n/.exec(source);
  const head = match ? source.slice(0, match.index) : source;
  const body = match ? source.slice(match.index + match[0].length) : '';
  const headers = new Map<string, string>();
  for (const line of head.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    if (!headers.has(name)) headers.set(name, line.slice(colon + 1).trim());
  }
  return { headers, body };
}

const headerParam = (value: string, name: string) =>
  new RegExp(`;\\s*${name}\\s*=\\s*(?:"([^"]*)"|([^;\\s]+))`, 'i')
    .exec(value)
    ?.slice(1)
    .find((v) => v !== undefined);

function findPlainText(part: Part): string | undefined {
  const contentType = part.headers.get('content-type') ?? 'text/plain';
  const mediaType = contentType.split(';')[0]?.trim().toLowerCase() ?? '';
  if (mediaType.startsWith('multipart/')) {
    const boundary = headerParam(contentType, 'boundary');
    if (!boundary) return undefined;
    for (const child of splitMultipart(part.body, boundary)) {
      const text = findPlainText(splitPart(child));
      if (text !== undefined) return text;
    }
    return undefined;
  }
  if (mediaType !== 'text/plain') return undefined;
  const encoding = (part.headers.get('content-transfer-encoding') ?? '7bit').toLowerCase();
  const bytes =
    encoding === 'base64'
      ? Buffer.from(part.body.replace(/\s+/g, ''), 'base64')
      : encoding === 'quoted-printable'
        ? decodeQuotedPrintable(part.body, false)
        : Buffer.from(part.body, 'latin1');
  return decodeCharset(bytes, headerParam(contentType, 'charset')).replace(/\r\n/g, '\n');
}

function splitMultipart(body: string, boundary: string): string[] {
  const parts: string[] = [];
  let current: string[] | undefined;
  for (const line of body.split(/\r?\n/)) {
    const trimmed = line.trimEnd();
    if (trimmed === `--${boundary}--`) break;
    if (trimmed === `--${boundary}`) {
      if (current) parts.push(current.join('\r\n'));
      current = [];
    } else {
      current?.push(line);
    }
  }
  if (current) parts.push(current.join('\r\n'));
  return parts;
}

/** Quoted-printable body (RFC 2045) or, with `underscoreIsSpace`, the Q encoding (RFC 2047). */
function decodeQuotedPrintable(value: string, underscoreIsSpace: boolean): Buffer {
  const input = value.replace(/=\r?\n/g, '');
  const bytes: number[] = [];
  for (let i = 0; i < input.length; i++) {
    const char = input[i];
    const hex = input.slice(i + 1, i + 3);
    if (char === '=' && /^[0-9a-f]{2}$/i.test(hex)) {
      bytes.push(Number.parseInt(hex, 16));
      i += 2;
    } else if (char === '_' && underscoreIsSpace) {
      bytes.push(0x20);
    } else {
      bytes.push(input.charCodeAt(i) & 0xff);
    }
  }
  return Buffer.from(bytes);
}

function decodeCharset(bytes: Buffer, charset: string | undefined): string {
  try {
    return new TextDecoder(charset ?? 'utf-8').decode(bytes);
  } catch {
    return bytes.toString('utf8');
  }
}

const ENCODED_WORD = /=\?([^?\s]+)\?([bq])\?([^?\s]*)\?=/gi;

/**
 * Decodes RFC 2047 words. Adjacent words are joined as bytes before decoding, because an
 * encoder may split one multi-byte character across two words.
 */
function decodeWords(value: string): string {
  const joined = value.replace(/(\?=)\s+(?==\?)/g, '$1');
  let out = '';
  let last = 0;
  let run: { charset: string; bytes: Buffer[]; end: number } | undefined;
  const flush = () => {
    if (!run) return;
    out += decodeCharset(Buffer.concat(run.bytes), run.charset);
    run = undefined;
  };
  for (const m of joined.matchAll(ENCODED_WORD)) {
    const [word, charset = 'utf-8', kind = 'b', data = ''] = m;
    const start = m.index ?? 0;
    const isAdjacent = run !== undefined && run.end === start && run.charset === charset;
    if (!isAdjacent) {
      flush();
      out += joined.slice(last, start);
    }
    const bytes =
      kind.toLowerCase() === 'b' ? Buffer.from(data, 'base64') : decodeQuotedPrintable(data, true);
    run ??= { charset, bytes: [], end: start };
    run.bytes.push(bytes);
    run.end = start + word.length;
    last = run.end;
  }
  flush();
  return out + joined.slice(last);
}
