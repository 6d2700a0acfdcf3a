import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Config } from '../config.js';

/** Where the page tells the web app that error tracing is on (web/src/lib/tracing.ts). */
export const TRACING_META = 'podium-tracing';

const escapeAttribute = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * index.html with the tracing settings in a meta element, read once; undefined while tracing is
 * off, when the built file is sent as it is (precompressed). The page carries them so that the
 * web app loads its tracing SDK only when there is somewhere to send to, with no request more.
 */
function pageWithTracing(index: string, tracing: Config['tracing']): string | undefined {
  if (!tracing.dsn) return undefined;
  const settings = JSON.stringify({ dsn: tracing.dsn, environment: tracing.environment });
  const meta = `<meta name="${TRACING_META}" content="${escapeAttribute(settings)}">`;
  return readFileSync(index, 'utf8').replace('</head>', `${meta}</head>`);
}

/** Serves the built web app; every non-API GET that is not a file gets index.html. */
export async function registerWebApp(
  app: FastifyInstance,
  webDist: string,
  tracing: Config['tracing'] = { dsn: undefined, environment: undefined },
) {
  const index = path.join(webDist, 'index.html');
  if (!existsSync(index)) {
    app.log.warn({ webDist }, 'web app not built; run `npm run build:web`');
    return;
  }
  const page = pageWithTracing(index, tracing);
  const sendPage = (reply: FastifyReply) =>
    page === undefined
      ? reply.sendFile('index.html')
      : reply.type('text/html; charset=utf-8').send(page);
  if (page !== undefined) {
    // The offline app caches /index.html itself (web/src/sw.ts): it gets the same page.
    app.addHook('onRequest', async (request, reply) => {
      if (request.method === 'GET' && request.url.split('?')[0] === '/index.html') {
        reply.header('cache-control', 'no-cache');
        return sendPage(reply);
      }
    });
  }
  await app.register(fastifyStatic, {
    root: webDist,
    wildcard: false,
    index: false,
    // `x.br` / `x.gz` written at build time (scripts/precompress.mjs), sent with
    // Content-Encoding and Vary: Accept-Encoding to browsers that accept them.
    preCompressed: true,
    setHeaders: (res, filePath) => {
      const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
      res.header('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });
  // The web app's pages and files, not part of the API: left out of its description.
  app.get('/*', { schema: { hide: true } }, (request, reply) => {
    const url = request.url.split('?')[0] ?? '/';
    if (url.startsWith('/api/')) {
      return reply.status(404).send({
        error: { statusCode: 404, code: 'NOT_FOUND', message: `No route GET ${url}` },
      });
    }
    const file = url.slice(1);
    if (
      file &&
      !file.includes('..') &&
      existsSync(path.join(webDist, file)) &&
      path.extname(file)
    ) {
      return reply.sendFile(file);
    }
    // A missing script or image is a 404, not the app's page (a stale cached index.html
    // asking for old assets must fail loudly rather than execute HTML as a script).
    if (path.extname(file)) {
      return reply.status(404).send({
        error: { statusCode: 404, code: 'NOT_FOUND', message: `No file ${url}` },
      });
    }
    reply.header('cache-control', 'no-cache');
    return sendPage(reply);
  });
}
