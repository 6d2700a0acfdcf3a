import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import {
  decodePDFRawStream,
  PDFArray,
  type PDFContext,
  PDFDict,
  PDFDocument,
  PDFName,
  type PDFObject,
  PDFRawStream,
  PDFRef,
  PDFStream,
} from 'pdf-lib';
import sharp, { type SharpOptions } from 'sharp';

// Blind marking: a page must not name its student through its own metadata (EXIF Artist and
// GPS, PNG text chunks, a PDF's Info and XMP). Images are decoded and written again by libvips,
// which keeps the pixels and none of the rest; PDFs are rewritten by pdf-lib from their objects,
// and a page holding an image neither can write again (JPEG 2000, an inline JPEG, a JPEG behind
// a second filter) is drawn anew from its pixels as poppler renders it.

const execFileAsync = promisify(execFile);

/**
 * What the stripping below removes, as a number stored with each page it cleaned
 * (`files.stripped_version`): a page stored by an earlier version, or before stripping
 * existed, is cleaned again when it is served (`cleanForServing`).
 */
export const STRIP_VERSION = 3;

/**
 * The version from which a type's stripping has not changed: a JPEG or PNG page stored by
 * version 2 is clean as it is (encoding it again would only lose quality); a PDF stored before
 * version 3 may hold JPEG 2000 or inline images whose metadata was kept.
 */
const CLEAN_SINCE: Record<string, number> = {
  'image/jpeg': 2,
  'image/png': 2,
  'application/pdf': 3,
};

/** JPEG pages are encoded again once: high quality, plain libjpeg, the photo's own chroma. */
const JPEG_QUALITY = 92;

// Decode what a viewer would show; only a file libvips cannot read as a whole is refused.
const IMAGE_INPUT = { failOn: 'error', autoOrient: true } as const;
// A JPEG inside a PDF is drawn as its pixels lie: a PDF viewer ignores the EXIF orientation.
const EMBEDDED_INPUT = { failOn: 'error' } as const;

const METADATA = PDFName.of('Metadata');
const PIECE_INFO = PDFName.of('PieceInfo');
const SUBTYPE = PDFName.of('Subtype');
const IMAGE = PDFName.of('Image');
const FILTER = PDFName.of('Filter');
const DCT_DECODE = PDFName.of('DCTDecode');
const COLOR_SPACE = PDFName.of('ColorSpace');
const DECODE = PDFName.of('Decode');
const JPX_DECODE = PDFName.of('JPXDecode');
const FORM = PDFName.of('Form');
const CHAR_PROCS = PDFName.of('CharProcs');
const CONTENTS = PDFName.of('Contents');

/** Resolution pages are drawn anew at: the images' own, within these bounds (dots an inch). */
const RENDER_DPI = { min: 150, max: 300 } as const;
/** How long poppler may take over one document. */
const POPPLER_TIMEOUT_MS = 60_000;

async function stripJpeg(data: Buffer, input: SharpOptions = IMAGE_INPUT): Promise<Buffer> {
  const { chromaSubsampling, channels } = await sharp(data).metadata();
  const image = sharp(data, input);
  // A grey scan stays one channel (libvips would write it as RGB).
  if (channels === 1) image.toColourspace('b-w');
  return image
    .jpeg({
      quality: JPEG_QUALITY,
      mozjpeg: false,
      chromaSubsampling: chromaSubsampling?.startsWith('4:4:4') ? '4:4:4' : '4:2:0',
    })
    .toBuffer();
}

async function stripPng(data: Buffer): Promise<Buffer> {
  const { depth, channels } = await sharp(data).metadata();
  const image = sharp(data, IMAGE_INPUT);
  // libvips writes 8 bits a sample unless the image stays in a 16-bit colour space.
  if (depth === 'ushort') image.toColourspace(channels <= 2 ? 'grey16' : 'rgb16');
  return image.png().toBuffer();
}

/** Every object the document still reaches from its catalog. */
function reachable(context: PDFContext): Set<PDFRef> {
  const seen = new Set<PDFRef>();
  const { Root } = context.trailerInfo;
  const queue: PDFObject[] = Root ? [Root] : [];
  for (let next = queue.pop(); next !== undefined; next = queue.pop()) {
    if (next instanceof PDFRef) {
      if (seen.has(next)) continue;
      seen.add(next);
      const target = context.lookup(next);
      if (target) queue.push(target);
    } else if (next instanceof PDFDict || next instanceof PDFArray) {
      // One by one: a spread of a long array would overflow the call stack.
      for (const item of next instanceof PDFDict ? next.values() : next.asArray()) queue.push(item);
    } else if (next instanceof PDFStream) {
      queue.push(next.dict);
    }
  }
  return seen;
}

const filtersOf = (dict: PDFDict): PDFObject[] => {
  const filter = dict.get(FILTER);
  return filter instanceof PDFArray ? filter.asArray() : filter ? [filter] : [];
};

/** Whether a stream is an image whose bytes are a whole JPEG file (one DCTDecode filter). */
function isJpegImage(stream: PDFRawStream): boolean {
  const { dict } = stream;
  if (dict.get(SUBTYPE) !== IMAGE) return false;
  const filters = filtersOf(dict);
  return filters.length === 1 && filters[0] === DCT_DECODE;
}

/** The inline image operator, BI, as a word of a content stream. */
const INLINE_IMAGE = /(?:^|[\s\])>}])BI(?=[\s/])/;

/**
 * Whether the document may hold an image `stripPdfImages` cannot write again: an image of
 * JPEG 2000, or a JPEG behind another filter, or a drawing (a page's, a form's, a Type 3
 * glyph's) using the inline image operator or encoded in a way pdf-lib cannot read. Then
 * poppler is asked which pages hold one (most documents never need it).
 */
function mayHoldUncleanImages(doc: PDFDocument): boolean {
  const { context } = doc;
  const drawings = new Set<PDFRawStream>();
  const addDrawing = (o: PDFObject | undefined) => {
    const target = o instanceof PDFRef ? context.lookup(o) : o;
    if (target instanceof PDFRawStream) drawings.add(target);
    else if (target instanceof PDFArray) for (const item of target.asArray()) addDrawing(item);
  };
  for (const page of doc.getPages()) addDrawing(page.node.get(CONTENTS));
  for (const [, object] of context.enumerateIndirectObjects()) {
    if (object instanceof PDFRawStream) {
      const subtype = object.dict.get(SUBTYPE);
      if (subtype === FORM) drawings.add(object);
      if (subtype === IMAGE) {
        const filters = filtersOf(object.dict);
        if (filters.includes(JPX_DECODE)) return true;
        if (filters.includes(DCT_DECODE) && !isJpegImage(object)) return true;
      }
    }
    const dict =
      object instanceof PDFStream ? object.dict : object instanceof PDFDict ? object : undefined;
    const procs = dict?.get(CHAR_PROCS);
    const procsDict = procs instanceof PDFRef ? context.lookup(procs) : procs;
    if (procsDict instanceof PDFDict) for (const proc of procsDict.values()) addDrawing(proc);
  }
  for (const drawing of drawings) {
    let text: string;
    try {
      text = Buffer.from(decodePDFRawStream(drawing).decode()).toString('latin1');
    } catch {
      return true;
    }
    if (INLINE_IMAGE.test(text)) return true;
  }
  return false;
}

/**
 * The pages (numbered from 1) holding an image `stripPdfImages` does not write again, each with
 * the resolution to draw it at, as poppler's `pdfimages -list` reports them: an image of JPEG
 * 2000 or an inline JPEG (either may carry its own metadata: a comment, XML or UUID boxes,
 * EXIF), or a JPEG image other than the `cleaned` objects.
 */
async function pagesWithUncleanImages(
  file: string,
  cleaned: ReadonlySet<number>,
): Promise<Map<number, number>> {
  const { stdout } = await execFileAsync('pdfimages', ['-list', file], {
    timeout: POPPLER_TIMEOUT_MS,
    maxBuffer: 16 * 1024 * 1024,
  });
  const pages = new Map<number, number>();
  // page num type width height color comp bpc enc interp object ID x-ppi y-ppi size ratio;
  // an inline image's "object ID" is the one word [inline].
  for (const line of stdout.split('\n').slice(2)) {
    const cols = line.trim().split(/\s+/);
    if (cols.length < 12) continue;
    const [page, enc, object] = [Number(cols[0]), cols[8], cols[10]];
    const isInline = object === '[inline]';
    const isUnclean = isInline
      ? enc === 'jpeg' || enc === 'jpx'
      : enc === 'jpx' || (enc === 'jpeg' && !cleaned.has(Number(object)));
    if (!isUnclean || !Number.isInteger(page)) continue;
    const ppi = Math.max(
      ...cols.slice(isInline ? 11 : 12, isInline ? 13 : 14).map((v) => Number(v) || 0),
    );
    const dpi = Math.min(RENDER_DPI.max, Math.max(RENDER_DPI.min, Math.round(ppi)));
    pages.set(page, Math.max(pages.get(page) ?? 0, dpi));
  }
  return pages;
}

/**
 * Pages holding an image neither libvips nor pdf-lib can write again are drawn anew: poppler
 * renders each (pdftoppm, at its images' resolution), and the page becomes that picture, one
 * JPEG written by libvips, the same size on paper. What else the page held (its text as text,
 * annotations) goes with it; pixels are all a marker is shown of a scan. Without poppler, or
 * when it cannot read the document, this throws: the document is refused, never kept as sent.
 */
async function redrawPagesWithUncleanImages(doc: PDFDocument, original: Buffer) {
  if (!mayHoldUncleanImages(doc)) return;
  const cleaned = new Set(
    doc.context
      .enumerateIndirectObjects()
      .flatMap(([ref, o]) =>
        o instanceof PDFRawStream && isJpegImage(o) ? [ref.objectNumber] : [],
      ),
  );
  const dir = await mkdtemp(path.join(tmpdir(), 'podium-strip-'));
  try {
    const file = path.join(dir, 'page.pdf');
    await writeFile(file, original);
    const pages = await pagesWithUncleanImages(file, cleaned);
    for (const [pageNo, dpi] of pages) {
      const prefix = path.join(dir, `p${pageNo}`);
      const range = ['-f', String(pageNo), '-l', String(pageNo)];
      await execFileAsync(
        'pdftoppm',
        ['-r', String(dpi), ...range, '-png', '-singlefile', file, prefix],
        { timeout: POPPLER_TIMEOUT_MS },
      );
      const png = await readFile(`${prefix}.png`);
      const jpeg = await sharp(png).jpeg({ quality: JPEG_QUALITY, mozjpeg: false }).toBuffer();
      const image = await doc.embedJpg(jpeg);
      const index = pageNo - 1;
      const old = doc.getPage(index);
      // The page as poppler drew it: its crop box, turned as it is shown.
      const { width, height } = old.getCropBox();
      const isTurned = Math.abs(old.getRotation().angle) % 180 === 90;
      const size: [number, number] = isTurned ? [height, width] : [width, height];
      doc.insertPage(index, size).drawImage(image, { x: 0, y: 0, width: size[0], height: size[1] });
      doc.removePage(index + 1);
      // Outlines or links may still point at the old page: it goes, with what only it used.
      doc.context.delete(old.ref);
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * A photo placed in a PDF keeps its own EXIF (Artist, GPS, the camera's serial), which the
 * document's Info does not cover: each JPEG image is written again by libvips, pixels as they
 * lie and nothing else. Grey and RGB stay so; another colour space (CMYK) comes back as sRGB,
 * and the image's dictionary says so.
 */
async function stripPdfImages(context: PDFContext) {
  for (const [ref, object] of context.enumerateIndirectObjects()) {
    if (!(object instanceof PDFRawStream) || !isJpegImage(object)) continue;
    const jpeg = Buffer.from(object.contents);
    const { channels } = await sharp(jpeg).metadata();
    const clean = await stripJpeg(jpeg, EMBEDDED_INPUT);
    const dict = object.dict.clone(context);
    if ((await sharp(clean).metadata()).channels !== channels) {
      dict.set(COLOR_SPACE, PDFName.of('DeviceRGB'));
      dict.delete(DECODE);
    }
    context.assign(ref, PDFRawStream.of(dict, clean));
  }
}

async function stripPdf(data: Buffer): Promise<Buffer> {
  // updateMetadata: false, or pdf-lib writes its own Producer and dates into the Info.
  const doc = await PDFDocument.load(data, { updateMetadata: false });
  // pdf-lib makes what it can of broken bytes; a document without a page is not a page.
  if (doc.getPageCount() === 0) throw new Error('PDF without pages');
  const { context } = doc;
  context.trailerInfo.Info = undefined;
  for (const [, object] of context.enumerateIndirectObjects()) {
    const dict =
      object instanceof PDFStream ? object.dict : object instanceof PDFDict ? object : undefined;
    dict?.delete(METADATA);
    dict?.delete(PIECE_INFO);
  }
  await redrawPagesWithUncleanImages(doc, data);
  // The Info and XMP objects, and those an earlier revision left behind, go with the rest
  // that nothing points at any more.
  const kept = reachable(context);
  for (const [ref] of context.enumerateIndirectObjects()) {
    if (!kept.has(ref)) context.delete(ref);
  }
  await stripPdfImages(context);
  const saved = await doc.save({ addDefaultPage: false, updateFieldAppearances: false });
  return Buffer.from(saved.buffer, saved.byteOffset, saved.byteLength);
}

const STRIPPERS: Record<string, (data: Buffer) => Promise<Buffer>> = {
  'image/jpeg': stripJpeg,
  'image/png': stripPng,
  'application/pdf': stripPdf,
};

/**
 * The page as it looks, without its metadata: JPEG and PNG turned upright by their EXIF
 * orientation and written again without EXIF, XMP, IPTC, text chunks or ICC profile (colours
 * converted to sRGB; PNG losslessly), PDF without its Info dictionary, XMP streams and objects
 * nothing refers to, its JPEG images written again without theirs, and a page holding JPEG 2000
 * or an inline JPEG drawn anew from its pixels. Undefined when the libraries cannot read the
 * bytes (or the PDF is encrypted or has no page, or needs poppler and it is missing), or for a
 * type it does not know.
 */
export async function stripMetadata(data: Buffer, mime: string): Promise<Buffer | undefined> {
  const strip = STRIPPERS[mime];
  if (!strip) return undefined;
  try {
    return await strip(data);
  } catch {
    return undefined;
  }
}

/**
 * Stored bytes fit to hand out: as stored when they went through this version's stripping
 * (so a JPEG is not encoded a second time), else stripped now; undefined when the library
 * cannot read them, which the caller must not serve as they are.
 */
export async function cleanForServing(
  data: Buffer,
  mime: string,
  strippedVersion: number | null,
): Promise<Buffer | undefined> {
  if (strippedVersion !== null && strippedVersion >= (CLEAN_SINCE[mime] ?? STRIP_VERSION)) {
    return data;
  }
  return stripMetadata(data, mime);
}
