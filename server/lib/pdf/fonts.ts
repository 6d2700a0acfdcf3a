import { existsSync, readFileSync } from 'node:fs';
import { access, readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { deflateSync } from 'node:zlib';
import fontkit, { type Font, type Subset } from '@pdf-lib/fontkit';
// fontkit's Indic and Universal shapers (Devanagari, Bengali, Tamil, …) run a generator compiled
// for regenerator's runtime and read it as a global it does not bring itself: without it, laying
// out such a name throws "regeneratorRuntime is not defined".
import 'regenerator-runtime/runtime.js';
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
 * marks — and is embedded only in a document whose text needs it.
 *
 * Scripts DejaVu Serif lacks fall back, letter by letter, to Noto fonts shipped as npm packages
 * (`FALLBACKS`): Noto Naskh Arabic, Noto Sans Hebrew, Devanagari, Bengali and Tamil, Noto Sans
 * SC (Chinese, and Japanese kana) and Noto Sans KR (Hangul). These are too large to cut once
 * (Noto Sans SC has 30,000 glyphs), so each document embeds only the glyphs it draws, shaped by
 * fontkit (Arabic joining forms and ligatures, Indic conjuncts and reordered vowel signs;
 * the visual order of a name mixing directions by the Unicode bidi algorithm: pdf-writer.ts).
 * The small fonts come first: a letter is looked up in them before the large ones are read.
 * What no font has (Thai, Ethiopic, …) prints as the empty box, one a character, with the real
 * text kept for copying and search.
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

/** A fallback font file, read and parsed on first use (most documents never need one). */
export type FallbackFont = {
  readonly file: string;
  /** The parsed font (fontkit), for shaping and cutting. */
  font(): Font;
};

export type PdfFonts = {
  regular: PdfFont;
  bold: PdfFont;
  /** The other scripts of the same fonts, embedded only where a document uses them. */
  extra: { regular: PdfFont; bold: PdfFont };
  /** Fonts for the scripts DejaVu Serif lacks, asked in this order for a letter none has. */
  fallback: readonly { regular: FallbackFont; bold: FallbackFont }[];
};

/** The fallback fonts: npm package, and each style's file inside it. */
const FALLBACKS = [
  {
    pkg: '@embedpdf/fonts-arabic',
    regular: 'fonts/NotoNaskhArabic-Regular.ttf',
    bold: 'fonts/NotoNaskhArabic-Bold.ttf',
  },
  {
    pkg: '@embedpdf/fonts-hebrew',
    regular: 'fonts/NotoSansHebrew-Regular.ttf',
    bold: 'fonts/NotoSansHebrew-Bold.ttf',
  },
  {
    pkg: '@expo-google-fonts/noto-sans-devanagari',
    regular: '400Regular/NotoSansDevanagari_400Regular.ttf',
    bold: '700Bold/NotoSansDevanagari_700Bold.ttf',
  },
  {
    pkg: '@expo-google-fonts/noto-sans-bengali',
    regular: '400Regular/NotoSansBengali_400Regular.ttf',
    bold: '700Bold/NotoSansBengali_700Bold.ttf',
  },
  {
    pkg: '@expo-google-fonts/noto-sans-tamil',
    regular: '400Regular/NotoSansTamil_400Regular.ttf',
    bold: '700Bold/NotoSansTamil_700Bold.ttf',
  },
  {
    pkg: '@expo-google-fonts/noto-sans-sc',
    regular: '400Regular/NotoSansSC_400Regular.ttf',
    bold: '700Bold/NotoSansSC_700Bold.ttf',
  },
  {
    pkg: '@expo-google-fonts/noto-sans-kr',
    regular: '400Regular/NotoSansKR_400Regular.ttf',
    bold: '700Bold/NotoSansKR_700Bold.ttf',
  },
] as const;

const requireHere = createRequire(import.meta.url);

/** The folder of an installed package (found from its entry point, whatever it exports). */
function packageRoot(pkg: string): string {
  let dir = path.dirname(requireHere.resolve(pkg));
  for (;;) {
    const manifest = path.join(dir, 'package.json');
    if (existsSync(manifest) && JSON.parse(readFileSync(manifest, 'utf8')).name === pkg) return dir;
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`No folder found for ${pkg}`);
    dir = parent;
  }
}

function fallbackFont(file: string): FallbackFont {
  let parsed: Font | undefined;
  return {
    file,
    font: () => {
      parsed ??= fontkit.create(readFileSync(file));
      return parsed;
    },
  };
}

/** The fallback fonts, their files checked to be there (they are parsed when first needed). */
async function fallbackFonts(): Promise<PdfFonts['fallback']> {
  return Promise.all(
    FALLBACKS.map(async ({ pkg, regular, bold }) => {
      const root = packageRoot(pkg);
      const files = [path.join(root, regular), path.join(root, bold)] as const;
      await Promise.all(files.map((f) => access(f)));
      return { regular: fallbackFont(files[0]), bold: fallbackFont(files[1]) };
    }),
  );
}

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

/** UTF-16BE hex of a text, as a ToUnicode map writes it. */
const utf16Hex = (text: string) =>
  Array.from({ length: text.length }, (_, i) => hex4(text.charCodeAt(i))).join('');

/** A ToUnicode CMap of [glyph id, the text it stands for] pairs, deflated. */
export function toUnicodeStream(pairs: Iterable<readonly [number, string]>): Buffer {
  return deflateSync(
    Buffer.from(
      toUnicodeCMap([...pairs].map(([gid, text]) => `<${hex4(gid)}> <${utf16Hex(text)}>`)),
      'latin1',
    ),
  );
}

function toUnicodeCMap(pairs: string[]): string {
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

type SubsetInternals = { glyf: Buffer[]; offset: number; _addGlyph(gid: number): number };

/**
 * A new cut of `font`. fontkit writes the cut's glyph offsets in the short form (halved) when
 * they are small, which loses the last byte of a glyph of odd length (Noto Sans SC has many;
 * DejaVu none): the glyph then draws as nothing. Each glyph is padded to an even length, as
 * the TrueType format asks of the short form.
 */
export function createSubset(font: Font): Subset {
  const subset = font.createSubset();
  const inner = subset as unknown as SubsetInternals;
  const addGlyph = inner._addGlyph.bind(subset);
  inner._addGlyph = (gid: number) => {
    const index = addGlyph(gid);
    const data = inner.glyf[index];
    if (data && data.length % 2 === 1) {
      // fontkit's own Buffer class (its stream takes no other), one zero byte longer.
      const Bytes = data.constructor as new (length: number) => Buffer;
      const padded = new Bytes(data.length + 1);
      padded.set(data);
      inner.glyf[index] = padded;
      inner.offset += 1;
    }
    return index;
  };
  return subset;
}

/** A cut of a font as a TrueType file, without hinting, and its glyphs' original ids in order. */
async function encodeSubset(subset: Subset): Promise<{ file: Buffer; glyphs: number[] }> {
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
  const glyphs = [...(subset as unknown as { glyphs: number[] }).glyphs];
  return { file, glyphs };
}

/**
 * A cut of `font` holding the glyphs `subset` was given, as a PdfFont whose ToUnicode map is
 * `textOf` (cut glyph id → the text it stands for). `tag` is the six capitals naming the cut.
 */
export async function cutOfSubset(
  font: Font,
  subset: Subset,
  tag: string,
  textOf: ReadonlyMap<number, string>,
): Promise<PdfFont> {
  const { file, glyphs } = await encodeSubset(subset);
  return describeCut(font, tag, file, glyphs, textOf, new Map());
}

async function cutFont(bytes: Buffer, tag: string, points: number[]): Promise<PdfFont> {
  const font = fontkit.create(bytes);
  const subset = createSubset(font);
  const glyphOf = new Map<number, number>();
  for (const cp of points) {
    if (!font.hasGlyphForCodePoint(cp)) continue;
    glyphOf.set(cp, subset.includeGlyph(font.glyphForCodePoint(cp)));
  }
  const { file, glyphs } = await encodeSubset(subset);
  const textOf = new Map([...glyphOf].map(([cp, gid]) => [gid, String.fromCodePoint(cp)]));
  return describeCut(font, tag, file, glyphs, textOf, glyphOf);
}

function describeCut(
  font: Font,
  tag: string,
  file: Buffer,
  glyphs: number[],
  textOf: ReadonlyMap<number, string>,
  glyphOf: ReadonlyMap<number, number>,
): PdfFont {
  const scale = 1000 / font.unitsPerEm;
  const widths = glyphs.map((gid) => Math.round(font.getGlyph(gid).advanceWidth * scale));
  const { minX, minY, maxX, maxY } = font.bbox;
  return {
    baseName: `${tag}+${font.postscriptName}`,
    fontFile: deflateSync(file),
    fontFileLength: file.length,
    toUnicode: toUnicodeStream(textOf),
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
      const fallback = await fallbackFonts();
      return {
        fallback,
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

/**
 * The fonts, on a worker thread drawing a job's documents: a failure is an error with the code
 * PDF_UNAVAILABLE, which the job records (server/lib/jobs/runner.ts, runOnThread).
 */
export async function loadThreadPdfFonts(documents: string): Promise<PdfFonts> {
  try {
    return await loadPdfFonts();
  } catch {
    throw Object.assign(new Error(`The ${documents} fonts are missing`), {
      code: 'PDF_UNAVAILABLE',
    });
  }
}
