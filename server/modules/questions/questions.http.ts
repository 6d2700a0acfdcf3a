import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { AppError, validationFailed } from '../../lib/errors.js';
import type { Upload } from './files.service.js';

/** A binary answer (file, image, spreadsheet): the bytes, never serialized as JSON. */
export const bytesSchema = z.instanceof(Buffer).describe('binary file');

export type MultipartBody = { uploads: Upload[]; fields: Record<string, string> };

/** Most files in one request: an import of a page of scanned questions, not a whole archive. */
export const MAX_FILES_PER_REQUEST = 20;
const LIMIT_CODES = new Set(['FST_FILES_LIMIT', 'FST_PARTS_LIMIT', 'FST_FIELDS_LIMIT']);

/**
 * Reads a multipart request into memory: files of the `fileFields` (an oversized one is
 * kept, marked truncated, so the service can refuse that file alone) and the text fields.
 * A file under any other name is VALIDATION_FAILED on that name; too many parts is
 * VALIDATION_FAILED `too_long` on the first file field; a body that is not well-formed
 * multipart is CLIENT_ERROR.
 */
export async function readMultipart(
  request: FastifyRequest,
  fileFields: readonly string[],
  maxBytes: number,
): Promise<MultipartBody> {
  if (!request.isMultipart()) {
    throw new AppError('CLIENT_ERROR', 'Expected multipart/form-data');
  }
  const uploads: Upload[] = [];
  const fields: Record<string, string> = {};
  const unknown: string[] = [];
  // The plugin honours `throwFileSizeLimit` here though its types only list busboy's options.
  const options = {
    limits: {
      fileSize: maxBytes,
      files: MAX_FILES_PER_REQUEST,
      fields: 20,
      fieldSize: 10_000,
      parts: 60,
    },
    throwFileSizeLimit: false,
  } as Parameters<FastifyRequest['parts']>[0];
  try {
    for await (const part of request.parts(options)) {
      if (part.type === 'file') {
        const data = await part.toBuffer();
        if (fileFields.includes(part.fieldname)) {
          uploads.push({ filename: part.filename, data, truncated: part.file.truncated });
        } else unknown.push(part.fieldname);
      } else {
        fields[part.fieldname] = typeof part.value === 'string' ? part.value : String(part.value);
      }
    }
  } catch (error) {
    const code = (error as { code?: string }).code ?? '';
    if (LIMIT_CODES.has(code)) {
      throw validationFailed([{ code: 'too_long', path: [fileFields[0] ?? 'file'] }]);
    }
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw new AppError('FILE_TOO_LARGE', 'File too large');
    if (error instanceof AppError) throw error;
    // busboy's own errors ("Unexpected end of form", bad part headers) carry no status.
    throw new AppError('CLIENT_ERROR', 'Malformed multipart body');
  }
  if (unknown.length > 0) {
    throw validationFailed(unknown.map((name) => ({ code: 'invalid', path: [name] })));
  }
  return { uploads, fields };
}
