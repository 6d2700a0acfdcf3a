// A lean keep-alive HTTP/1.1 client for the load generator, and the players' event streams.

import net from 'node:net';

export type Reply = {
  /** 0 when no HTTP answer arrived (connection refused or reset, timeout). */
  status: number;
  body: string;
  /** The network error's code when status is 0. */
  error?: string;
  /** The Retry-After header of a refusal (5xx), as sent. */
  retryAfter?: string;
};

type Pending = {
  head: Buffer;
  body: Buffer | undefined;
  timeoutMs: number;
  resolve: (r: Reply) => void;
};

const CRLF2 = Buffer.from('\r\n\r\n');

/**
 * One keep-alive HTTP/1.1 connection carrying one request at a time. A minimal client (no
 * redirects, no compression) so the load generator, which shares the machine with the server
 * and PostgreSQL, spends as little CPU per request as it can.
 */
class Connection {
  private readonly socket: net.Socket;
  private current: Pending | undefined;
  private buffer: Buffer = Buffer.alloc(0);
  private timer: NodeJS.Timeout | undefined;
  closed = false;

  constructor(
    host: string,
    port: number,
    private readonly onIdle: (c: Connection) => void,
    private readonly onClosed: (c: Connection) => void,
  ) {
    this.socket = net.connect({ host, port, noDelay: true });
    this.socket.on('data', (chunk: Buffer) => this.onData(chunk));
    this.socket.on('error', (e: NodeJS.ErrnoException) => this.fail(e.code ?? e.message));
    this.socket.on('close', () => this.fail('ECONNRESET'));
  }

  send(p: Pending) {
    this.current = p;
    this.buffer = Buffer.alloc(0);
    this.timer = setTimeout(() => this.fail('TIMEOUT'), p.timeoutMs);
    if (p.body) this.socket.write(Buffer.concat([p.head, p.body]));
    else this.socket.write(p.head);
  }

  private onData(chunk: Buffer) {
    this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
    const end = this.buffer.indexOf(CRLF2);
    if (end < 0 || !this.current) return;
    const head = this.buffer.toString('latin1', 0, end);
    const status = Number(head.slice(9, 12));
    const lower = head.toLowerCase();
    const lengthAt = lower.indexOf('\r\ncontent-length:');
    let body: string | undefined;
    let consumed = 0;
    if (lengthAt >= 0) {
      const lineEnd = lower.indexOf('\r\n', lengthAt + 2);
      const length = Number.parseInt(
        lower.slice(lengthAt + 17, lineEnd < 0 ? undefined : lineEnd),
        10,
      );
      if (this.buffer.length < end + 4 + length) return;
      body = this.buffer.toString('utf8', end + 4, end + 4 + length);
      consumed = end + 4 + length;
    } else if (lower.includes('\r\ntransfer-encoding: chunked')) {
      const parts: Buffer[] = [];
      let at = end + 4;
      for (;;) {
        const lineEnd = this.buffer.indexOf('\r\n', at);
        if (lineEnd < 0) return;
        const size = Number.parseInt(this.buffer.toString('latin1', at, lineEnd), 16);
        if (this.buffer.length < lineEnd + 2 + size + 2) return;
        if (size === 0) {
          consumed = lineEnd + 4;
          break;
        }
        parts.push(this.buffer.subarray(lineEnd + 2, lineEnd + 2 + size));
        at = lineEnd + 2 + size + 2;
      }
      body = Buffer.concat(parts).toString('utf8');
    } else {
      // No length: the body runs to the end of the connection (not sent by Fastify).
      body = '';
      consumed = end + 4;
    }
    const p = this.current;
    this.current = undefined;
    clearTimeout(this.timer);
    this.buffer = this.buffer.subarray(consumed);
    const retryAt = status >= 500 ? lower.indexOf('\r\nretry-after:') : -1;
    if (retryAt >= 0) {
      const lineEnd = lower.indexOf('\r\n', retryAt + 2);
      const retryAfter = head.slice(retryAt + 14, lineEnd < 0 ? undefined : lineEnd).trim();
      p.resolve({ status, body, retryAfter });
    } else p.resolve({ status, body });
    if (lower.includes('\r\nconnection: close')) this.destroy();
    else this.onIdle(this);
  }

  private fail(error: string) {
    clearTimeout(this.timer);
    const p = this.current;
    this.current = undefined;
    if (!this.closed) {
      this.closed = true;
      this.socket.destroy();
      this.onClosed(this);
    }
    p?.resolve({ status: 0, body: '', error });
  }

  destroy() {
    this.fail('CLOSED');
  }
}

/**
 * A keep-alive HTTP/1.1 client with a bounded pool of connections, like a proxy's upstream
 * pool: beyond `maxSockets` requests wait in its queue (and that wait counts in latency).
 */
export class HttpClient {
  private readonly host: string;
  private readonly port: number;
  private readonly idle: Connection[] = [];
  private readonly queue: Pending[] = [];
  private open = 0;
  private closed = false;

  constructor(
    base: string,
    private readonly maxSockets: number,
  ) {
    const u = new URL(base);
    this.host = u.hostname;
    this.port = Number(u.port);
  }

  request(
    method: string,
    pathname: string,
    headers: Record<string, string>,
    body?: string,
    timeoutMs = 30_000,
  ): Promise<Reply> {
    return new Promise((resolve) => {
      let head = `${method} ${pathname} HTTP/1.1\r\nhost: ${this.host}:${this.port}\r\n`;
      for (const [k, v] of Object.entries(headers)) head += `${k}: ${v}\r\n`;
      const bytes = body === undefined ? undefined : Buffer.from(body, 'utf8');
      if (bytes) head += `content-type: application/json\r\ncontent-length: ${bytes.length}\r\n`;
      head += '\r\n';
      this.dispatch({ head: Buffer.from(head, 'latin1'), body: bytes, timeoutMs, resolve });
    });
  }

  private dispatch(p: Pending) {
    if (this.closed) {
      p.resolve({ status: 0, body: '', error: 'CLOSED' });
      return;
    }
    const c = this.idle.pop();
    if (c) c.send(p);
    else if (this.open < this.maxSockets) {
      this.open += 1;
      new Connection(
        this.host,
        this.port,
        (conn) => this.onIdle(conn),
        (conn) => this.onClosed(conn),
      ).send(p);
    } else this.queue.push(p);
  }

  private onIdle(c: Connection) {
    const next = this.queue.shift();
    if (next) c.send(next);
    else this.idle.push(c);
  }

  private onClosed(c: Connection) {
    this.open -= 1;
    const i = this.idle.indexOf(c);
    if (i >= 0) this.idle.splice(i, 1);
    // A request queued behind a connection that died gets a fresh connection.
    const next = this.queue.shift();
    if (next) this.dispatch(next);
  }

  close() {
    this.closed = true;
    for (const c of [...this.idle]) c.destroy();
    for (const p of this.queue.splice(0)) p.resolve({ status: 0, body: '', error: 'CLOSED' });
  }
}

/**
 * One player's event stream (`GET …/events`, text/event-stream) on its own connection, as a
 * browser holds it: `opened` resolves with the status once the response head arrives (body
 * empty), `events` counts the events read so far, `close` ends it.
 */
export function openEventStream(base: string, pathname: string, headers: Record<string, string>) {
  const u = new URL(base);
  const socket = net.connect({ host: u.hostname, port: Number(u.port), noDelay: true });
  let head = `GET ${pathname} HTTP/1.1\r\nhost: ${u.hostname}:${u.port}\r\naccept: text/event-stream\r\n`;
  for (const [k, v] of Object.entries(headers)) head += `${k}: ${v}\r\n`;
  socket.write(`${head}\r\n`);
  let seen = '';
  let events = 0;
  let settle: (r: Reply) => void = () => {};
  const opened = new Promise<Reply>((resolve) => {
    settle = resolve;
  });
  socket.on('data', (chunk: Buffer) => {
    const text = chunk.toString('utf8');
    if (seen.length < 1024) {
      seen += text;
      const end = seen.indexOf('\r\n\r\n');
      if (end >= 0) settle({ status: Number(seen.slice(9, 12)), body: '' });
    }
    events += text.split('\nevent: ').length - 1 + (text.startsWith('event: ') ? 1 : 0);
  });
  socket.on('error', (e: NodeJS.ErrnoException) => settle({ status: 0, body: '', error: e.code }));
  const ended = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  socket.on('close', () => settle({ status: 0, body: '', error: 'ECONNRESET' }));
  return {
    opened,
    /** Resolves when the connection is closed, by either side. */
    ended,
    events: () => events,
    close: () => socket.destroy(),
  };
}

export const isOk = (r: Reply) => r.status >= 200 && r.status < 300;

/** The error code of a Podium error body, if any. */
export function errorCodeOf(r: Reply): string | undefined {
  try {
    return (JSON.parse(r.body) as { error?: { code?: string } }).error?.code;
  } catch {
    return undefined;
  }
}
