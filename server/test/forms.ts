import { crc32, deflateSync } from 'node:zlib';

/** Request bodies the API tests of several modules build: multipart forms and tiny files. */

export type FormPart = { name: string; value: string | Buffer; filename?: string; type?: string };

/** A multipart/form-data body and its content type. */
export function multipartForm(parts: FormPart[]): {
  payload: Buffer;
  headers: Record<string, string>;
} {
  const boundary = `----podium${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const disposition = part.filename
      ? `form-data; name="${part.name}"; filename="${part.filename}"`
      : `form-data; name="${part.name}"`;
    const type = part.filename
      ? `\r\nContent-Type: ${part.type ?? 'application/octet-stream'}`
      : '';
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}${type}\r\n\r\n`));
    chunks.push(typeof part.value === 'string' ? Buffer.from(part.value, 'utf8') : part.value);
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    payload: Buffer.concat(chunks),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A 1×1 greyscale PNG (signature, IHDR, IDAT, IEND): one an image library can read. */
export function onePixelPng(): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(1, 0);
  ihdr.writeUInt32BE(1, 4);
  ihdr.set([8, 0, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', ihdr),
    // One row: filter type 0, one white pixel.
    pngChunk('IDAT', deflateSync(Buffer.from([0, 0xff]))),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}
