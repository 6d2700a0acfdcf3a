import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scrubText, TRACES_SAMPLE_RATE } from '../../shared/tracing.js';
import { loadConfig } from '../config.js';
import { registerErrorHandler } from './errors.js';
import { flushTracing, reportError, startTracing, tracingOrigin } from './tracing.js';

/** What a request of a student could carry; none of it may reach the tracing service. */
const PERSONAL = {
  name: 'Ioana Popescu-Testeanu',
  email: 'ioana.popescu@scoala.ro',
  answer: 'raspunsul-meu-secret-42',
  token: 'Zr8tP0qL2mXv9cB4nW7yK1sD6fH3jG5aQeUoIiTr',
  bearer: 'bearer-secret-of-ioana',
  cookie: 'cookie-secret-of-ioana',
  code: 'codul-unic-de-conectare',
};

/** A stand-in for the Sentry-compatible service: it keeps every envelope posted to it. */
async function startIngest(): Promise<{
  server: Server;
  port: number;
  envelopes: string[];
  paths: string[];
}> {
  const envelopes: string[] = [];
  const paths: string[] = [];
  const read = async (req: IncomingMessage) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    return (req.headers['content-encoding'] === 'gzip' ? gunzipSync(body) : body).toString('utf8');
  };
  const server = createServer((req, res) => {
    void read(req).then((text) => {
      paths.push(req.url ?? '');
      envelopes.push(text);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port, envelopes, paths };
}

describe('error tracing', () => {
  let ingest: Awaited<ReturnType<typeof startIngest>>;
  let app: FastifyInstance;
  let base: string;

  beforeAll(async () => {
    ingest = await startIngest();
    const config = loadConfig({ SENTRY_DSN: `http://publickey@127.0.0.1:${ingest.port}/7` });
    // Every trace sampled here, so that the one request's transaction is sure to be sent.
    expect(await startTracing(config, { tracesSampleRate: 1 })).toBe(true);
    app = Fastify();
    registerErrorHandler(app);
    app.post('/api/v1/test-player/mytests/:testId', async (request) => {
      console.log(`saving for ${PERSONAL.name} ${PERSONAL.email}`);
      const body = request.body as { submittedAnswer: string };
      throw new Error(
        `could not save ${body.submittedAnswer.length} characters for ${PERSONAL.email} (${PERSONAL.token})`,
      );
    });
    base = await app.listen({ port: 0, host: '127.0.0.1' });
  });

  afterAll(async () => {
    await app?.close();
    await new Promise((resolve) => ingest?.server.close(resolve));
  });

  it('is off by default and samples 0.25 of traces when on', async () => {
    expect(loadConfig({}).tracing.dsn).toBeUndefined();
    expect(TRACES_SAMPLE_RATE).toBe(0.25);
    expect(tracingOrigin(loadConfig({}))).toBeUndefined();
    expect(tracingOrigin(loadConfig({ SENTRY_DSN: 'https://k@errors.example.org/3' }))).toBe(
      'https://errors.example.org',
    );
    expect(() => loadConfig({ SENTRY_DSN: 'not a dsn' })).toThrow(/SENTRY_DSN/);
  });

  it('reports a server error, and nothing personal reaches the service', async () => {
    const res = await fetch(
      `${base}/api/v1/test-player/mytests/0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b?code=${PERSONAL.code}&email=${encodeURIComponent(PERSONAL.email)}`,
      {
        method: 'POST',
        headers: {
          authorization: `Bearer ${PERSONAL.bearer}`,
          cookie: `podium_session=${PERSONAL.cookie}`,
          'content-type': 'application/json',
          'x-student': PERSONAL.name,
        },
        body: JSON.stringify({
          itemId: 'q1',
          submittedAnswer: PERSONAL.answer,
          givenName: PERSONAL.name,
          email: PERSONAL.email,
        }),
      },
    );
    expect(res.status).toBe(500);
    expect((await res.json()).error.code).toBe('GENERAL_ERROR');
    await flushTracing(5_000);
    await expect
      .poll(() => ingest.envelopes.join('\n'), { timeout: 10_000 })
      .toMatch(/"type":"transaction"/);

    const sent = ingest.envelopes.join('\n');
    expect(ingest.paths.every((p) => p.startsWith('/api/7/envelope/'))).toBe(true);
    // The error arrived, with its place in the code…
    expect(sent).toMatch(/"type":"event"/);
    expect(sent).toContain('could not save 23 characters for');
    expect(sent).toContain('tracing.test.ts');
    // …and the request's trace, named by its route.
    expect(sent).toMatch(/POST \/api\/v1\/test-player\/mytests/);
    // None of what the request carried: not in a header, the body, the URL or a breadcrumb.
    for (const [what, value] of Object.entries(PERSONAL)) {
      expect(sent.includes(value), `${what} was sent`).toBe(false);
    }
    expect(sent).not.toContain(encodeURIComponent(PERSONAL.email));
    expect(sent).not.toMatch(/"cookies"|"user"|"query_string"/);
  });

  it('reports a database error without the values of its query', async () => {
    const before = ingest.envelopes.length;
    const failed = Object.assign(new Error(`duplicate key value (email)=(${PERSONAL.email})`), {
      code: '23505',
      severity: 'ERROR',
      detail: `Key (email)=(${PERSONAL.email}) already exists.`,
      constraint: 'users_email_unique',
    });
    reportError(failed);
    await flushTracing(5_000);
    await expect.poll(() => ingest.envelopes.length, { timeout: 10_000 }).toBeGreaterThan(before);
    const sent = ingest.envelopes.slice(before).join('\n');
    expect(sent).toContain('users_email_unique');
    expect(sent).not.toContain(PERSONAL.email);
  });

  it('scrubs e-mails, credentials, query strings and tokens out of any text', () => {
    expect(
      scrubText(
        `GET /?oauth=1&uid=u&code=${PERSONAL.code} for ${PERSONAL.email}: Bearer ${PERSONAL.bearer} ${PERSONAL.token}`,
      ),
    ).toBe('GET /?[redacted] for [redacted]: Bearer [redacted] [redacted]');
    // Ids and file paths stay: they say where, not who.
    expect(scrubText('/tests/0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b/items')).toBe(
      '/tests/0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b/items',
    );
  });
});
