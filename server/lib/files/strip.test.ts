import { PDFDocument, PDFName, PDFRawStream } from 'pdf-lib';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
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

  it('answers undefined for a type it does not clean', async () => {
    expect(await stripMetadata(Buffer.from('GIF89a'), 'image/gif')).toBeUndefined();
  });
});
