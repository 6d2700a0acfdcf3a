import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { ANSWER_FILE_FIELD, MAX_ANSWER_FILES } from '../../../shared/schemas/uploads.js';
import { AppError, validationFailed } from '../../lib/errors.js';

/** A binary answer (a page, a zip), never serialized as JSON. */
export const bytesSchema = z.instanceof(Buffer).describe('binary file');

/** One file part of an upload, read into memory. */
export type Upload = { field: string; filename: string; data: Buffer; truncated: boolean };

/**
 * Reads the `item_N` files of a multipart upload. A file over `maxBytes` is kept cut short
 * and marked truncated, so the service reports that file alone; a part under any other name
 * is VALIDATION_FAILED on that name; more than MAX_ANSWER_FILES files is ANSWER_TOO_LARGE.
 */
export async function readAnswerFiles(
  request: FastifyRequest,
  maxBytes: number,
): Promise<Upload[]> {
  if (!request.isMultipart()) {
    throw new AppError('CLIENT_ERROR', 'Expected multipart/form-data');
  }
  const uploads: Upload[] = [];
  const unknown: string[] = [];
  // The plugin honours `throwFileSizeLimit` here though its types only list busboy's options.
  const options = {
    limits: {
      fileSize: maxBytes,
      files: MAX_ANSWER_FILES,
      fields: 10,
      fieldSize: 1000,
      parts: MAX_ANSWER_FILES + 10,
    },
    throwFileSizeLimit: false,
  } as Parameters<FastifyRequest['parts']>[0];
  try {
    for await (const part of request.parts(options)) {
      if (part.type !== 'file') continue;
      const data = await part.toBuffer();
      if (ANSWER_FILE_FIELD.test(part.fieldname)) {
        uploads.push({
          field: part.fieldname,
          filename: part.filename,
          data,
          truncated: part.file.truncated,
        });
      } else unknown.push(part.fieldname);
    }
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'FST_FILES_LIMIT' || code === 'FST_PARTS_LIMIT') {
      throw new AppError('ANSWER_TOO_LARGE', `At most ${MAX_ANSWER_FILES} files at once`, {
        maxFiles: MAX_ANSWER_FILES,
      });
    }
    throw error;
  }
  if (unknown.length > 0) {
    throw validationFailed(unknown.map((name) => ({ code: 'invalid', path: [name] })));
  }
  return uploads;
}

/** `Content-Disposition` with the UTF-8 name (RFC 6266) and an ASCII fallback. */
export function contentDisposition(kind: 'inline' | 'attachment', name: string): string {
  const ascii =
    name
      .normalize('NFD')
      .replace(/[^\x20-\x7e]/g, '')
      .replace(/["\\]/g, '_') || 'file';
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}
