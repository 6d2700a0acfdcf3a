import type { Font, Subset } from '@pdf-lib/fontkit';
import bidiJs from 'bidi-js';
import { createSubset, cutOfSubset, type PdfFont, type PdfFonts } from './fonts.js';

/**
 * A small PDF writer for documents made of text, lines and filled boxes (diplomas): pages of
 * drawing operations over the embedded fonts of fonts.ts (the extra cut only when used), written as PDF 1.7 with Type 0
 * (Identity-H) fonts and ToUnicode maps, so the text can be searched and copied. The fonts'
 * objects are serialised once per process; a document costs only its own drawing (a diploma
 * about 2–3 ms with its QR code), where a general-purpose PDF library took 165 ms a diploma
 * on this machine (it parses and cuts the font for every document).
 */
export type FontStyle = 'regular' | 'bold';
export type Rgb = readonly [number, number, number];

export type TextOptions = { font?: FontStyle; size: number; color?: Rgb };

export type PdfPage = {
  readonly width: number;
  readonly height: number;
  /** Text with its baseline's left end at (x, y), in points from the bottom left. */
  text(text: string, x: number, y: number, options: TextOptions): void;
  /** Text centred on x. */
  centred(text: string, x: number, y: number, options: TextOptions): void;
  /** Text ending at x. */
  rightAligned(text: string, x: number, y: number, options: TextOptions): void;
  line(x1: number, y1: number, x2: number, y2: number, width: number, color: Rgb): void;
  strokeRect(x: number, y: number, w: number, h: number, width: number, color: Rgb): void;
  /**
   * Filled boxes of one colour on a grid of `cell`-point squares whose origin is (x, y), drawn
   * as one path (a QR code is hundreds of them); boxes are [column, row, columns, rows].
   */
  fillGrid(
    x: number,
    y: number,
    cell: number,
    boxes: readonly (readonly [number, number, number, number])[],
    color: Rgb,
  ): void;
};

export type PdfDocument = {
  addPage(width: number, height: number): PdfPage;
  /** The width of `text` in points. */
  measure(text: string, font: FontStyle, size: number): number;
  /** The PDF (async: the fallback fonts are cut to the document's glyphs). */
  save(): Promise<Buffer>;
};

const num = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(2));
const rgb = (c: Rgb) => c.map((v) => num(v)).join(' ');

// Romanian is printed with comma-below ș ț (GLOSSARY.md), whatever was typed.
const CEDILLA = new Map([
  [0x15e, 0x218],
  [0x15f, 0x219],
  [0x162, 0x21a],
  [0x163, 0x21b],
]);

/** A glyph of a fallback font as shaped: its id in the whole font, in 1/1000 em. */
type Placed = { gid: number; width: number; advance: number; dx: number; dy: number; text: string };
/** A stretch of text drawn with one font: the first cut, the extra one, or a fallback font. */
type Run =
  | { kind: 'cut'; isExtra: boolean; ids: number[] }
  | { kind: 'fallback'; face: number; glyphs: Placed[] };
/**
 * How a text is drawn: its runs left to right; whether some character had no glyph; whether
 * the glyphs, read in the order drawn, do not spell the text (an Indic vowel sign drawn before
 * the consonant it follows). Either way the drawing carries the real text for copy and search.
 */
type Shaped = { runs: Run[]; hasMissing: boolean; isReordered: boolean };

// bidi-js is CommonJS whose module.exports is the factory; its typings call that factory the
// default export, which TypeScript then reads as `.default` of the module.
type BidiFactory = typeof bidiJs.default;
const bidiFactory = ((bidiJs as unknown as { default?: BidiFactory }).default ??
  bidiJs) as unknown as BidiFactory;
const bidi = bidiFactory();
/**
 * Characters that can make a text's visual order differ from its logical order: letters of the
 * right-to-left scripts and the explicit direction marks. A text without any is drawn as typed
 * (the bidi algorithm would give every character level 0), and skips the algorithm.
 */
const MAY_REORDER =
  /[\u0590-\u08ff\u200f\u202a-\u202e\u2066-\u2069\ufb1d-\ufdff\ufe70-\ufeff\u{10800}-\u{10fff}\u{1e800}-\u{1efff}]/u;
/** Characters shaped with the letters around them when both are of one fallback font. */
const JOINER = /[\s\u200c\u200d]/u;

/** Shaped runs of fallback fonts, kept a while: fitting a name measures it many times. */
const layouts = new Map<string, { glyphs: Placed[]; hasMissing: boolean; isReordered: boolean }>();
const LAYOUTS_KEPT = 2000;

function layoutFallback(
  fonts: PdfFonts,
  style: FontStyle,
  face: number,
  text: string,
  isRtl: boolean,
) {
  const key = `${face}:${style}:${isRtl ? 'r' : 'l'}:${text}`;
  const known = layouts.get(key);
  if (known) return known;
  const fallback = fonts.fallback[face];
  if (!fallback) throw new Error(`No fallback font ${face}`);
  const font = fallback[style].font();
  const scale = 1000 / font.unitsPerEm;
  // fontkit shapes (Arabic joining forms, ligatures, marks; Indic conjuncts and reordered vowel
  // signs) and answers a right-to-left run in the order it is drawn, left to right.
  // (fontkit takes the direction as its fifth argument; its typings list two.)
  const layout = font.layout.bind(font) as (
    text: string,
    features: string[],
    script: string | undefined,
    language: string | undefined,
    direction: 'ltr' | 'rtl',
  ) => ReturnType<Font['layout']>;
  const run = layout(text, [], undefined, undefined, isRtl ? 'rtl' : 'ltr');
  let hasMissing = false;
  const glyphs = run.glyphs.map((glyph, i) => {
    const at = run.positions[i];
    if (glyph.id === 0) hasMissing = true;
    return {
      gid: glyph.id,
      width: Math.round(glyph.advanceWidth * scale),
      advance: (at?.xAdvance ?? glyph.advanceWidth) * scale,
      dx: (at?.xOffset ?? 0) * scale,
      dy: (at?.yOffset ?? 0) * scale,
      text: String.fromCodePoint(...glyph.codePoints),
    };
  });
  const inReadingOrder = (isRtl ? [...glyphs].reverse() : glyphs).map((g) => g.text).join('');
  if (layouts.size >= LAYOUTS_KEPT) layouts.clear();
  const laid = { glyphs, hasMissing, isReordered: inReadingOrder !== text };
  layouts.set(key, laid);
  return laid;
}

/** Where a character's glyph comes from: a cut (its glyph id), a fallback font, or none. */
type Source = { cut: 'base' | 'extra'; id: number } | { face: number } | { missing: true };

/** Each character's bidi embedding level (odd: right to left), and the visual order of runs. */
function bidiOf(text: string, chars: readonly string[]) {
  if (!MAY_REORDER.test(text)) return undefined;
  const embedding = bidi.getEmbeddingLevels(text);
  // bidi-js counts UTF-16 units; a character's level is that of its first unit.
  const unitOf: number[] = [];
  let unit = 0;
  for (const char of chars) {
    unitOf.push(unit);
    unit += char.length;
  }
  const levels = unitOf.map((u) => embedding.levels[u] ?? 0);
  /** The runs (given as each unit's run) left to right, as the algorithm's rule L2 orders them. */
  const visualOrder = (runOfUnit: readonly number[]): number[] => {
    const units = bidi.getReorderedIndices(text, embedding);
    const order: number[] = [];
    for (const u of units) {
      const run = runOfUnit[u] ?? 0;
      if (!order.includes(run)) order.push(run);
    }
    return order;
  };
  return { levels, visualOrder };
}

/**
 * The glyphs of `text` in a style: each character from the first cut, else the extra cut
 * (Greek, Cyrillic, …), else the first fallback font that has it (Arabic, Hebrew, Indic
 * scripts, Chinese, Korean; a stretch of one such font is shaped as a whole, spaces inside it
 * included), else its letter without accents, else the font's empty box (glyph 0, visibly
 * missing). A text mixing directions is put in visual order by the Unicode bidi algorithm
 * (bidi-js): each run of one font and one level is drawn in its direction, the runs in the
 * order the algorithm gives, and a right-to-left run's brackets mirrored.
 */
function shape(fonts: PdfFonts, style: FontStyle, text: string): Shaped {
  const base = fonts[style];
  const extra = fonts.extra[style];
  const normal = text.normalize('NFC');
  const chars = [...normal];
  const order = bidiOf(normal, chars);
  const levelOf = (i: number) => order?.levels[i] ?? 0;
  const sources: Source[] = chars.map((char, i) => {
    const unit = char.codePointAt(0) ?? 0;
    // A right-to-left run draws "(" as ")" (rule L4).
    const mirrored = levelOf(i) % 2 === 1 ? bidi.getMirroredCharacter(char) : null;
    const cp = CEDILLA.get(unit) ?? mirrored?.codePointAt(0) ?? unit;
    const id = base.glyphOf.get(cp);
    if (id !== undefined) return { cut: 'base', id };
    const extraId = extra.glyphOf.get(cp);
    if (extraId !== undefined) return { cut: 'extra', id: extraId };
    const face = fonts.fallback.findIndex((f) => f[style].font().hasGlyphForCodePoint(cp));
    if (face >= 0) return { face };
    // No font has it: the letter without its accents, if that is printable.
    const plain = base.glyphOf.get(String.fromCodePoint(cp).normalize('NFD').codePointAt(0) ?? 0);
    if (plain !== undefined && plain !== 0) return { cut: 'base', id: plain };
    return { missing: true };
  });
  // Spaces (and zero-width joiners) between two letters of one fallback font are shaped with them.
  const faceOf = (s: Source | undefined) => (s && 'face' in s ? s.face : -1);
  for (let i = 1; i < chars.length - 1; i += 1) {
    if (!JOINER.test(chars[i] ?? '')) continue;
    let next = i + 1;
    while (next < chars.length && JOINER.test(chars[next] ?? '')) next += 1;
    const face = faceOf(sources[i - 1]);
    if (face >= 0 && faceOf(sources[next]) === face) {
      for (let j = i; j < next; j += 1) sources[j] = { face };
    }
  }
  // Runs in logical order: a new one where the font or the level changes.
  const runs: Run[] = [];
  const runOfChar: number[] = [];
  let hasMissing = false;
  let isReordered = false;
  let pending = '';
  let pendingFace = -1;
  let pendingLevel = 0;
  let lastLevel = -1;
  const flushFallback = () => {
    if (!pending) return;
    const laid = layoutFallback(fonts, style, pendingFace, pending, pendingLevel % 2 === 1);
    if (laid.hasMissing) hasMissing = true;
    if (laid.isReordered) isReordered = true;
    runs.push({ kind: 'fallback', face: pendingFace, glyphs: laid.glyphs });
    pending = '';
  };
  sources.forEach((source, i) => {
    const level = levelOf(i);
    if ('face' in source) {
      if (pending && (pendingFace !== source.face || pendingLevel !== level)) flushFallback();
      pendingFace = source.face;
      pendingLevel = level;
      pending += chars[i];
      runOfChar.push(runs.length);
      lastLevel = level;
      return;
    }
    flushFallback();
    let isExtra = false;
    let id = 0;
    if ('missing' in source) hasMissing = true;
    else {
      isExtra = source.cut === 'extra';
      id = source.id;
    }
    const last = runs[runs.length - 1];
    if (last?.kind === 'cut' && last.isExtra === isExtra && lastLevel === level) last.ids.push(id);
    else runs.push({ kind: 'cut', isExtra, ids: [id] });
    runOfChar.push(runs.length - 1);
    lastLevel = level;
  });
  flushFallback();
  if (!order) return { runs, hasMissing, isReordered };
  // A right-to-left run of the cuts is drawn last letter first; then the runs in visual order.
  runs.forEach((run, r) => {
    const first = runOfChar.indexOf(r);
    if (run.kind === 'cut' && levelOf(first) % 2 === 1) run.ids.reverse();
  });
  const runOfUnit: number[] = [];
  chars.forEach((char, i) => {
    for (let k = 0; k < char.length; k += 1) runOfUnit.push(runOfChar[i] ?? 0);
  });
  const visual = order.visualOrder(runOfUnit).map((r) => runs[r] as Run);
  return { runs: visual, hasMissing, isReordered };
}

const hex4 = (n: number) => n.toString(16).toUpperCase().padStart(4, '0');
/** Glyph ids as Identity-H hex, made once: text drawing is most of a document's work. */
const HEX = Array.from({ length: 0x1000 }, (_, i) => hex4(i));
const hexOf = (id: number) => HEX[id] ?? hex4(id);

/** The five objects of one font (Type 0 font, CID font, descriptor, file, ToUnicode) at `base`. */
function fontObjectsAt(f: PdfFont, style: FontStyle, base: number): Buffer[] {
  const [cid, descriptor, file, toUnicode] = [base + 1, base + 2, base + 3, base + 4];
  return [
    Buffer.from(
      `<< /Type /Font /Subtype /Type0 /BaseFont /${f.baseName} /Encoding /Identity-H ` +
        `/DescendantFonts [${cid} 0 R] /ToUnicode ${toUnicode} 0 R >>`,
      'latin1',
    ),
    Buffer.from(
      `<< /Type /Font /Subtype /CIDFontType2 /BaseFont /${f.baseName} ` +
        '/CIDSystemInfo << /Registry (Adobe) /Ordering (Identity) /Supplement 0 >> ' +
        `/FontDescriptor ${descriptor} 0 R /CIDToGIDMap /Identity /DW 1000 ` +
        `/W [0 [${f.widths.join(' ')}]] >>`,
      'latin1',
    ),
    Buffer.from(
      `<< /Type /FontDescriptor /FontName /${f.baseName} /Flags 34 ` +
        `/FontBBox [${f.bbox.join(' ')}] /ItalicAngle ${num(f.italicAngle)} ` +
        `/Ascent ${f.ascent} /Descent ${f.descent} /CapHeight ${f.capHeight} ` +
        `/StemV ${style === 'bold' ? 140 : 80} /FontFile2 ${file} 0 R >>`,
      'latin1',
    ),
    stream(f.fontFile, true, `/Length1 ${f.fontFileLength}`),
    stream(f.toUnicode),
  ];
}

/** The objects of both fonts, numbered 4 to 13, serialised once per fonts. */
const fontObjectsCache = new WeakMap<PdfFonts, Buffer[]>();

function fontObjects(fonts: PdfFonts): Buffer[] {
  const cached = fontObjectsCache.get(fonts);
  if (cached) return cached;
  const objects = [
    ...fontObjectsAt(fonts.regular, 'regular', 4),
    ...fontObjectsAt(fonts.bold, 'bold', 9),
  ];
  fontObjectsCache.set(fonts, objects);
  return objects;
}

function stream(data: Buffer, isDeflated = true, extra = ''): Buffer {
  const filter = isDeflated ? ' /Filter /FlateDecode' : '';
  return Buffer.concat([
    Buffer.from(
      `<< /Length ${data.length}${filter}${extra ? ` ${extra}` : ''} >>\nstream\n`,
      'latin1',
    ),
    data,
    Buffer.from('\nendstream', 'latin1'),
  ]);
}

/** A PDF text string (UTF-16BE with its byte order mark): the document's information, ActualText. */
function infoString(text: string): string {
  let hex = 'FEFF';
  for (let i = 0; i < text.length; i += 1) hex += hex4(text.charCodeAt(i));
  return `<${hex}>`;
}

/** A fallback font a document draws with: its resource name and the glyphs it used. */
type UsedFallback = { name: string; font: Font; subset: Subset; textOf: Map<number, string> };

/** A new document over `fonts`; `title` goes in its properties. */
export function createPdfDocument(fonts: PdfFonts, title: string): PdfDocument {
  const pages: { width: number; height: number; ops: string[] }[] = [];

  /** Whether a text of the document needed the extra cut (then it is embedded). */
  let usesExtra = false;
  const fontOf = (style: FontStyle, isExtra: boolean) =>
    isExtra ? fonts.extra[style] : fonts[style];
  /** The fallback fonts the document draws with, cut to its glyphs when it is saved. */
  const fallbacks = new Map<string, UsedFallback>();
  const fallbackOf = (style: FontStyle, face: number): UsedFallback => {
    const key = `${face}:${style}`;
    let used = fallbacks.get(key);
    if (!used) {
      const font = fonts.fallback[face]?.[style].font();
      if (!font) throw new Error(`No fallback font ${face}`);
      used = {
        name: `F${5 + fallbacks.size}`,
        font,
        subset: createSubset(font),
        textOf: new Map(),
      };
      fallbacks.set(key, used);
    }
    return used;
  };

  const measure = (text: string, style: FontStyle, size: number) => {
    let units = 0;
    for (const run of shape(fonts, style, text).runs) {
      if (run.kind === 'fallback') {
        for (const g of run.glyphs) units += g.advance;
        continue;
      }
      const font = fontOf(style, run.isExtra);
      for (const id of run.ids) units += font.widths[id] ?? 1000;
    }
    return (units * size) / 1000;
  };

  /** A shaped run of a fallback font as text operators: offsets and advances as laid out. */
  const fallbackOps = (style: FontStyle, face: number, glyphs: Placed[], size: number) => {
    const used = fallbackOf(style, face);
    const parts = [`/${used.name} ${num(size)} Tf`];
    let rise = 0;
    let shown: string[] = [];
    const flush = () => {
      if (shown.length > 0) parts.push(`[${shown.join(' ')}] TJ`);
      shown = [];
    };
    for (const g of glyphs) {
      const id = used.subset.includeGlyph(g.gid);
      if (!used.textOf.has(id)) used.textOf.set(id, g.text);
      if (g.dy !== rise) {
        flush();
        rise = g.dy;
        parts.push(`${num((rise * size) / 1000)} Ts`);
      }
      // A TJ number moves the next glyph left by that many 1/1000 em.
      if (g.dx) shown.push(num(-g.dx));
      shown.push(`<${hexOf(id)}>`);
      const after = g.dx + g.width - g.advance;
      if (Math.abs(after) >= 0.01) shown.push(num(after));
    }
    flush();
    if (rise) parts.push('0 Ts');
    return parts.join(' ');
  };

  function addPage(width: number, height: number): PdfPage {
    const ops: string[] = [];
    pages.push({ width, height, ops });
    const text = (value: string, x: number, y: number, o: TextOptions) => {
      const style = o.font ?? 'regular';
      const { runs, hasMissing, isReordered } = shape(fonts, style, value);
      if (runs.length === 0) return;
      // F1/F2: the first cut, regular and bold; F3/F4: the extra cut; F5 on: fallback fonts.
      const shown = runs.map((run) => {
        if (run.kind === 'fallback') return fallbackOps(style, run.face, run.glyphs, o.size);
        if (run.isExtra) usesExtra = true;
        const name = `F${(style === 'bold' ? 2 : 1) + (run.isExtra ? 2 : 0)}`;
        return `/${name} ${num(o.size)} Tf <${run.ids.map(hexOf).join('')}> Tj`;
      });
      const drawn = `BT ${rgb(o.color ?? [0, 0, 0])} rg ${num(x)} ${num(y)} Td ${shown.join(' ')} ET`;
      // A box stands for a letter no font has, and an Indic vowel sign is drawn before the
      // consonant it follows: the real text is what a copy or search finds. (Other shaped
      // glyphs need no such text: each maps back to its letters, and readers put right-to-left
      // text drawn left to right back in reading order; poppler reads the words of a line
      // mixing directions left to right as drawn, and an ActualText there it reverses.)
      ops.push(
        hasMissing || isReordered
          ? `/Span << /ActualText ${infoString(value)} >> BDC ${drawn} EMC`
          : drawn,
      );
    };
    return {
      width,
      height,
      text,
      centred: (value, x, y, o) =>
        text(value, x - measure(value, o.font ?? 'regular', o.size) / 2, y, o),
      rightAligned: (value, x, y, o) =>
        text(value, x - measure(value, o.font ?? 'regular', o.size), y, o),
      line: (x1, y1, x2, y2, w, color) =>
        ops.push(`${rgb(color)} RG ${num(w)} w ${num(x1)} ${num(y1)} m ${num(x2)} ${num(y2)} l S`),
      strokeRect: (x, y, w, h, lw, color) =>
        ops.push(`${rgb(color)} RG ${num(lw)} w ${num(x)} ${num(y)} ${num(w)} ${num(h)} re S`),
      fillGrid: (x, y, cell, boxes, color) => {
        if (boxes.length === 0) return;
        const path = boxes.map(([c, r, w, h]) => `${c} ${r} ${w} ${h} re`).join(' ');
        const to = `${num(cell)} 0 0 ${num(cell)} ${num(x)} ${num(y)} cm`;
        ops.push(`q ${to} ${rgb(color)} rg ${path} f Q`);
      },
    };
  }

  async function save(): Promise<Buffer> {
    const pageCount = pages.length;
    const firstPage = 14;
    const pageIds = pages.map((_, i) => firstPage + i * 2);
    // The extra cut, when used, comes after the pages, then the fallback fonts used.
    const extraAt = firstPage + pageCount * 2;
    const fallbackAt = extraAt + (usesExtra ? 10 : 0);
    const cuts = await Promise.all(
      [...fallbacks.values()].map((used, i) =>
        cutOfSubset(
          used.font,
          used.subset,
          `PDMF${String.fromCharCode(65 + Math.floor(i / 26), 65 + (i % 26))}`,
          used.textOf,
        ),
      ),
    );
    const fontResources = [
      '/F1 4 0 R /F2 9 0 R',
      usesExtra ? `/F3 ${extraAt} 0 R /F4 ${extraAt + 5} 0 R` : '',
      ...[...fallbacks.values()].map((used, i) => `/${used.name} ${fallbackAt + i * 5} 0 R`),
    ]
      .filter(Boolean)
      .join(' ');
    const objects: Buffer[] = [
      Buffer.from('<< /Type /Catalog /Pages 2 0 R >>', 'latin1'),
      Buffer.from(
        `<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(' ')}] /Count ${pageCount} >>`,
        'latin1',
      ),
      Buffer.from(`<< /Title ${infoString(title)} /Producer (Podium) >>`, 'latin1'),
      ...fontObjects(fonts),
    ];
    pages.forEach((page, i) => {
      objects.push(
        Buffer.from(
          `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${num(page.width)} ${num(page.height)}] ` +
            `/Resources << /Font << ${fontResources} >> >> ` +
            `/Contents ${firstPage + i * 2 + 1} 0 R >>`,
          'latin1',
        ),
        // Left uncompressed: a diploma's drawing is a few kilobytes, and deflating it took
        // longer than drawing it.
        stream(Buffer.from(page.ops.join('\n'), 'latin1'), false),
      );
    });
    if (usesExtra) {
      objects.push(
        ...fontObjectsAt(fonts.extra.regular, 'regular', extraAt),
        ...fontObjectsAt(fonts.extra.bold, 'bold', extraAt + 5),
      );
    }
    [...fallbacks.entries()].forEach(([key, _], i) => {
      const cut = cuts[i];
      if (cut)
        objects.push(
          ...fontObjectsAt(cut, key.endsWith(':bold') ? 'bold' : 'regular', fallbackAt + i * 5),
        );
    });
    const parts: Buffer[] = [Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n', 'latin1')];
    let offset = parts[0]?.length ?? 0;
    const offsets: number[] = [];
    objects.forEach((body, i) => {
      offsets.push(offset);
      const head = Buffer.from(`${i + 1} 0 obj\n`, 'latin1');
      const tail = Buffer.from('\nendobj\n', 'latin1');
      parts.push(head, body, tail);
      offset += head.length + body.length + tail.length;
    });
    const xref = [
      'xref',
      `0 ${objects.length + 1}`,
      '0000000000 65535 f ',
      ...offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n `),
      'trailer',
      `<< /Size ${objects.length + 1} /Root 1 0 R /Info 3 0 R >>`,
      'startxref',
      String(offset),
      '%%EOF',
      '',
    ].join('\n');
    parts.push(Buffer.from(xref, 'latin1'));
    return Buffer.concat(parts);
  }

  return { addPage, measure, save };
}
