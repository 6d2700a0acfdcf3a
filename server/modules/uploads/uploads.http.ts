import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { ANSWER_FILE_FIELD, MAX_ANSWER_FILES } from '../../../shared/schemas/uploads.js';
import { AppError } from '../../lib/errors.js';
import { cleanFileName } from '../../lib/files/names.js';
import { type MultipartUpload, readMultipart } from '../../lib/multipart.js';

/** A binary answer (a page, a zip), never serialized as JSON. */
export const bytesSchema = z.instanceof(Buffer).describe('binary file');

/** One file part of an upload, read into memory. */
export type Upload = MultipartUpload;

/**
 * Reads the `item_N` files of a multipart upload. A file over `maxBytes` is kept cut short
 * and marked truncated, so the service reports that file alone; a part under any other name
 * is VALIDATION_FAILED on that name; more than MAX_ANSWER_FILES files is ANSWER_TOO_LARGE; a
 * body that is not well-formed multipart is INVALID_MULTIPART.
 */
export function readAnswerFiles(request: FastifyRequest, maxBytes: number): Promise<Upload[]> {
  return readMultipart(request, {
    isFileField: (name) => ANSWER_FILE_FIELD.test(name),
    maxFileBytes: maxBytes,
    limits: { files: MAX_ANSWER_FILES, fields: 10, fieldSize: 1000, parts: MAX_ANSWER_FILES + 10 },
    tooMany: () =>
      new AppError('ANSWER_TOO_LARGE', `At most ${MAX_ANSWER_FILES} files at once`, {
        maxFiles: MAX_ANSWER_FILES,
      }),
  }).then((body) => body.uploads);
}

/**
 * `Content-Disposition` with the UTF-8 name (RFC 6266) and an ASCII fallback; the name is
 * cleaned again here, so one stored before the rule cannot show reversed or hidden text.
 */
export function contentDisposition(kind: 'inline' | 'attachment', name: string): string {
  const clean = cleanFileName(name, 'file');
  const ascii =
    clean
      .normalize('NFD')
      .replace(/[^\x20-\x7e]/g, '')
      .replace(/["\\]/g, '_') || 'file';
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(clean)}`;
}
