/**
 * A TrueType font without its hinting: each glyph's instructions and the tables they run on
 * (fpgm, prep, cvt). Hints fit outlines to a screen's pixel grid at small sizes; a diploma is
 * printed or looked at whole, where viewers draw the plain outlines, and the instructions were
 * nearly half of the glyph data every PDF embeds (DejaVu Serif: 18 of 38 kB). Outlines,
 * metrics and glyph ids are kept as they are.
 *
 * Why by hand: fontkit, the subsetter the fonts are cut with (fonts.ts), copies fpgm, prep, cvt
 * and every glyph's instructions into its cut and has no option to leave them out. `npm run
 * bench -- unhint`, 2026-11-29: the two base cuts are 41.9 and 38.8 kB as fontkit writes them,
 * 22.9 and 23.0 kB without hinting (27.0 + 25.2 against 13.8 + 13.9 kB deflated in each PDF);
 * a diploma 66.4 kB against 41.9 kB, so a ZIP of 1,000 diplomas 66 MB against 42 MB. Stripping
 * the two takes 13–15 ms once a process. The page drawn from both is the same: pdftoppm at
 * 72, 150 and 300 dpi, 0 pixels differ; pdftocairo at 72 and 150 dpi, identical PNGs; pdffonts
 * lists the same embedded subset fonts (bench/README.md, "ZIP and font hinting").
 */

/** Tables that only hinting reads. */
const HINTING_TABLES = new Set(['fpgm', 'prep', 'cvt ', 'hdmx', 'LTSH', 'VDMX']);

// Composite glyph component flags (OpenType glyf table).
const ARG_1_AND_2_ARE_WORDS = 0x0001;
const WE_HAVE_A_SCALE = 0x0008;
const MORE_COMPONENTS = 0x0020;
const WE_HAVE_AN_X_AND_Y_SCALE = 0x0040;
const WE_HAVE_A_TWO_BY_TWO = 0x0080;
const WE_HAVE_INSTRUCTIONS = 0x0100;

type Table = { tag: string; data: Buffer };

function readTables(font: Buffer): Table[] {
  const count = font.readUInt16BE(4);
  return Array.from({ length: count }, (_, i) => {
    const at = 12 + 16 * i;
    const offset = font.readUInt32BE(at + 8);
    const length = font.readUInt32BE(at + 12);
    return {
      tag: font.toString('latin1', at, at + 4),
      data: font.subarray(offset, offset + length),
    };
  });
}

/** One glyph's bytes without its instructions (a copy; empty stays empty). */
function unhintGlyph(glyph: Buffer): Buffer {
  if (glyph.length === 0) return glyph;
  const contours = glyph.readInt16BE(0);
  if (contours >= 0) {
    const lengthAt = 10 + 2 * contours;
    const instructions = glyph.readUInt16BE(lengthAt);
    const out = Buffer.concat([
      glyph.subarray(0, lengthAt + 2),
      glyph.subarray(lengthAt + 2 + instructions),
    ]);
    out.writeUInt16BE(0, lengthAt);
    return out;
  }
  const out = Buffer.from(glyph);
  let at = 10;
  for (;;) {
    const flags = out.readUInt16BE(at);
    out.writeUInt16BE(flags & ~WE_HAVE_INSTRUCTIONS, at);
    at += 4 + (flags & ARG_1_AND_2_ARE_WORDS ? 4 : 2);
    if (flags & WE_HAVE_A_SCALE) at += 2;
    else if (flags & WE_HAVE_AN_X_AND_Y_SCALE) at += 4;
    else if (flags & WE_HAVE_A_TWO_BY_TWO) at += 8;
    if (!(flags & MORE_COMPONENTS)) return out.subarray(0, at);
  }
}

const padded = (data: Buffer) =>
  data.length % 4 === 0 ? data : Buffer.concat([data, Buffer.alloc(4 - (data.length % 4))]);

function checksum(data: Buffer): number {
  const whole = padded(data);
  let sum = 0;
  for (let at = 0; at < whole.length; at += 4) sum = (sum + whole.readUInt32BE(at)) >>> 0;
  return sum;
}

/** The font file laid out again from its tables (sorted by tag, 4-byte aligned, checksummed). */
function writeFont(sfntVersion: number, tables: Table[]): Buffer {
  const sorted = [...tables].sort((a, b) => (a.tag < b.tag ? -1 : a.tag > b.tag ? 1 : 0));
  const power = 2 ** Math.floor(Math.log2(sorted.length));
  const header = Buffer.alloc(12 + 16 * sorted.length);
  header.writeUInt32BE(sfntVersion, 0);
  header.writeUInt16BE(sorted.length, 4);
  header.writeUInt16BE(power * 16, 6);
  header.writeUInt16BE(Math.log2(power), 8);
  header.writeUInt16BE(sorted.length * 16 - power * 16, 10);
  let offset = header.length;
  sorted.forEach(({ tag, data }, i) => {
    const at = 12 + 16 * i;
    header.write(tag, at, 'latin1');
    header.writeUInt32BE(checksum(data), at + 4);
    header.writeUInt32BE(offset, at + 8);
    header.writeUInt32BE(data.length, at + 12);
    offset += padded(data).length;
  });
  const font = Buffer.concat([header, ...sorted.map(({ data }) => padded(data))]);
  // head.checkSumAdjustment makes the whole file sum to the magic number.
  const headAt = font.readUInt32BE(12 + 16 * sorted.findIndex((t) => t.tag === 'head') + 8);
  font.writeUInt32BE((0xb1b0afba - checksum(font)) >>> 0, headAt + 8);
  return font;
}

export function withoutHinting(font: Buffer): Buffer {
  const tables = readTables(font);
  const table = (tag: string) => {
    const found = tables.find((t) => t.tag === tag);
    if (!found) throw new Error(`the font has no ${tag} table`);
    return found.data;
  };
  const head = Buffer.from(table('head'));
  const maxp = Buffer.from(table('maxp'));
  const loca = table('loca');
  const glyf = table('glyf');
  const isLong = head.readInt16BE(50) === 1;
  const glyphCount = maxp.readUInt16BE(4);
  const offsetOf = (g: number) =>
    isLong ? loca.readUInt32BE(4 * g) : 2 * loca.readUInt16BE(2 * g);

  const glyphs: Buffer[] = [];
  const newLoca = Buffer.alloc(4 * (glyphCount + 1));
  let offset = 0;
  for (let g = 0; g < glyphCount; g += 1) {
    newLoca.writeUInt32BE(offset, 4 * g);
    const glyph = padded(unhintGlyph(glyf.subarray(offsetOf(g), offsetOf(g + 1))));
    glyphs.push(glyph);
    offset += glyph.length;
  }
  newLoca.writeUInt32BE(offset, 4 * glyphCount);

  head.writeInt16BE(1, 50); // long offsets in loca
  head.writeUInt32BE(0, 8); // checkSumAdjustment, set once the file is laid out
  // maxp 1.0: maxSizeOfInstructions.
  if (maxp.readUInt32BE(0) === 0x00010000) maxp.writeUInt16BE(0, 26);

  const replaced: Record<string, Buffer> = {
    head,
    maxp,
    loca: newLoca,
    glyf: Buffer.concat(glyphs),
  };
  return writeFont(
    font.readUInt32BE(0),
    tables
      .filter(({ tag }) => !HINTING_TABLES.has(tag))
      .map(({ tag, data }) => ({ tag, data: replaced[tag] ?? data })),
  );
}
