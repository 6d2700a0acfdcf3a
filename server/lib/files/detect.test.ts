import { crc32 } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { ANSWER_FILE_TYPES } from '../../../shared/constants.js';
import { AppError } from '../errors.js';
import { assertAllowedFile, type DetectedFileType, detectFileType } from './detect.js';

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A 1×1 greyscale PNG header: signature, IHDR, IEND. */
function tinyPng(): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(1, 0);
  ihdr.writeUInt32BE(1, 4);
  ihdr.set([8, 0, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', ihdr),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** SOI, a JFIF APP0 segment, EOI. */
function tinyJpeg(): Buffer {
  return Buffer.from([
    0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01,
    0x00, 0x01, 0x00, 0x00, 0xff, 0xd9,
  ]);
}

function tinyPdf(): Buffer {
  return Buffer.from(
    [
      '%PDF-1.4',
      '1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj',
      '2 0 obj << /Type /Pages /Kids [] /Count 0 >> endobj',
      'trailer << /Root 1 0 R >>',
      '%%EOF',
      '',
    ].join('\n'),
    'latin1',
  );
}

/** An ISO-BMFF `ftyp` box with the HEIC brand, as iPhones write it. */
function tinyHeic(): Buffer {
  const box = Buffer.alloc(24);
  box.writeUInt32BE(24, 0);
  box.write('ftypheic', 4, 'latin1');
  box.write('mif1heic', 16, 'latin1');
  return box;
}

const codeOf = (fn: () => void) => {
  try {
    fn();
  } catch (error) {
    return error instanceof AppError ? error.code : 'not an AppError';
  }
  return undefined;
};

const MAX = 1024 * 1024;

describe('detectFileType', () => {
  it('recognises PDF, PNG and JPEG by their bytes', async () => {
    expect(await detectFileType(tinyPdf())).toEqual({ ext: 'pdf', mime: 'application/pdf' });
    expect(await detectFileType(tinyPng())).toEqual({ ext: 'png', mime: 'image/png' });
    expect(await detectFileType(tinyJpeg())).toEqual({ ext: 'jpg', mime: 'image/jpeg' });
  });

  it('knows nothing about plain text, whatever it is called', async () => {
    const renamedText = Buffer.from('Răspunsul meu: x = 42\nnu e un PDF\n', 'utf8');
    expect(await detectFileType(renamedText)).toBeUndefined();
    expect(await detectFileType(Buffer.alloc(0))).toBeUndefined();
  });
});

describe('assertAllowedFile', () => {
  it('accepts the answer types', async () => {
    for (const data of [tinyPdf(), tinyPng(), tinyJpeg()]) {
      const type = await detectFileType(data);
      expect(codeOf(() => assertAllowedFile(type, ANSWER_FILE_TYPES, data.length, MAX))).toBe(
        undefined,
      );
    }
  });

  it('treats jpg and jpeg as one type', () => {
    const jpeg: DetectedFileType = { ext: 'jpg', mime: 'image/jpeg' };
    expect(codeOf(() => assertAllowedFile(jpeg, ['jpeg'], 10, MAX))).toBe(undefined);
    expect(codeOf(() => assertAllowedFile({ ...jpeg, ext: 'jpeg' }, ['jpg'], 10, MAX))).toBe(
      undefined,
    );
  });

  it('refuses a text file renamed .pdf, an unknown file and other types', async () => {
    const text = Buffer.from('%PDX not really\n', 'latin1');
    const type = await detectFileType(text);
    expect(codeOf(() => assertAllowedFile(type, ANSWER_FILE_TYPES, text.length, MAX))).toBe(
      'FILE_TYPE_NOT_ALLOWED',
    );
    expect(codeOf(() => assertAllowedFile(undefined, ANSWER_FILE_TYPES, 1, MAX))).toBe(
      'FILE_TYPE_NOT_ALLOWED',
    );
    const png = await detectFileType(tinyPng());
    expect(codeOf(() => assertAllowedFile(png, ['pdf'], 10, MAX))).toBe('FILE_TYPE_NOT_ALLOWED');
  });

  it('never allows HEIC, even when asked to', async () => {
    const heic = await detectFileType(tinyHeic());
    expect(heic?.ext).toBe('heic');
    expect(codeOf(() => assertAllowedFile(heic, [...ANSWER_FILE_TYPES, 'heic'], 24, MAX))).toBe(
      'FILE_TYPE_NOT_ALLOWED',
    );
  });

  it('refuses files over the size limit', async () => {
    const type = await detectFileType(tinyPdf());
    expect(codeOf(() => assertAllowedFile(type, ANSWER_FILE_TYPES, MAX, MAX))).toBe(undefined);
    expect(codeOf(() => assertAllowedFile(type, ANSWER_FILE_TYPES, MAX + 1, MAX))).toBe(
      'FILE_TOO_LARGE',
    );
  });
});
