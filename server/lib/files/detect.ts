import { fileTypeFromBuffer } from 'file-type';
import { AppError } from '../errors.js';

export type DetectedFileType = { ext: string; mime: string };

/** The type the bytes say the file is, whatever its name claims; undefined when unknown. */
export async function detectFileType(data: Buffer): Promise<DetectedFileType | undefined> {
  const type = await fileTypeFromBuffer(data);
  return type ? { ext: type.ext, mime: type.mime } : undefined;
}

// Phones save photos as HEIC, which browsers and our PDF tools cannot show to reviewers.
const NEVER_ALLOWED = new Set(['heic', 'heif']);

const normalizeExt = (ext: string) => {
  const lower = ext.toLowerCase();
  return lower === 'jpeg' ? 'jpg' : lower;
};

/**
 * Guarantees the file is one of the `allowed` types by its content (FILE_TYPE_NOT_ALLOWED,
 * also for unrecognised bytes) and at most `maxBytes` long (FILE_TOO_LARGE).
 */
export function assertAllowedFile(
  type: DetectedFileType | undefined,
  allowed: readonly string[],
  size: number,
  maxBytes: number,
): asserts type is DetectedFileType {
  const ext = type ? normalizeExt(type.ext) : undefined;
  const isHeif =
    ext !== undefined && (NEVER_ALLOWED.has(ext) || /^image\/hei[cf]/.test(type?.mime ?? ''));
  const isAllowed = ext !== undefined && !isHeif && allowed.some((a) => normalizeExt(a) === ext);
  if (!isAllowed) {
    throw new AppError('FILE_TYPE_NOT_ALLOWED', `File type ${type?.mime ?? 'unknown'} not allowed`);
  }
  if (size > maxBytes) {
    throw new AppError('FILE_TOO_LARGE', `File larger than ${maxBytes} bytes`);
  }
}
