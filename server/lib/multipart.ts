import type { FastifyRequest } from 'fastify';
import { isStorableText } from '../../shared/text-input.js';
import { AppError, validationFailed } from './errors.js';

/** One file part, read into memory; `truncated` when it was cut at the size limit. */
export type MultipartUpload = { field: string; filename: string; data: Buffer; truncated: boolean };

export type MultipartBody = { uploads: MultipartUpload[]; fields: Record<string, string> };

export type MultipartRules = {
  /** Whether a file part under this name is wanted; any other is VALIDATION_FAILED on it. */
  isFileField(name: string): boolean;
  /** Longer files are kept cut short and marked truncated, so the caller refuses that one. */
  maxFileBytes: number;
  limits: { files: number; fields: number; fieldSize: number; parts: number };
  /** The refusal of a request with more files, fields or parts than the limits. */
  tooMany(): AppError;
};

/** The plugin's and busboy's complaints about a request's size, by code. */
const LIMIT_CODES = new Set(['FST_FILES_LIMIT', 'FST_PARTS_LIMIT', 'FST_FIELDS_LIMIT']);

const invalidMultipart = (message: string) => new AppError('INVALID_MULTIPART', message);

/**
 * Reads a multipart/form-data request, the one way every upload route does. A body that is not
 * well-formed multipart (no boundary, cut short, bad part headers) is 400 INVALID_MULTIPART,
 * never a 500; a field name, text value or file name that PostgreSQL could not store (NUL,
 * unpaired surrogate) is VALIDATION_FAILED `invalid_characters` on that part's name — the
 * multipart side of the edge check in text-input.ts. File names are kept as sent otherwise:
 * they are cleaned where stored and written back (files/names.ts).
 */
export async function readMultipart(
  request: FastifyRequest,
  rules: MultipartRules,
): Promise<MultipartBody> {
  if (!request.isMultipart()) throw invalidMultipart('Expected multipart/form-data');
  const uploads: MultipartUpload[] = [];
  const fields: Record<string, string> = {};
  const unknown: string[] = [];
  // The first part whose name or text cannot be stored; the body is still read to its end.
  let unstorable: string | undefined;
  // The plugin honours `throwFileSizeLimit` here though its types only list busboy's options.
  const options = {
    limits: { fileSize: rules.maxFileBytes, ...rules.limits },
    throwFileSizeLimit: false,
  } as Parameters<FastifyRequest['parts']>[0];
  try {
    for await (const part of request.parts(options)) {
      const name = part.fieldname;
      if (part.type === 'file') {
        const data = await part.toBuffer();
        if (!isStorableText(name) || !isStorableText(part.filename)) unstorable ??= name;
        else if (!rules.isFileField(name)) unknown.push(name);
        else
          uploads.push({
            field: name,
            filename: part.filename,
            data,
            truncated: part.file.truncated,
          });
      } else {
        const value = typeof part.value === 'string' ? part.value : String(part.value);
        if (!isStorableText(name) || !isStorableText(value)) unstorable ??= name;
        else fields[name] = value;
      }
    }
  } catch (error) {
    if (error instanceof AppError) throw error;
    const code = (error as { code?: string }).code ?? '';
    if (LIMIT_CODES.has(code)) throw rules.tooMany();
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw new AppError('FILE_TOO_LARGE', 'File too large');
    // busboy's own errors ("Unexpected end of form", "Malformed part header", no boundary)
    // and the plugin's (not multipart, prototype names, closed early) carry no usable status.
    throw invalidMultipart('Malformed multipart body');
  }
  if (unstorable !== undefined) {
    throw validationFailed([{ code: 'invalid_characters', path: [unstorable] }], 'Invalid field');
  }
  if (unknown.length > 0) {
    throw validationFailed(unknown.map((name) => ({ code: 'invalid', path: [name] })));
  }
  return { uploads, fields };
}
