import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

/** Serves the built web app; every non-API GET that is not a file gets index.html. */
export async function registerWebApp(app: FastifyInstance, webDist: string) {
  const index = path.join(webDist, 'index.html');
  if (!existsSync(index)) {
    app.log.warn({ webDist }, 'web app not built; run `npm run build:web`');
    return;
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
    return reply.sendFile('index.html');
  });
}
