import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { deflateSync } from 'node:zlib';
import { PDFDocument, PDFName, PDFRawStream } from 'pdf-lib';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { stripMetadata } from './strip.js';

const ARTIST = 'Ana Popescu, Str. Lunga 5';

/** A photo with its author and where it was taken, in the given colour space. */
async function taggedPhoto(space: 'srgb' | 'b-w' | 'cmyk') {
  return sharp({ create: { width: 24, height: 16, channels: 3, background: '#c83214' } })
    .toColourspace(space)
    .jpeg()
    .withExif({
      IFD0: { Artist: ARTIST },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '44/1 26/1 0/1' },
    })
    .toBuffer();
}

/** The JPEG images a PDF holds, with the colour space its dictionary gives them. */
async function pdfImages(pdf: Uint8Array) {
  const doc = await PDFDocument.load(pdf);
  return doc.context
    .enumerateIndirectObjects()
    .flatMap(([, o]) =>
      o instanceof PDFRawStream && o.dict.get(PDFName.of('Subtype')) === PDFName.of('Image')
        ? [{ jpeg: Buffer.from(o.contents), space: String(o.dict.get(PDFName.of('ColorSpace'))) }]
        : [],
    );
}

// What the upload tests (uploads-metadata.api.test.ts) do not reach: images of other depths.

/**
 * A 24 × 16 red JPEG 2000 file whose codestream carries a comment naming the student, made by
 * OpenJPEG 2.5: `opj_compress -i red.ppm -o artist.jp2 -n 3 -C "Ana Popescu, Str. Lunga 5"`.
 */
const ARTIST_JP2 = Buffer.from(
  [
    'AAAADGpQICANCocKAAAAFGZ0eXBqcDIgAAAAAGpwMiAAAAAtanAyaAAAABZpaGRyAAAAEAAAABgA',
    'AwcHAAAAAAAPY29scgEAAAAAABAAAACyanAyY/9P/1EALwAAAAAAGAAAABAAAAAAAAAAAAAAABgA',
    'AAAQAAAAAAAAAAAAAwcBAQcBAQcBAf9SAAwAAAABAQIEBAAB/1wACkBASEhQSEhQ/2QAHQABQW5h',
    'IFBvcGVzY3UsIFN0ci4gTHVuZ2EgNf+QAAoAAAAAADwAAf+Tx9QIEVBUr8PnEhFQVI9fsgAAYN+A',
    'kBQAWr4wgAYRBKZvT9IPcfRhH4CAgICAgP/Z',
  ].join(''),
  'base64',
);

/**
 * A one-page PDF (200 × 200 points) with a 24 × 16 red photo naming the student in its own
 * metadata: a JPEG 2000 image (its comment), an inline JPEG in the page's drawing (its EXIF),
 * or a JPEG image deflated once more (its EXIF, behind a second filter).
 */
async function pdfWith(kind: 'jpx' | 'inline' | 'flate-dct'): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const page = doc.addPage([200, 200]);
  const { context } = doc;
  const photo = await taggedPhoto('srgb');
  let drawing: Buffer;
  if (kind === 'inline') {
    const head = 'q 120 0 0 80 10 10 cm BI /W 24 /H 16 /CS /RGB /BPC 8 /F /DCT ID ';
    drawing = Buffer.concat([Buffer.from(head), photo, Buffer.from('\nEI Q\n')]);
  } else {
    const image = context.register(
      PDFRawStream.of(
        context.obj({
          Type: 'XObject',
          Subtype: 'Image',
          Width: 24,
          Height: 16,
          ColorSpace: 'DeviceRGB',
          BitsPerComponent: 8,
          Filter: kind === 'jpx' ? 'JPXDecode' : ['FlateDecode', 'DCTDecode'],
        }),
        kind === 'jpx' ? ARTIST_JP2 : deflateSync(photo),
      ),
    );
    page.node.setXObject(PDFName.of('Im0'), image);
    drawing = Buffer.from('q 120 0 0 80 10 10 cm /Im0 Do Q\n');
  }
  page.node.set(
    PDFName.of('Contents'),
    context.register(PDFRawStream.of(context.obj({}), drawing)),
  );
  return Buffer.from(await doc.save());
}

const scratch = mkdtempSync(path.join(tmpdir(), 'strip-test-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** What a poppler tool prints for this PDF. */
function poppler(tool: string, args: string[], pdf: Buffer): string {
  const file = path.join(scratch, `${Math.random().toString(36).slice(2)}.pdf`);
  writeFileSync(file, pdf);
  return execFileSync(tool, [...args, file], { encoding: 'latin1' });
}

/** The page drawn by poppler at 72 dpi, grey, one byte a pixel (a binary PGM's pixels). */
function rendered(pdf: Buffer): Buffer {
  const file = path.join(scratch, `${Math.random().toString(36).slice(2)}.pdf`);
  writeFileSync(file, pdf);
  const pgm = execFileSync('pdftoppm', ['-r', '72', '-gray', '-singlefile', file]);
  return pgm.subarray(pgm.length - 200 * 200);
}

describe('stripMetadata', () => {
  it('keeps a 16-bit PNG 16-bit, every sample the same, grey or colour, with alpha or not', async () => {
    for (const channels of [1, 2, 3, 4] as const) {
      // A Uint16Array is read as 16 bits a sample.
      const raw = Uint16Array.from({ length: 5 * 3 * channels }, (_, i) => (i * 4099) % 65536);
      const png = await sharp(raw, { raw: { width: 5, height: 3, channels } })
        .toColourspace(channels <= 2 ? 'grey16' : 'rgb16')
        .png()
        .toBuffer();
      const stripped = await stripMetadata(png, 'image/png');
      if (!stripped) throw new Error('not stripped');
      expect(await sharp(stripped).metadata()).toMatchObject({ depth: 'ushort', channels });
      const samples = (b: Buffer) => sharp(b).raw({ depth: 'ushort' }).toBuffer();
      expect(await samples(stripped)).toEqual(await samples(png));
    }
  });

  it('writes the JPEG photos inside a PDF again without their EXIF, each as large and in its colours', async () => {
    for (const space of ['srgb', 'b-w', 'cmyk'] as const) {
      const photo = await taggedPhoto(space);
      expect(photo.includes(ARTIST)).toBe(true);
      const doc = await PDFDocument.create();
      const image = await doc.embedJpg(photo);
      doc.addPage([200, 200]).drawImage(image, { x: 10, y: 10, width: 120, height: 80 });
      const pdf = Buffer.from(await doc.save());
      expect(pdf.includes(ARTIST)).toBe(true);

      const stripped = await stripMetadata(pdf, 'application/pdf');
      if (!stripped) throw new Error('not stripped');
      expect(stripped.includes(ARTIST)).toBe(false);
      const [kept] = await pdfImages(stripped);
      if (!kept) throw new Error('image lost');
      const meta = await sharp(kept.jpeg).metadata();
      expect(meta).toMatchObject({ format: 'jpeg', width: 24, height: 16 });
      expect(meta.exif).toBeUndefined();
      // Grey stays grey; CMYK comes back as RGB, and the dictionary says so.
      expect(kept.space).toBe(space === 'b-w' ? '/DeviceGray' : '/DeviceRGB');
      // The colours a viewer shows, as near as a second JPEG encoding leaves them.
      const shown = (jpeg: Buffer) => sharp(jpeg).toColourspace('srgb').raw().toBuffer();
      const [before, after] = [await shown(photo), await shown(kept.jpeg)];
      expect(after.length).toBe(before.length);
      expect(Math.max(...after.map((v, i) => Math.abs(v - (before[i] ?? 0))))).toBeLessThan(12);
    }
  });

  it('draws anew a PDF page holding an image it cannot write again: JPEG 2000, inline, or a JPEG behind a second filter', async () => {
    for (const kind of ['jpx', 'inline', 'flate-dct'] as const) {
      const pdf = await pdfWith(kind);
      // (Deflated once more, the JPEG's EXIF is not in the file's bytes as they are.)
      if (kind !== 'flate-dct') expect(pdf.includes(ARTIST), kind).toBe(true);
      const stripped = await stripMetadata(pdf, 'application/pdf');
      if (!stripped) throw new Error(`${kind}: not stripped`);
      expect(stripped.includes(ARTIST), kind).toBe(false);
      const doc = await PDFDocument.load(stripped);
      expect(doc.getPageCount(), kind).toBe(1);
      for (const image of await pdfImages(stripped)) {
        expect((await sharp(image.jpeg).metadata()).exif, kind).toBeUndefined();
      }
      // One JPEG image, the whole page; no inline or JPEG 2000 image left (nor a deflated
      // copy of the old one, which the byte search above would not see).
      const listed = poppler('pdfimages', ['-list'], stripped).split('\n').slice(2).filter(Boolean);
      expect(listed, kind).toHaveLength(1);
      expect(listed[0], kind).toMatch(
        /^\s*1\s+0\s+image\s+\d+\s+\d+\s+rgb\s+3\s+8\s+jpeg\s+no\s+\d+\s+0\s/,
      );
      expect(
        doc.context
          .enumerateIndirectObjects()
          .filter(
            ([, o]) =>
              o instanceof PDFRawStream &&
              o.dict.get(PDFName.of('Subtype')) === PDFName.of('Image'),
          ),
      ).toHaveLength(1);
      // The page is as large as before and looks the same (poppler draws both at 72 dpi).
      const { width, height } = doc.getPage(0).getSize();
      expect([Math.round(width), Math.round(height)], kind).toEqual([200, 200]);
      const [before, after] = [rendered(pdf), rendered(stripped)];
      expect(after.length, kind).toBe(before.length);
      const differs = after.filter((v, i) => Math.abs(v - (before[i] ?? 0)) > 40);
      // Only the image's edges may shift a little when the page is drawn again.
      expect(differs.length, kind).toBeLessThan(before.length / 100);
    }
  });

  it('refuses such a PDF when poppler cannot be run, never keeping it as sent', async () => {
    const pdf = await pdfWith('inline');
    const saved = process.env.PATH;
    process.env.PATH = '/nonexistent';
    try {
      expect(await stripMetadata(pdf, 'application/pdf')).toBeUndefined();
      // A PDF without such an image does not need poppler.
      const plain = await PDFDocument.create();
      plain.addPage([200, 200]).drawRectangle({ x: 10, y: 10, width: 50, height: 50 });
      plain.setAuthor(ARTIST);
      const stripped = await stripMetadata(Buffer.from(await plain.save()), 'application/pdf');
      expect(stripped).toBeDefined();
      expect(stripped?.includes(ARTIST)).toBe(false);
    } finally {
      process.env.PATH = saved;
    }
  });

  it('answers undefined for a type it does not clean', async () => {
    expect(await stripMetadata(Buffer.from('GIF89a'), 'image/gif')).toBeUndefined();
  });
});
