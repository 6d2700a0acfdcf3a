import { constants } from 'node:zlib';
import fastifyCompress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';

/** Below this a JSON answer goes as it is: compressing it would save less than it costs. */
export const COMPRESS_THRESHOLD_BYTES = 1024;

/**
 * Large JSON answers (lists, rankings, a test's items) go brotli- or gzip-compressed to clients
 * that accept it, with `Vary: Accept-Encoding`. Only JSON: the web app's files are compressed
 * at build time (server/lib/web-app.ts), ZIP, PDF and pictures are compressed already, CSV and
 * other downloads and the event stream are left as they are. Request bodies are never
 * decompressed. Routes on the exam's hot path opt out (`compress: false`).
 */
export async function registerCompression(app: FastifyInstance) {
  await app.register(fastifyCompress, {
    global: true,
    globalDecompression: false,
    threshold: COMPRESS_THRESHOLD_BYTES,
    encodings: ['br', 'gzip'],
    customTypes: /^application\/(?:[\w.+-]+\+)?json(?:;|$)/,
    // Brotli's default quality (11) costs too much CPU per answer; 4 is close to gzip's speed.
    brotliOptions: { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } },
  });
}
