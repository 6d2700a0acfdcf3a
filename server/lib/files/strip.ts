import {
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
// which keeps the pixels and none of the rest; PDFs are rewritten by pdf-lib from their objects.

/**
 * What the stripping below removes, as a number stored with each page it cleaned
 * (`files.stripped_version`): a page stored by an earlier version, or before stripping
 * existed, is cleaned again when it is served (`cleanForServing`).
 */
export const STRIP_VERSION = 2;

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

/** Whether a stream is an image whose bytes are a whole JPEG file (one DCTDecode filter). */
function isJpegImage(stream: PDFRawStream): boolean {
  const { dict } = stream;
  if (dict.get(SUBTYPE) !== IMAGE) return false;
  const filter = dict.get(FILTER);
  const filters = filter instanceof PDFArray ? filter.asArray() : [filter];
  return filters.length === 1 && filters[0] === DCT_DECODE;
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
 * nothing refers to, its JPEG images written again without theirs. Undefined when the library cannot read the bytes (or the PDF is
 * encrypted or has no page), or for a type it does not know.
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
  if (strippedVersion !== null && strippedVersion >= STRIP_VERSION) return data;
  return stripMetadata(data, mime);
}
