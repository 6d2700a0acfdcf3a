import { readFile } from 'node:fs/promises';
import { deflateSync } from 'node:zlib';
import fontkit from '@pdf-lib/fontkit';
import { withoutHinting } from './unhint.js';

/**
 * The fonts printed documents embed: DejaVu Serif, shipped in ./fonts (its licence beside it),
 * so a fresh machine prints the same diacritics as this one.
 *
 * Each font is cut once per process to a fixed repertoire (Latin-1, Latin Extended-A, the
 * comma-below ș ț and typographic punctuation), and every document embeds those same bytes.
 * Cutting a font per document to the letters it uses made each diploma cost 10–170 ms (a
 * thousand of them took minutes); the fixed cut costs nothing per document and about 27 kB of
 * each PDF.
 */
export type PdfFont = {
  /** The PostScript name with a subset tag, as the PDF names it. */
  baseName: string;
  /** The cut TrueType file, deflated, ready to be a FontFile2 stream. */
  fontFile: Buffer;
  fontFileLength: number;
  /** The ToUnicode CMap, deflated: text copied or extracted from the PDF is the real text. */
  toUnicode: Buffer;
  /** Glyph id in the cut font of each code point it carries. */
  glyphOf: ReadonlyMap<number, number>;
  /** Advance width (1/1000 em) of each glyph id, in glyph id order from 0. */
  widths: readonly number[];
  ascent: number;
  descent: number;
  capHeight: number;
  bbox: readonly [number, number, number, number];
  italicAngle: number;
};

export type PdfFonts = { regular: PdfFont; bold: PdfFont };

const FONT_DIR = new URL('./fonts/', import.meta.url);
const FILES = { regular: 'DejaVuSerif.ttf', bold: 'DejaVuSerif-Bold.ttf' } as const;

/** Code points every document may print; anything else is printed as its base letter or '?'. */
function repertoire(): number[] {
  const points: number[] = [];
  for (let c = 0x20; c <= 0x7e; c += 1) points.push(c);
  for (let c = 0xa0; c <= 0x17f; c += 1) points.push(c);
  // Romanian comma-below letters, and the punctuation of Romanian typography.
  points.push(0x218, 0x219, 0x21a, 0x21b);
  points.push(0x2013, 0x2014, 0x2018, 0x2019, 0x201a, 0x201c, 0x201d, 0x201e, 0x2022, 0x2026);
  return points;
}

const hex4 = (n: number) => n.toString(16).toUpperCase().padStart(4, '0');

function toUnicodeCMap(glyphOf: ReadonlyMap<number, number>): string {
  const pairs = [...glyphOf].map(([cp, gid]) => `<${hex4(gid)}> <${hex4(cp)}>`);
  const blocks: string[] = [];
  for (let i = 0; i < pairs.length; i += 100) {
    const block = pairs.slice(i, i + 100);
    blocks.push(`${block.length} beginbfchar\n${block.join('\n')}\nendbfchar`);
  }
  return [
    '/CIDInit /ProcSet findresource begin',
    '12 dict begin',
    'begincmap',
    '/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def',
    '/CMapName /Adobe-Identity-UCS def',
    '/CMapType 2 def',
    '1 begincodespacerange',
    '<0000> <FFFF>',
    'endcodespacerange',
    ...blocks,
    'endcmap',
    'CMapName currentdict /CMap defineresource pop',
    'end',
    'end',
  ].join('\n');
}

async function cutFont(bytes: Buffer, tag: string): Promise<PdfFont> {
  const font = fontkit.create(bytes);
  const scale = 1000 / font.unitsPerEm;
  const subset = font.createSubset();
  const glyphOf = new Map<number, number>();
  for (const cp of repertoire()) {
    if (!font.hasGlyphForCodePoint(cp)) continue;
    glyphOf.set(cp, subset.includeGlyph(font.glyphForCodePoint(cp)));
  }
  const chunks: Buffer[] = [];
  await new Promise<void>((resolve, reject) => {
    // fontkit's stream is a Node readable; its typings list only 'data' and 'end'.
    const stream = subset.encodeStream() as unknown as NodeJS.ReadableStream;
    stream.on('data', (c: Uint8Array) => chunks.push(Buffer.from(c)));
    stream.on('end', () => resolve());
    stream.on('error', reject);
  });
  // Without hinting: half the glyph bytes, and nothing a printed diploma would show.
  const file = withoutHinting(Buffer.concat(chunks));
  // Glyph ids of the cut font follow the order glyphs were included (0 is .notdef).
  const subsetGlyphs = (subset as unknown as { glyphs: number[] }).glyphs;
  const widths = subsetGlyphs.map((gid) => Math.round(font.getGlyph(gid).advanceWidth * scale));
  const { minX, minY, maxX, maxY } = font.bbox;
  return {
    baseName: `${tag}+${font.postscriptName}`,
    fontFile: deflateSync(file),
    fontFileLength: file.length,
    toUnicode: deflateSync(Buffer.from(toUnicodeCMap(glyphOf), 'latin1')),
    glyphOf,
    widths,
    ascent: Math.round(font.ascent * scale),
    descent: Math.round(font.descent * scale),
    capHeight: Math.round(font.capHeight * scale),
    bbox: [minX, minY, maxX, maxY].map((v) => Math.round(v * scale)) as [
      number,
      number,
      number,
      number,
    ],
    italicAngle: font.italicAngle,
  };
}

let loading: Promise<PdfFonts> | undefined;

/**
 * The document fonts, read and cut on first use and kept for the process. Rejects when the
 * font files are missing or unreadable (the caller answers PDF_UNAVAILABLE), and the next call
 * tries again.
 */
export function loadPdfFonts(): Promise<PdfFonts> {
  if (!loading) {
    const started = (async () => {
      const [regular, bold] = await Promise.all([
        readFile(new URL(FILES.regular, FONT_DIR)),
        readFile(new URL(FILES.bold, FONT_DIR)),
      ]);
      return { regular: await cutFont(regular, 'PDMREG'), bold: await cutFont(bold, 'PDMBLD') };
    })();
    loading = started;
    started.catch(() => {
      if (loading === started) loading = undefined;
    });
  }
  return loading;
}
