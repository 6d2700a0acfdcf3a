import type { PdfFont, PdfFonts } from './fonts.js';

/**
 * A small PDF writer for documents made of text, lines and filled boxes (diplomas): pages of
 * drawing operations over the two embedded fonts of fonts.ts, written as PDF 1.7 with Type 0
 * (Identity-H) fonts and ToUnicode maps, so the text can be searched and copied. The fonts'
 * objects are serialised once per process; a document costs only its own drawing (a diploma
 * about 2–3 ms with its QR code), where a general-purpose PDF library took 165 ms a diploma
 * on this machine (it parses and cuts the font for every document).
 */
export type FontStyle = keyof PdfFonts;
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
  save(): Buffer;
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

/** The glyph ids of `text` in `font`: a missing letter falls back to its base letter, else '?'. */
function glyphsOf(font: PdfFont, text: string): number[] {
  const question = font.glyphOf.get(0x3f) ?? 0;
  const nfc = text.normalize('NFC');
  const ids: number[] = new Array(nfc.length);
  let n = 0;
  for (let i = 0; i < nfc.length; i += 1) {
    const unit = nfc.charCodeAt(i);
    const cp = CEDILLA.get(unit) ?? unit;
    let id = font.glyphOf.get(cp);
    if (id === undefined) {
      // Outside the repertoire: the letter without its accents, if that is printable.
      const base = String.fromCharCode(cp).normalize('NFD').charCodeAt(0);
      id = font.glyphOf.get(base);
      // A character outside the Basic Multilingual Plane is one '?', not two.
      if (unit >= 0xd800 && unit <= 0xdbff) i += 1;
    }
    ids[n] = id ?? question;
    n += 1;
  }
  ids.length = n;
  return ids;
}

const hex4 = (n: number) => n.toString(16).toUpperCase().padStart(4, '0');
/** Glyph ids as Identity-H hex, made once: text drawing is most of a document's work. */
const HEX = Array.from({ length: 0x1000 }, (_, i) => hex4(i));
const hexOf = (id: number) => HEX[id] ?? hex4(id);

/** The objects of both fonts, numbered 4 to 13, serialised once per fonts. */
const fontObjectsCache = new WeakMap<PdfFonts, Buffer[]>();

function fontObjects(fonts: PdfFonts): Buffer[] {
  const cached = fontObjectsCache.get(fonts);
  if (cached) return cached;
  const objects: Buffer[] = [];
  const styles: FontStyle[] = ['regular', 'bold'];
  styles.forEach((style, i) => {
    const f = fonts[style];
    const base = 4 + i * 5;
    // Objects base (the Type 0 font) to base + 4, in this order.
    const [cid, descriptor, file, toUnicode] = [base + 1, base + 2, base + 3, base + 4];
    objects.push(
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
    );
  });
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

/** A PDF text string (UTF-16BE with its byte order mark) for the document's information. */
function infoString(text: string): string {
  let hex = 'FEFF';
  for (let i = 0; i < text.length; i += 1) hex += hex4(text.charCodeAt(i));
  return `<${hex}>`;
}

/** A new document over `fonts`; `title` goes in its properties. */
export function createPdfDocument(fonts: PdfFonts, title: string): PdfDocument {
  const pages: { width: number; height: number; ops: string[] }[] = [];

  const measure = (text: string, style: FontStyle, size: number) => {
    const font = fonts[style];
    let units = 0;
    for (const id of glyphsOf(font, text)) units += font.widths[id] ?? 1000;
    return (units * size) / 1000;
  };

  function addPage(width: number, height: number): PdfPage {
    const ops: string[] = [];
    pages.push({ width, height, ops });
    const text = (value: string, x: number, y: number, o: TextOptions) => {
      const style = o.font ?? 'regular';
      const ids = glyphsOf(fonts[style], value);
      if (ids.length === 0) return;
      ops.push(
        `BT ${rgb(o.color ?? [0, 0, 0])} rg /${style === 'bold' ? 'F2' : 'F1'} ${num(o.size)} Tf ` +
          `${num(x)} ${num(y)} Td <${ids.map(hexOf).join('')}> Tj ET`,
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

  function save(): Buffer {
    const pageCount = pages.length;
    const firstPage = 14;
    const pageIds = pages.map((_, i) => firstPage + i * 2);
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
            '/Resources << /Font << /F1 4 0 R /F2 9 0 R >> >> ' +
            `/Contents ${firstPage + i * 2 + 1} 0 R >>`,
          'latin1',
        ),
        // Left uncompressed: a diploma's drawing is a few kilobytes, and deflating it took
        // longer than drawing it.
        stream(Buffer.from(page.ops.join('\n'), 'latin1'), false),
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
