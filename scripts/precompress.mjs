// Writes `x.br` and `x.gz` beside each compressible file of the built web app, once, at build
// time: @fastify/static (`preCompressed`, server/lib/web-app.ts) sends them to browsers that
// accept them, so no request spends CPU compressing. woff2 and images are compressed already.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const COMPRESSIBLE = new Set(['.js', '.mjs', '.css', '.html', '.svg', '.json', '.txt', '.map']);
/** Below this a compressed copy saves less than its headers cost. */
const MIN_BYTES = 1024;

function* filesOf(dir) {
  for (const name of readdirSync(dir)) {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) yield* filesOf(file);
    else yield file;
  }
}

/** Compresses every eligible file under `dir`; returns the files written. */
export function precompress(dir) {
  const written = [];
  for (const file of filesOf(dir)) {
    if (!COMPRESSIBLE.has(path.extname(file))) continue;
    const body = readFileSync(file);
    if (body.length < MIN_BYTES) continue;
    const br = brotliCompressSync(body, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
      },
    });
    const gz = gzipSync(body, { level: 9 });
    // A copy no smaller than the file itself is not worth sending.
    if (br.length < body.length) written.push(writeBeside(`${file}.br`, br));
    if (gz.length < body.length) written.push(writeBeside(`${file}.gz`, gz));
  }
  return written;
}

function writeBeside(file, body) {
  writeFileSync(file, body);
  return file;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const dir = process.argv[2] ?? 'web/dist';
  const written = precompress(dir);
  console.log(`precompress: ${written.length} .br/.gz files written in ${dir}`);
}
