import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { PDFDocument } from 'pdf-lib';
import sharp, { type OverlayOptions } from 'sharp';
import { buildZip } from '../../lib/files/zip.js';

/**
 * Realistic scans of printed booklets, for the tests and `npm run bench -- scan`: each page of
 * a booklet PDF rendered by poppler at 150–300 dpi, turned by up to 5° (some upside down, as a
 * page fed the wrong way round), with speckle and the shadow of a fold, saved as JPEG quality
 * 60, and put together as one PDF (as a document scanner writes it) or a ZIP of images.
 */
export type ScanOptions = {
  /** Same seed, same scan. */
  seed?: number;
  /** Share of pages fed upside down (0–1); default 0.1. */
  upsideDown?: number;
  /** Largest skew in degrees; default 5. */
  maxSkew?: number;
  /** dpi range; default 150–300. */
  dpi?: [number, number];
  /** Pages (1-based) whose code is blotted out, as a torn or smudged corner. */
  blotted?: readonly number[];
};

const run = promisify(execFile);

function random(seed: number) {
  let x = seed || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 0x1_0000_0000;
  };
}

/** Whether poppler's tools are installed (the scan tests skip without them). */
export async function hasPoppler(): Promise<boolean> {
  try {
    await run('pdftoppm', ['-v']);
    return true;
  } catch {
    return false;
  }
}

/** Each page of the PDF as a scanner would give it back: JPEG images. */
export async function scanPages(pdf: Buffer, options: ScanOptions = {}): Promise<Buffer[]> {
  const next = random(options.seed ?? 7);
  const [low, high] = options.dpi ?? [150, 300];
  const maxSkew = options.maxSkew ?? 5;
  const upsideDown = options.upsideDown ?? 0.1;
  const blotted = new Set(options.blotted ?? []);
  const dir = await mkdtemp(path.join(tmpdir(), 'scan-gen-'));
  try {
    await writeFile(path.join(dir, 'in.pdf'), pdf);
    // One dpi for the document, as a scanner keeps one setting for a stack.
    const dpi = Math.round(low + (high - low) * next());
    await run('pdftoppm', [
      '-r',
      String(dpi),
      '-gray',
      '-png',
      path.join(dir, 'in.pdf'),
      path.join(dir, 'p'),
    ]);
    const names = (await readdir(dir)).filter((n) => n.startsWith('p')).sort();
    const out: Buffer[] = [];
    for (const [i, name] of names.entries()) {
      const png = await readFile(path.join(dir, name));
      const { width = 0, height = 0 } = await sharp(png).metadata();
      const overlays: OverlayOptions[] = [];
      // Speckle: a few hundred dark dots of dust and toner.
      const dots = Array.from({ length: 300 }, () => {
        const x = Math.floor(next() * width);
        const y = Math.floor(next() * height);
        const r = 1 + Math.floor(next() * 2);
        return `<circle cx="${x}" cy="${y}" r="${r}" fill="#000" fill-opacity="${(0.4 + next() * 0.6).toFixed(2)}"/>`;
      }).join('');
      // The shadow of the fold across the middle of the sheet.
      const foldY = Math.floor(height * (0.45 + next() * 0.1));
      const band = Math.floor(height * 0.03);
      overlays.push({
        input: Buffer.from(
          `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">` +
            `<defs><linearGradient id="f" x1="0" y1="0" x2="0" y2="1">` +
            `<stop offset="0" stop-color="#000" stop-opacity="0"/>` +
            `<stop offset="0.5" stop-color="#000" stop-opacity="0.35"/>` +
            `<stop offset="1" stop-color="#000" stop-opacity="0"/></linearGradient></defs>` +
            `<rect x="0" y="${foldY - band}" width="${width}" height="${2 * band}" fill="url(#f)"/>` +
            `${dots}</svg>`,
        ),
        top: 0,
        left: 0,
      });
      if (blotted.has(i + 1)) {
        // A smudge over the whole top right corner, where the code is printed.
        const w = Math.floor(width * 0.25);
        const h = Math.floor(height * 0.16);
        overlays.push({
          input: { create: { width: w, height: h, channels: 3, background: '#333' } },
          top: Math.floor(height * 0.02),
          left: width - w - Math.floor(width * 0.03),
        });
      }
      const skew = (next() * 2 - 1) * maxSkew;
      const flip = next() < upsideDown ? 180 : 0;
      out.push(
        await sharp(await sharp(png).composite(overlays).png().toBuffer())
          .rotate(skew + flip, { background: '#f4f4f0' })
          .jpeg({ quality: 60 })
          .withMetadata({ exif: { IFD0: { Software: 'Scanner 3000', Artist: 'Comisia' } } })
          .toBuffer(),
      );
    }
    return out;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The pages as one PDF of JPEG images, A4, as a document scanner saves a stack. */
export async function scanPdf(pages: readonly Buffer[]): Promise<Buffer> {
  const doc = await PDFDocument.create();
  for (const jpeg of pages) {
    const image = await doc.embedJpg(jpeg);
    const page = doc.addPage([595.28, 841.89]);
    page.drawImage(image, { x: 0, y: 0, width: 595.28, height: 841.89 });
  }
  return Buffer.from(await doc.save());
}

/** The pages as a ZIP of JPEG files, as some scanners write a folder. */
export function scanZip(pages: readonly Buffer[]): Buffer {
  return buildZip(
    pages.map((data, i) => ({
      name: `scan/${String(i + 1).padStart(4, '0')}.jpg`,
      data,
      modifiedAt: new Date('2026-11-23T12:00:00Z'),
    })),
  );
}
