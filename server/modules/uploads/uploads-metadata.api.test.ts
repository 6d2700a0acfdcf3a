import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { deflateSync } from 'node:zlib';
import { eq } from 'drizzle-orm';
import { PDFDocument, PDFName, PDFString } from 'pdf-lib';
import sharp, { type Sharp } from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UploadResult } from '../../../shared/schemas/uploads.js';
import { files } from '../../db/schema.js';
import { createStorage } from '../../lib/files/storage.js';
import { STRIP_VERSION } from '../../lib/files/strip.js';
import { buildTestApp, type TestApp } from '../../test/app.js';
import {
  brokenJpeg,
  codeOf,
  DURING,
  filesForm,
  movableClock,
  type Part,
  type Person,
  pngChunk,
  uploadsKit,
} from './uploads.fixtures.js';

// Blind marking (issue 31): what a marker downloads must not name the student, not even
// through the file's own metadata. Each page below carries the name; none comes back.

const NAME = 'Ana Popescu';
const hasPoppler = existsSync('/usr/bin/pdftotext');

let t: TestApp;
let kit: ReturnType<typeof uploadsKit>;
let w: Awaited<ReturnType<ReturnType<typeof uploadsKit>['world']>>;
let ana: Person;

beforeAll(async () => {
  t = await buildTestApp({ clock: movableClock(DURING) });
  kit = uploadsKit(t);
  w = await kit.world();
  ana = w.students.ana;
});
afterAll(async () => {
  await t?.close();
});

const item = (n: number) => {
  const id = w.hybridTest.questionIds[n];
  if (!id) throw new Error(`no item ${n}`);
  return id;
};

/**
 * Uploads one page as the student and downloads it as the exam's staff, who see what markers
 * see: the stored bytes. Checks the file's row describes those bytes.
 */
async function roundTrip(n: number, part: Part): Promise<Buffer> {
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/v1/upload-mgmt${w.hybridUrl}/items/${item(n)}/answers`,
    headers: ana.headers,
    payload: filesForm([part]),
  });
  expect(res.statusCode, res.body).toBe(200);
  const answer = res.json() as UploadResult;
  const file = answer.answerFiles.at(-1);
  if (!file) throw new Error('no file');
  const url = `${w.hybridUrl}/answers/${answer._id}/files?fileId=${file._id}`;
  const download = await kit.call('GET', url, w.staff.headers);
  expect(download.statusCode).toBe(200);
  const served = download.rawPayload;
  const [row] = await t.database.db.select().from(files).where(eq(files.id, file._id));
  if (!row) throw new Error('no file row');
  expect(await createStorage(t.config).get(row.storageKey)).toEqual(served);
  expect(row.size).toBe(served.length);
  // Marked as stripped, so marking serves the bytes as they are, not encoded again.
  expect(row.strippedVersion).toBe(STRIP_VERSION);
  expect(row.sha256).toBe(createHash('sha256').update(served).digest('hex'));
  return served;
}

// sharp does not write PNG text chunks, so the page gets them by hand (pngChunk).

/** A page of 24×16 pixels, each its own colour, so any change of a pixel shows. */
const gradient = () => {
  const raw = Buffer.alloc(24 * 16 * 3);
  for (let i = 0; i < raw.length; i++) raw[i] = (i * 7) % 256;
  return sharp(raw, { raw: { width: 24, height: 16, channels: 3 } });
};

/** Mean difference per channel of two images of the same size, 0–255. */
async function difference(a: Sharp, b: Sharp) {
  const [x, y] = await Promise.all([a.raw().toBuffer(), b.raw().toBuffer()]);
  expect(x.length).toBe(y.length);
  let sum = 0;
  for (let i = 0; i < x.length; i++) sum += Math.abs((x[i] ?? 0) - (y[i] ?? 0));
  return sum / x.length;
}

describe('answer pages are stored without their metadata', () => {
  it('a JPEG photo: no EXIF (Artist, GPS) nor XMP, turned upright, the same picture', async () => {
    // 48×32 as stored, shown turned a quarter (Orientation 6): 32×48 on screen.
    const photo = await sharp({
      create: { width: 48, height: 32, channels: 3, background: { r: 40, g: 90, b: 200 } },
    })
      .composite([
        {
          input: { create: { width: 16, height: 32, channels: 3, background: '#e03020' } },
          left: 0,
          top: 0,
        },
      ])
      .jpeg({ quality: 95 })
      .withExif({
        IFD0: { Artist: NAME, Copyright: NAME },
        IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '44/1 25/1 30/1' },
      })
      .withMetadata({ orientation: 6 })
      .withXmp(`<x:xmpmeta xmlns:x="adobe:ns:meta/"><dc:creator>${NAME}</dc:creator></x:xmpmeta>`)
      .toBuffer();
    const before = await sharp(photo).metadata();
    expect(before.orientation).toBe(6);
    expect(before.exif?.includes(NAME)).toBe(true);
    expect(before.exif?.includes(Buffer.from([0x25, 0x88]))).toBe(true); // the GPS IFD
    expect(before.xmp?.includes(NAME)).toBe(true);

    const served = await roundTrip(0, { name: 'poza.jpg', data: photo });
    const after = await sharp(served).metadata();
    expect(after.format).toBe('jpeg');
    expect(after.exif).toBeUndefined();
    expect(after.xmp).toBeUndefined();
    expect(after.iptc).toBeUndefined();
    expect(after.orientation).toBeUndefined();
    expect(served.includes(NAME)).toBe(false);
    // Upright: what a viewer showed of the photo, within what one JPEG encoding changes.
    expect([after.width, after.height]).toEqual([32, 48]);
    expect(await difference(sharp(photo).autoOrient(), sharp(served))).toBeLessThan(3);
  });

  it('a PNG scan: no tEXt, zTXt, iTXt nor eXIf, every pixel the same', async () => {
    const plain = await gradient().png().toBuffer();
    // eXIf holds the TIFF part of the EXIF block that sharp writes into a JPEG.
    const withExif = await gradient()
      .jpeg()
      .withExif({ IFD0: { Artist: NAME } })
      .toBuffer();
    const exifTiff = (await sharp(withExif).metadata()).exif?.subarray('Exif\0\0'.length);
    if (!exifTiff) throw new Error('no exif');
    const ihdrEnd = 8 + 4 + 4 + 13 + 4;
    const scan = Buffer.concat([
      plain.subarray(0, ihdrEnd),
      pngChunk('tEXt', Buffer.from(`Author\0${NAME}`, 'latin1')),
      pngChunk(
        'zTXt',
        Buffer.concat([Buffer.from('Comment\0\0'), deflateSync(`scanat de ${NAME}`)]),
      ),
      pngChunk('iTXt', Buffer.from(`Title\0\0\0ro\0Titlu\0Lucrarea lui ${NAME}, clasa a VII-a ș`)),
      pngChunk('eXIf', exifTiff),
      plain.subarray(ihdrEnd),
    ]);
    const before = await sharp(scan).metadata();
    expect(before.comments?.map((c) => c.keyword)).toEqual(['Author', 'Comment', 'Title']);
    expect(before.exif?.includes(NAME)).toBe(true);

    const served = await roundTrip(1, { name: 'scan.png', data: scan });
    const after = await sharp(served).metadata();
    expect(after.format).toBe('png');
    expect(after.comments).toBeUndefined();
    expect(after.exif).toBeUndefined();
    expect(after.xmp).toBeUndefined();
    expect(served.includes(NAME)).toBe(false);
    expect([after.width, after.height]).toEqual([24, 16]);
    expect(await difference(sharp(scan), sharp(served))).toBe(0);
  });

  it('a PDF: no Info (Author, Title, Creator…), no XMP, no object left behind; the same pages and text', async () => {
    const doc = await PDFDocument.create();
    doc.addPage([300, 200]).drawText('Rezolvare problema 1', { x: 30, y: 120, size: 14 });
    doc.addPage([300, 200]).drawText('Pagina 2: x = 7', { x: 30, y: 120, size: 14 });
    doc.setAuthor(NAME);
    doc.setTitle(`Lucrarea lui ${NAME}`);
    doc.setSubject('Olimpiada de matematică');
    doc.setKeywords([NAME]);
    doc.setCreator('Scanner Ana');
    doc.setProducer('Telefonul Anei');
    const xmp = `<x:xmpmeta xmlns:x="adobe:ns:meta/"><dc:creator>${NAME}</dc:creator></x:xmpmeta>`;
    const xmpStream = doc.context.stream(xmp, { Type: 'Metadata', Subtype: 'XML' });
    doc.catalog.set(PDFName.of('Metadata'), doc.context.register(xmpStream));
    // An Info an earlier revision left: nothing points at it, but it is in the file.
    doc.context.register(doc.context.obj({ Author: PDFString.of(NAME) }));
    const pdf = Buffer.from(await doc.save({ useObjectStreams: false }));
    expect(pdf.includes(NAME)).toBe(true);

    const served = await roundTrip(2, { name: 'lucrare.pdf', data: pdf });
    const back = await PDFDocument.load(served, { updateMetadata: false });
    // Before the getters, which make an empty Info when there is none.
    expect(back.context.trailerInfo.Info).toBeUndefined();
    expect(back.getAuthor()).toBeUndefined();
    expect(back.getTitle()).toBeUndefined();
    expect(back.getSubject()).toBeUndefined();
    expect(back.getKeywords()).toBeUndefined();
    expect(back.getCreator()).toBeUndefined();
    expect(back.getProducer()).toBeUndefined();
    expect(back.getCreationDate()).toBeUndefined();
    expect(back.catalog.get(PDFName.of('Metadata'))).toBeUndefined();
    expect(served.includes(NAME)).toBe(false);
    expect(back.getPageCount()).toBe(2);
    expect(back.getPages().map((p) => [p.getWidth(), p.getHeight()])).toEqual([
      [300, 200],
      [300, 200],
    ]);
    if (hasPoppler) {
      const text = (bytes: Buffer) => execFileSync('pdftotext', ['-', '-'], { input: bytes });
      expect(text(served).toString()).toBe(text(pdf).toString());
      expect(text(served).toString()).toContain('Rezolvare problema 1');
    }
  });

  it('refuses a page the image or PDF library cannot read, as not of an accepted type', async () => {
    const pages: Part[] = [
      { name: 'poza.jpg', data: brokenJpeg() },
      { name: 'scan.pdf', data: Buffer.from('%PDF-1.4\n%%EOF\n', 'latin1') },
    ];
    for (const page of pages) {
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/v1/upload-mgmt${w.hybridUrl}/items/${item(0)}/answers`,
        headers: w.students.bogdan.headers,
        payload: filesForm([page]),
      });
      expect(res.statusCode, page.name).toBe(415);
      expect(codeOf(res)).toBe('FILE_TYPE_NOT_ALLOWED');
    }
    const stored = await t.database.db
      .select()
      .from(files)
      .where(eq(files.ownerId, w.students.bogdan.id));
    expect(stored).toEqual([]);
  });
});
