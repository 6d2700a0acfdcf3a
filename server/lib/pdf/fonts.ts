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
 * each PDF. A second cut of the same fonts (`extra`) holds the other scripts DejaVu Serif draws
 * — Latin Extended-B and Additional, Greek, Cyrillic, Armenian, Georgian, IPA and combining
 * marks — and is embedded only in a document whose text needs it. Scripts DejaVu Serif lacks
 * (Arabic, Hebrew, the CJK and Indic scripts) print as the font's empty box, one a character,
 * with the real text kept for copying and search (pdf-writer.ts).
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

export type PdfFonts = {
  regular: PdfFont;
  bold: PdfFont;
  /** The other scripts of the same fonts, embedded only where a document uses them. */
  extra: { regular: PdfFont; bold: PdfFont };
};

const FONT_DIR = new URL('./fonts/', import.meta.url);
const FILES = { regular: 'DejaVuSerif.ttf', bold: 'DejaVuSerif-Bold.ttf' } as const;

/** Code points every document's fonts carry. */
function repertoire(): number[] {
  const points: number[] = [];
  for (let c = 0x20; c <= 0x7e; c += 1) points.push(c);
  for (let c = 0xa0; c <= 0x17f; c += 1) points.push(c);
  // Romanian comma-below letters, and the punctuation of Romanian typography.
  points.push(0x218, 0x219, 0x21a, 0x21b);
  points.push(0x2013, 0x2014, 0x2018, 0x2019, 0x201a, 0x201c, 0x201d, 0x201e, 0x2022, 0x2026);
  return points;
}

/** Blocks of the extra cut (what of them the font draws, less what the first cut has). */
const EXTRA_BLOCKS: readonly (readonly [number, number])[] = [
  [0x180, 0x24f], // Latin Extended-B
  [0x250, 0x2ff], // IPA, spacing modifiers
  [0x300, 0x36f], // combining marks
  [0x370, 0x3ff], // Greek
  [0x400, 0x52f], // Cyrillic and its supplement
  [0x530, 0x58f], // Armenian
  [0x10a0, 0x10ff], // Georgian
  [0x1e00, 0x1eff], // Latin Extended Additional (Vietnamese among others)
  [0x1f00, 0x1fff], // Greek Extended
  [0x2c60, 0x2c7f], // Latin Extended-C
  [0xa720, 0xa7ff], // Latin Extended-D
];

function extraRepertoire(): number[] {
  const first = new Set(repertoire());
  const points: number[] = [];
  for (const [from, to] of EXTRA_BLOCKS) {
    for (let c = from; c <= to; c += 1) if (!first.has(c)) points.push(c);
  }
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

async function cutFont(bytes: Buffer, tag: string, points: number[]): Promise<PdfFont> {
  const font = fontkit.create(bytes);
  const scale = 1000 / font.unitsPerEm;
  const subset = font.createSubset();
  const glyphOf = new Map<number, number>();
  for (const cp of points) {
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
      const base = repertoire();
      const extra = extraRepertoire();
      return {
        regular: await cutFont(regular, 'PDMREG', base),
        bold: await cutFont(bold, 'PDMBLD', base),
        extra: {
          regular: await cutFont(regular, 'PDMREX', extra),
          bold: await cutFont(bold, 'PDMBEX', extra),
        },
      };
    })();
    loading = started;
    started.catch(() => {
      if (loading === started) loading = undefined;
    });
  }
  return loading;
}
