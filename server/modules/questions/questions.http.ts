import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { validationFailed } from '../../lib/errors.js';
import { type MultipartBody, readMultipart } from '../../lib/multipart.js';

/** A binary answer (file, image, spreadsheet): the bytes, never serialized as JSON. */
export const bytesSchema = z.instanceof(Buffer).describe('binary file');

export type { MultipartBody };

/** Most files in one request: an import of a page of scanned questions, not a whole archive. */
export const MAX_FILES_PER_REQUEST = 20;

/**
 * Reads a multipart request into memory: files of the `fileFields` (an oversized one is
 * kept, marked truncated, so the service can refuse that file alone) and the text fields.
 * A file under any other name is VALIDATION_FAILED on that name; too many parts is
 * VALIDATION_FAILED `too_long` on the first file field; a body that is not well-formed
 * multipart is INVALID_MULTIPART.
 */
export function readQuestionMultipart(
  request: FastifyRequest,
  fileFields: readonly string[],
  maxBytes: number,
): Promise<MultipartBody> {
  return readMultipart(request, {
    isFileField: (name) => fileFields.includes(name),
    maxFileBytes: maxBytes,
    limits: { files: MAX_FILES_PER_REQUEST, fields: 20, fieldSize: 10_000, parts: 60 },
    tooMany: () => validationFailed([{ code: 'too_long', path: [fileFields[0] ?? 'file'] }]),
  });
}
