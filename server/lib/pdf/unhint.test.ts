import { readFileSync } from 'node:fs';
import { inflateSync } from 'node:zlib';
import fontkit from '@pdf-lib/fontkit';
import { describe, expect, it } from 'vitest';
import { loadPdfFonts } from './fonts.js';
import { withoutHinting } from './unhint.js';

const fontFile = (name: string) => readFileSync(new URL(`./fonts/${name}`, import.meta.url));

/** Table tag → [offset, length] from a font file's directory. */
function directory(font: Buffer): Map<string, [number, number]> {
  const tables = new Map<string, [number, number]>();
  for (let i = 0; i < font.readUInt16BE(4); i += 1) {
    const at = 12 + 16 * i;
    tables.set(font.toString('latin1', at, at + 4), [
      font.readUInt32BE(at + 8),
      font.readUInt32BE(at + 12),
    ]);
  }
  return tables;
}

/** Instruction bytes left in the glyphs, and composite glyphs still saying they have some. */
function hinting(font: Buffer) {
  const tables = directory(font);
  const [headAt] = tables.get('head') ?? [0, 0];
  const [locaAt] = tables.get('loca') ?? [0, 0];
  const [glyfAt] = tables.get('glyf') ?? [0, 0];
  const [maxpAt] = tables.get('maxp') ?? [0, 0];
  const isLong = font.readInt16BE(headAt + 50) === 1;
  const offset = (g: number) =>
    isLong ? font.readUInt32BE(locaAt + 4 * g) : 2 * font.readUInt16BE(locaAt + 2 * g);
  let bytes = 0;
  let composites = 0;
  for (let g = 0; g < font.readUInt16BE(maxpAt + 4); g += 1) {
    if (offset(g + 1) === offset(g)) continue;
    const at = glyfAt + offset(g);
    const contours = font.readInt16BE(at);
    if (contours >= 0) bytes += font.readUInt16BE(at + 10 + 2 * contours);
    else composites += 1;
  }
  return { bytes, composites };
}

function sum(font: Buffer): number {
  let total = 0;
  for (let at = 0; at + 4 <= font.length; at += 4) total = (total + font.readUInt32BE(at)) >>> 0;
  return total;
}

describe('a font without hinting', () => {
  for (const name of ['DejaVuSerif.ttf', 'DejaVuSerif-Bold.ttf']) {
    it(`keeps every outline and width of ${name} and drops its instructions`, () => {
      const original = fontFile(name);
      const plain = withoutHinting(original);
      expect(hinting(original).bytes).toBeGreaterThan(0);
      expect(hinting(plain).bytes).toBe(0);
      for (const tag of ['fpgm', 'prep', 'cvt ']) {
        expect(directory(original).has(tag)).toBe(true);
        expect(directory(plain).has(tag)).toBe(false);
      }
      expect(plain.length).toBeLessThan(original.length);
      // The whole file sums to the magic number TrueType asks of it.
      expect(sum(plain)).toBe(0xb1b0afba);

      const before = fontkit.create(original);
      const after = fontkit.create(plain);
      expect(after.numGlyphs).toBe(before.numGlyphs);
      expect(hinting(plain).composites).toBeGreaterThan(0);
      for (let g = 0; g < before.numGlyphs; g += 1) {
        const [a, b] = [before.getGlyph(g), after.getGlyph(g)];
        expect(b.path.toSVG(), `glyph ${g}`).toBe(a.path.toSVG());
        expect(b.advanceWidth, `glyph ${g}`).toBe(a.advanceWidth);
      }
      expect(after.glyphForCodePoint(0x219).path.toSVG()).toBe(
        before.glyphForCodePoint(0x219).path.toSVG(),
      );
    });
  }

  it('is what the documents embed: the cut fonts draw every letter as the originals do', async () => {
    const fonts = await loadPdfFonts();
    for (const [style, name] of [
      ['regular', 'DejaVuSerif.ttf'],
      ['bold', 'DejaVuSerif-Bold.ttf'],
    ] as const) {
      const embedded = inflateSync(fonts[style].fontFile);
      expect(embedded.length).toBe(fonts[style].fontFileLength);
      expect(hinting(embedded).bytes).toBe(0);
      const cut = fontkit.create(embedded);
      const original = fontkit.create(fontFile(name));
      for (const cp of [
        0x41, 0x61, 0x102, 0x103, 0xc2, 0xe2, 0xce, 0xee, 0x218, 0x219, 0x21a, 0x21b, 0x201e,
      ]) {
        const gid = fonts[style].glyphOf.get(cp) ?? -1;
        expect(cut.getGlyph(gid).path.toSVG(), `U+${cp.toString(16)}`).toBe(
          original.glyphForCodePoint(cp).path.toSVG(),
        );
      }
    }
  });
});
