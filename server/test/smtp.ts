import { readFileSync } from 'node:fs';
import net from 'node:net';
import { SMTPServer, type SMTPServerOptions } from 'smtp-server';
import { type OutboxMail, parseEml } from '../lib/mail/mailer.js';

export type Received = Omit<OutboxMail, 'file'> & {
  rcpt: string[];
  /** Whether the message came over TLS (STARTTLS or SMTPS), and who had logged in. */
  tls: boolean;
  user: string | undefined;
};

export type TestSmtp = {
  port: number;
  url: string;
  received: Received[];
  /** TCP connections the server accepted so far. */
  connections: number;
  close(): Promise<void>;
};

type Options = {
  /** SMTPS (TLS from the first byte) instead of plain SMTP with STARTTLS offered. */
  secure?: boolean;
  /** Require AUTH with this user and password (after STARTTLS). */
  auth?: { user: string; pass: string };
  /** Refuse every recipient with this reply code (e.g. 550: no such mailbox). */
  rejectRecipients?: number;
  /** Listen on this port (to bring a "down" server up where Podium expects it). */
  port?: number;
};

// A self-signed certificate for 127.0.0.1 valid until 2126, made for these tests (the
// package's own built-in certificate has expired, and nodemailer rightly refuses it).
const tls = {
  key: readFileSync(new URL('./fixtures/tls-key.pem', import.meta.url)),
  cert: readFileSync(new URL('./fixtures/tls-cert.pem', import.meta.url)),
};

/**
 * A real SMTP server (the `smtp-server` package) on a free local port, keeping what it
 * receives. Plain unless told otherwise: with `auth` it offers STARTTLS (and requires it for
 * AUTH), with `secure` it speaks TLS from the start.
 */
export async function startSmtp(options: Options = {}): Promise<TestSmtp> {
  const received: Received[] = [];
  const state = { connections: 0 };
  const settings: SMTPServerOptions = {
    secure: options.secure ?? false,
    ...tls,
    ...(options.secure || options.auth ? {} : { disabledCommands: ['STARTTLS'] }),
    logger: false,
    authOptional: !options.auth,
    ...(options.auth ? { authMethods: ['PLAIN', 'LOGIN'] } : {}),
    onConnect(_session, callback) {
      state.connections += 1;
      callback();
    },
    onAuth(auth, _session, callback) {
      if (auth.username === options.auth?.user && auth.password === options.auth?.pass) {
        callback(null, { user: auth.username });
      } else {
        callback(new Error('Invalid username or password'));
      }
    },
    onRcptTo(_address, _session, callback) {
      if (options.rejectRecipients) {
        const error = Object.assign(new Error('Mailbox unavailable'), {
          responseCode: options.rejectRecipients,
        });
        callback(error);
      } else {
        callback();
      }
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        received.push({
          ...parseEml(Buffer.concat(chunks)),
          rcpt: session.envelope.rcptTo.map((r) => r.address),
          tls: session.secure,
          user: typeof session.user === 'string' ? session.user : undefined,
        });
        callback();
      });
    },
  };
  const server = new SMTPServer(settings);
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const port = (server.server.address() as net.AddressInfo).port;
  const scheme = options.secure ? 'smtps' : 'smtp';
  const credentials = options.auth
    ? `${encodeURIComponent(options.auth.user)}:${encodeURIComponent(options.auth.pass)}@`
    : '';
  return {
    port,
    // The certificate is self-signed: the test trusts it as a school's own CA would be.
    url: `${scheme}://${credentials}127.0.0.1:${port}${options.secure || options.auth ? '?tls.rejectUnauthorized=false' : ''}`,
    received,
    get connections() {
      return state.connections;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * A server that accepts connections and then says nothing (or only its greeting): the SMTP
 * server that hangs, which must not hold a request or the mail worker for long.
 */
export async function startStalledServer(options: { greet?: boolean } = {}) {
  const sockets = new Set<net.Socket>();
  let connections = 0;
  const server = net.createServer((socket) => {
    connections += 1;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    if (options.greet) socket.write('220 stalled.test ESMTP\r\n');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  return {
    port,
    url: `smtp://127.0.0.1:${port}`,
    get connections() {
      return connections;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A local port nothing listens on (taken and released at once). */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
