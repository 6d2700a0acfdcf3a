// `NODE_OPTIONS=--expose-gc npm run bench -- zip [--entries 2000] [--many 70000] [--no-big]`
// and `npm run bench -- unhint [--diplomas 1000]`: the two file formats Podium writes by hand,
// each against a well-kept library.
// - zip: server/lib/files/zip.ts against yazl, both writing the same rendered diplomas to a
//   file, drawn beforehand and drawn while written (as the job does): time, and the process's
//   memory above its level before (with --expose-gc, what is held rather than garbage). Then
//   one archive of `--many` tiny entries (past 65,535) from each and, from ours only, one past
//   4 GiB (64 MiB entries of zeros written as the holes of a sparse file: the disk holds only
//   the headers, the readers read it all). Every archive is checked by Python's zipfile (every
//   entry's checksum, as `python3 -m zipfile -t`) and by `unzip -tq`.
// - unhint: the diploma fonts as fontkit (the subsetter in the dependencies) cuts them, with
//   and without server/lib/pdf/unhint.ts: font and diploma bytes, `--diplomas` drawn, the
//   time to strip, pdffonts, and the page drawn by pdftoppm from both, compared pixel by pixel.
import { execFileSync } from 'node:child_process';
import {
  closeSync,
  createWriteStream,
  fsyncSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { deflateSync } from 'node:zlib';
import fontkit from '@pdf-lib/fontkit';
import yazl from 'yazl';
import { createZipWriter } from '../server/lib/files/zip.js';
import { loadPdfFonts, type PdfFont, type PdfFonts } from '../server/lib/pdf/fonts.js';
import { withoutHinting } from '../server/lib/pdf/unhint.js';
import { type DiplomaContent, renderDiploma } from '../server/modules/diplomas/diploma-pdf.js';

const MODIFIED = new Date('2026-11-29T10:00:00Z');
const MiB = 1024 * 1024;

const diploma = (i: number): DiplomaContent => ({
  kind: 'student',
  code: `ABCD-EFGH-${String(i).padStart(4, '0')}`,
  verifyUrl: `http://podium.test/diploma/verificare/ABCD-EFGH-${i}`,
  name: `Ana-Maria Țurcanu ${i}`,
  examName: 'Olimpiada de Matematică',
  editionName: '2026',
  phaseName: 'Etapa județeană',
  grade: 9 + (i % 4),
  school: 'Colegiul Național „Emil Racoviță”',
  prize: i % 3 === 0 ? 'first' : null,
  students: [],
  issuedAt: MODIFIED,
});

/** Samples the memory now; set by `measured` (synchronous work calls it between entries). */
let probe = () => {};

/**
 * Runs `work`, sampling the process's memory every 5 ms and at each `probe()`: time and the
 * peaks above before.
 */
async function measured(work: () => Promise<unknown> | unknown) {
  globalThis.gc?.();
  const before = process.memoryUsage();
  let rss = 0;
  let buffers = 0;
  const sample = () => {
    const m = process.memoryUsage();
    rss = Math.max(rss, m.rss - before.rss);
    buffers = Math.max(buffers, m.arrayBuffers - before.arrayBuffers);
  };
  probe = sample;
  const timer = setInterval(sample, 5);
  const started = performance.now();
  await work();
  const ms = performance.now() - started;
  sample();
  clearInterval(timer);
  probe = () => {};
  return { ms, rssMb: rss / 1e6, buffersMb: buffers / 1e6 };
}

/** Our writer to a file, with blocking writes, as the diploma job writes (without its flushes). */
async function ours(
  file: string,
  entries: Iterable<[string, Buffer]> | AsyncIterable<[string, Buffer]>,
): Promise<number> {
  const fd = openSync(file, 'wx');
  const zip = createZipWriter((bytes) => {
    for (let at = 0; at < bytes.length; ) at += writeSync(fd, bytes, at);
  }, MODIFIED);
  for await (const [name, data] of entries) zip.add(name, data);
  const size = zip.finish();
  fsyncSync(fd);
  closeSync(fd);
  return size;
}

/** yazl to a file: entries added, its stream piped to the file. */
async function theirs(
  file: string,
  entries: Iterable<[string, Buffer]> | AsyncIterable<[string, Buffer]>,
): Promise<void> {
  const zip = new yazl.ZipFile();
  const out = createWriteStream(file, { flags: 'wx' });
  const done = new Promise<void>((resolve, reject) => {
    out.on('close', () => resolve());
    out.on('error', reject);
  });
  zip.outputStream.pipe(out);
  for await (const [name, data] of entries) {
    zip.addBuffer(data, name, { mtime: MODIFIED, compress: false });
  }
  zip.end();
  return done.then(() => {
    const fd = openSync(file, 'r+');
    fsyncSync(fd);
    closeSync(fd);
  });
}

/** What Python's zipfile and Info-ZIP's unzip say of an archive. */
function check(file: string) {
  const python = execFileSync(
    'python3',
    [
      '-c',
      'import sys, zipfile\nz = zipfile.ZipFile(sys.argv[1])\nprint(len(z.infolist()), z.testzip())',
      file,
    ],
    { encoding: 'utf8' },
  ).trim();
  const [count, bad] = python.split(' ');
  let unzip: string;
  try {
    unzip = execFileSync('unzip', ['-tq', file], { encoding: 'utf8' }).trim();
  } catch (error) {
    unzip = `failed: ${(error as { stdout?: string }).stdout ?? error}`.slice(0, 200);
  }
  return { entries: Number(count), python: bad === 'None' ? 'ok' : `bad ${bad}`, unzip };
}

async function zipBench(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      entries: { type: 'string', default: '2000' },
      many: { type: 'string', default: '70000' },
      'no-big': { type: 'boolean', default: false },
    },
  });
  const dir = mkdtempSync(path.join(tmpdir(), 'zip-bench-'));
  try {
    const fonts = await loadPdfFonts();
    const n = Number(values.entries);
    let started = performance.now();
    const pdfs: [string, Buffer][] = [];
    for (let i = 0; i < n; i += 1) {
      pdfs.push([`diploma-${i + 1}.pdf`, await renderDiploma(fonts, diploma(i))]);
    }
    const bytes = pdfs.reduce((sum, [, d]) => sum + d.length, 0);
    console.log(
      `${n} diplomas rendered in ${((performance.now() - started) / 1000).toFixed(1)} s, ` +
        `${(bytes / 1e6).toFixed(1)} MB (${Math.round(bytes / n / 1000)} kB each)`,
    );
    const rows: string[] = [];
    const row = (what: string, ms: number, rss: number, buf: number, c: ReturnType<typeof check>) =>
      rows.push(
        `| ${what} | ${ms.toFixed(0)} ms | ${rss.toFixed(1)} MB | ${buf.toFixed(1)} MB | ` +
          `${c.entries} | ${c.python} | ${c.unzip.startsWith('No errors') ? 'ok' : c.unzip} |`,
      );
    // Alternating, twice each: the machine's other work lands on both.
    for (const round of [1, 2]) {
      for (const [name, write] of [
        ['zip.ts', (f: string) => ours(f, pdfs)],
        ['yazl', (f: string) => theirs(f, pdfs)],
      ] as const) {
        const file = path.join(dir, `${name}-${round}.zip`);
        const m = await measured(() => write(file));
        row(`${name}, ${n} diplomas, round ${round}`, m.ms, m.rssMb, m.buffersMb, check(file));
        rmSync(file);
      }
    }

    // Drawn while written, as the job does: what each holds while it goes.
    const live = async function* (): AsyncGenerator<[string, Buffer]> {
      for (let i = 0; i < n; i += 1) {
        // With --expose-gc the peaks are what is held, not garbage not yet collected.
        if (i % 100 === 0) globalThis.gc?.();
        probe();
        yield [`diploma-${i + 1}.pdf`, await renderDiploma(fonts, diploma(i))];
      }
    };
    for (const [name, write] of [
      ['zip.ts', (f: string) => ours(f, live())],
      ['yazl', (f: string) => theirs(f, live())],
    ] as const) {
      const file = path.join(dir, `${name}-live.zip`);
      const m = await measured(() => write(file));
      row(`${name}, ${n} diplomas drawn while written`, m.ms, m.rssMb, m.buffersMb, check(file));
      rmSync(file);
    }

    const many = Number(values.many);
    const tiny = function* () {
      for (let i = 0; i < many; i += 1) yield [`e${i}.txt`, Buffer.from(`entry ${i}\n`)] as const;
    };
    for (const [name, write] of [
      ['zip.ts', (f: string) => ours(f, tiny() as Iterable<[string, Buffer]>)],
      ['yazl', (f: string) => theirs(f, tiny() as Iterable<[string, Buffer]>)],
    ] as const) {
      const file = path.join(dir, `${name}-many.zip`);
      const m = await measured(() => write(file));
      row(`${name}, ${many} tiny entries`, m.ms, m.rssMb, m.buffersMb, check(file));
      rmSync(file);
    }

    if (!values['no-big']) {
      // 65 entries of 64 MiB of zeros (4.06 GiB) and three small ones past them; the zeros
      // are skipped in the file (holes), so the disk holds headers only, but every reader
      // reads and checksums all of it.
      const zeros = Buffer.alloc(64 * MiB);
      const file = path.join(dir, 'big.zip');
      const fd = openSync(file, 'wx');
      let position = 0;
      const m = await measured(() => {
        const zip = createZipWriter((chunk) => {
          if (chunk !== zeros) writeSync(fd, chunk, 0, chunk.length, position);
          position += chunk.length;
        }, MODIFIED);
        for (let i = 0; i < 65; i += 1) zip.add(`zeros-${i}.bin`, zeros);
        for (let i = 0; i < 3; i += 1)
          zip.add(`after-${i}.pdf`, pdfs[i % pdfs.length]?.[1] ?? zeros);
        zip.finish();
      });
      closeSync(fd);
      const size = statSync(file).size;
      started = performance.now();
      const c = check(file);
      const checkS = (performance.now() - started) / 1000;
      row(
        `zip.ts, ${(size / 2 ** 30).toFixed(2)} GiB sparse (check ${checkS.toFixed(0)} s)`,
        m.ms,
        m.rssMb,
        m.buffersMb,
        c,
      );
      rmSync(file);
    }
    console.log(
      '| archive | write | RSS peak above before | buffers peak | entries read | python zipfile -t | unzip -tq |',
    );
    console.log('|---|---|---|---|---|---|---|');
    for (const r of rows) console.log(r);
    return 0;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The font as fontkit cuts it, with its hinting: the same glyphs in the same order. */
async function hintedCut(bytes: Buffer, font: PdfFont): Promise<Buffer> {
  const source = fontkit.create(bytes);
  const subset = source.createSubset();
  for (const cp of font.glyphOf.keys()) subset.includeGlyph(source.glyphForCodePoint(cp));
  const chunks: Buffer[] = [];
  await new Promise<void>((resolve, reject) => {
    const stream = subset.encodeStream() as unknown as NodeJS.ReadableStream;
    stream.on('data', (c: Uint8Array) => chunks.push(Buffer.from(c)));
    stream.on('end', () => resolve());
    stream.on('error', reject);
  });
  return Buffer.concat(chunks);
}

async function unhintBench(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: { diplomas: { type: 'string', default: '1000' } },
  });
  const dir = mkdtempSync(path.join(tmpdir(), 'unhint-bench-'));
  try {
    const plain = await loadPdfFonts();
    const fontDir = new URL('../server/lib/pdf/fonts/', import.meta.url);
    const files = {
      regular: readFileSync(new URL('DejaVuSerif.ttf', fontDir)),
      bold: readFileSync(new URL('DejaVuSerif-Bold.ttf', fontDir)),
    };
    const hintedOf = async (font: PdfFont, bytes: Buffer): Promise<[PdfFont, Buffer]> => {
      const file = await hintedCut(bytes, font);
      return [{ ...font, fontFile: deflateSync(file), fontFileLength: file.length }, file];
    };
    const [regular, regularFile] = await hintedOf(plain.regular, files.regular);
    const [bold, boldFile] = await hintedOf(plain.bold, files.bold);
    const [extraRegular] = await hintedOf(plain.extra.regular, files.regular);
    const [extraBold] = await hintedOf(plain.extra.bold, files.bold);
    const hinted: PdfFonts = {
      ...plain,
      regular,
      bold,
      extra: { regular: extraRegular, bold: extraBold },
    };

    const rounds = 20;
    let started = performance.now();
    for (let i = 0; i < rounds; i += 1) {
      withoutHinting(regularFile);
      withoutHinting(boldFile);
    }
    const stripMs = (performance.now() - started) / rounds;
    console.log(`stripping the two base cuts: ${stripMs.toFixed(1)} ms (once a process)`);
    console.log(
      '| fonts | regular cut (raw / deflated) | bold cut | one diploma | drawing one | diplomas drawn, bytes in all |',
    );
    console.log('|---|---|---|---|---|---|');
    const n = Number(values.diplomas);
    for (const [name, fonts] of [
      ['fontkit cut, hinted', hinted],
      ['fontkit cut + unhint.ts', plain],
      ['fontkit cut, hinted (again)', hinted],
      ['fontkit cut + unhint.ts (again)', plain],
    ] as const) {
      started = performance.now();
      let total = 0;
      for (let i = 0; i < n; i += 1) total += (await renderDiploma(fonts, diploma(i))).length;
      const ms = (performance.now() - started) / n;
      const one = await renderDiploma(fonts, diploma(0));
      console.log(
        `| ${name} | ${(fonts.regular.fontFileLength / 1000).toFixed(1)} / ${(fonts.regular.fontFile.length / 1000).toFixed(1)} kB | ` +
          `${(fonts.bold.fontFileLength / 1000).toFixed(1)} / ${(fonts.bold.fontFile.length / 1000).toFixed(1)} kB | ` +
          `${(one.length / 1000).toFixed(1)} kB | ${ms.toFixed(2)} ms | ${n}: ${(total / 1e6).toFixed(1)} MB |`,
      );
    }

    // The page as poppler draws it from each, at print and at screen resolutions.
    const sample = diploma(3);
    for (const [name, fonts] of [
      ['hinted', hinted],
      ['plain', plain],
    ] as const) {
      const pdf = path.join(dir, `${name}.pdf`);
      const out = createWriteStream(pdf);
      out.end(await renderDiploma(fonts, { ...sample, name: 'Ștefan-Îngeraș Țăranu ăâîșț ĂÂÎȘȚ' }));
      await new Promise<void>((resolve) => out.on('close', () => resolve()));
      for (const dpi of [72, 150, 300]) {
        execFileSync('pdftoppm', [
          '-r',
          String(dpi),
          '-gray',
          pdf,
          path.join(dir, `${name}-${dpi}`),
        ]);
      }
    }
    // Cairo's drawing (FreeType too, its own settings): PNGs the same byte for byte or not.
    for (const dpi of [72, 150]) {
      const [a, b] = (['hinted', 'plain'] as const).map((name) => {
        const out = path.join(dir, `${name}-cairo-${dpi}`);
        execFileSync('pdftocairo', [
          '-png',
          '-singlefile',
          '-r',
          String(dpi),
          path.join(dir, `${name}.pdf`),
          out,
        ]);
        return readFileSync(`${out}.png`);
      });
      console.log(
        `pdftocairo -png -r ${dpi}: ${a && b?.equals(a) ? 'identical' : 'different'} PNGs`,
      );
    }
    console.log(execFileSync('pdffonts', [path.join(dir, 'hinted.pdf')], { encoding: 'utf8' }));
    console.log(execFileSync('pdffonts', [path.join(dir, 'plain.pdf')], { encoding: 'utf8' }));
    for (const dpi of [72, 150, 300]) {
      const a = readFileSync(path.join(dir, `hinted-${dpi}-1.pgm`));
      const b = readFileSync(path.join(dir, `plain-${dpi}-1.pgm`));
      let differ = 0;
      let most = 0;
      for (let i = 0; i < Math.min(a.length, b.length); i += 1) {
        const d = Math.abs((a[i] ?? 0) - (b[i] ?? 0));
        if (d > 0) differ += 1;
        most = Math.max(most, d);
      }
      console.log(
        `pdftoppm -r ${dpi} -gray: ${a.length === b.length ? 'same size' : 'sizes differ'}, ` +
          `${differ} of ${a.length} bytes differ (largest difference ${most} of 255)`,
      );
    }
    return 0;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function formatsBenchCli(name: string, args: string[]): Promise<number> {
  return name === 'zip' ? zipBench(args) : unhintBench(args);
}
