import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { inflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadPdfFonts, type PdfFonts } from '../../lib/pdf/fonts.js';
import { type DiplomaContent, renderDiploma } from './diploma-pdf.js';

let fonts: PdfFonts;
let scratch: string;
beforeAll(async () => {
  fonts = await loadPdfFonts();
  scratch = mkdtempSync(path.join(tmpdir(), 'diploma-pdf-'));
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const content = (over: Partial<DiplomaContent>): DiplomaContent => ({
  kind: 'student',
  code: 'ABCD-EFGH-JKMN',
  verifyUrl: 'http://podium.test/diploma/verificare/ABCD-EFGH-JKMN',
  name: 'Ana Țurcanu',
  examName: 'Olimpiada de Matematică',
  editionName: '2026',
  phaseName: 'Etapa județeană',
  grade: 9,
  school: 'Colegiul Național „Emil Racoviță”',
  prize: 'first',
  students: [],
  issuedAt: new Date('2026-11-25T10:00:00Z'),
  ...over,
});

/** The PDF as poppler reads it back: its text, and each word's box (points from the top left). */
function readBack(pdf: Buffer): { text: string; words: { x0: number; x1: number; w: string }[] } {
  const file = path.join(scratch, `d-${Math.random().toString(36).slice(2)}.pdf`);
  writeFileSync(file, pdf);
  const text = execFileSync('pdftotext', [file, '-'], { encoding: 'utf8' });
  const html = execFileSync('pdftotext', ['-bbox', file, '-'], { encoding: 'utf8' });
  const words = [
    ...html.matchAll(/<word xMin="([\d.]+)" yMin="[\d.]+" xMax="([\d.]+)" yMax="[\d.]+">([^<]*)</g),
  ].map((m) => ({ x0: Number(m[1]), x1: Number(m[2]), w: m[3] ?? '' }));
  return { text, words };
}

// Poppler marks right-to-left text with bidi embedding controls (U+202A–U+202E): not the name's.
const oneLine = (text: string) => text.replace(/[\u202a-\u202e]/g, '').replace(/\s+/g, ' ');

/** The PDF's fonts as pdffonts lists them. */
function fontsOf(pdf: Buffer): { name: string; isEmbedded: boolean; isSubset: boolean }[] {
  const file = path.join(scratch, `f-${Math.random().toString(36).slice(2)}.pdf`);
  writeFileSync(file, pdf);
  const table = execFileSync('pdffonts', [file], { encoding: 'utf8' }).split('\n').slice(2);
  return table
    .filter((line) => line.trim())
    .map((line) => {
      const cols = line.trim().split(/\s+/);
      // name, type (one or two words), encoding, emb, sub, uni, object, id
      const [emb, sub] = cols.slice(-5, -3);
      return { name: cols[0] ?? '', isEmbedded: emb === 'yes', isSubset: sub === 'yes' };
    });
}

/** Dark pixels in the band of a student's name (page rendered by poppler at 72 dpi, grey). */
function nameInk(pdf: Buffer): number {
  const file = path.join(scratch, `i-${Math.random().toString(36).slice(2)}.pdf`);
  writeFileSync(file, pdf);
  const band = ['-x', '60', '-y', '255', '-W', '722', '-H', '50'];
  const pgm = execFileSync('pdftoppm', ['-r', '72', '-gray', ...band, '-singlefile', file]);
  // A binary PGM: "P5\n722 50\n255\n", then one byte a pixel.
  const pixels = pgm.subarray(pgm.length - 722 * 50);
  return pixels.filter((v) => v < 128).length;
}

/** The text of the PDF's ToUnicode maps (its deflated streams that are CMaps). */
function unicodeMaps(pdf: Buffer): string[] {
  const raw = pdf.toString('latin1');
  const maps: string[] = [];
  for (const m of raw.matchAll(/stream\n([\s\S]*?)\nendstream/g)) {
    try {
      const text = inflateSync(Buffer.from(m[1] ?? '', 'latin1')).toString('latin1');
      if (text.includes('begincmap')) maps.push(text);
    } catch {
      // Not deflated (a page's drawing).
    }
  }
  return maps;
}

describe('a diploma prints every name', () => {
  it('prints Cyrillic, Greek and Latin Extended names as written, not as question marks', async () => {
    for (const name of [
      'Анастасия Иванова',
      'Γιώργος Παπαδόπουλος',
      'Nguyễn Thị Ánh',
      'Łukasz Żółć',
    ]) {
      const pdf = await renderDiploma(fonts, content({ name }));
      const { text } = readBack(pdf);
      expect(oneLine(text), name).toContain(name);
      expect(text).not.toContain('?');
    }
  });

  it('prints a teacher’s students in other scripts too', async () => {
    const pdf = await renderDiploma(
      fonts,
      content({
        kind: 'teacher',
        name: 'Ελένη Κωνσταντίνου',
        students: [{ name: 'Дмитрий Петров', grade: 9, prize: null }],
      }),
    );
    const text = oneLine(readBack(pdf).text);
    expect(text).toContain('Ελένη Κωνσταντίνου');
    expect(text).toContain('Дмитрий Петров');
  });

  it('prints Chinese, Arabic and Hebrew names from the fallback fonts, embedded', async () => {
    for (const [name, font] of [
      ['李小龙', 'NotoSansSC-Bold'],
      ['محمد علي', 'NotoNaskhArabic-Bold'],
      ['דוד לוי', 'NotoSansHebrew-Bold'],
    ] as const) {
      const pdf = await renderDiploma(fonts, content({ name }));
      const { text } = readBack(pdf);
      expect(oneLine(text), name).toContain(name);
      // The name's font is embedded (a cut of it), not taken from the reader's machine.
      const embedded = fontsOf(pdf).find((f) => f.name.endsWith(`+${font}`));
      expect(embedded, font).toMatchObject({ isEmbedded: true, isSubset: true });
    }
  });

  it('draws every glyph of a fallback font, those of odd length too', async () => {
    // 龙's outline in Noto Sans SC is 217 bytes: cut carelessly it lost its last byte and
    // printed as nothing. The name with it has visibly more ink than without it.
    const without = nameInk(await renderDiploma(fonts, content({ name: '李小' })));
    const full = nameInk(await renderDiploma(fonts, content({ name: '李小龙' })));
    expect(without).toBeGreaterThan(100);
    expect(full).toBeGreaterThan(without * 1.25);
  });

  it('joins Arabic letters: a letter takes its initial and medial forms, not one shape', async () => {
    // محمد: the first mim is initial, the second medial; pdf-writer maps both glyphs back to
    // U+0645 for copying. Drawn letter by letter, one glyph would stand for both.
    const pdf = await renderDiploma(fonts, content({ name: 'محمد علي' }));
    const arabicMaps = unicodeMaps(pdf).filter((map) => map.includes('<0645>'));
    expect(arabicMaps).toHaveLength(1);
    expect(arabicMaps[0]?.match(/<0645>/g)).toHaveLength(2);
    // Drawn left to right, the last letter leftmost; read back in reading order.
    const { text, words } = readBack(pdf);
    expect(oneLine(text)).toContain('محمد علي');
    // (poppler's word boxes spell right-to-left words as drawn, left to right).
    const box = (word: string) =>
      words.find((w) => w.w === word || [...w.w].reverse().join('') === word);
    const [first, second] = [box('محمد'), box('علي')];
    expect(first && second && first.x0 > second.x1).toBe(true);
  });

  it('prints Korean, Devanagari, Bengali and Tamil names from the fallback fonts, embedded', async () => {
    for (const [name, font] of [
      ['김민준', 'NotoSansKR-Bold'],
      ['प्रिया शर्मा', 'NotoSansDevanagari-Bold'],
      ['অর্পিতা বন্দ্যোপাধ্যায়', 'NotoSansBengali-Bold'],
      ['கார்த்திக் சுப்பிரமணியம்', 'NotoSansTamil-Bold'],
    ] as const) {
      const pdf = await renderDiploma(fonts, content({ name }));
      // Read back as typed (the Indic names through their ActualText: their glyphs are drawn
      // in another order than the letters are written).
      expect(oneLine(readBack(pdf).text), name).toContain(name);
      const embedded = fontsOf(pdf).find((f) => f.name.endsWith(`+${font}`));
      expect(embedded, font).toMatchObject({ isEmbedded: true, isSubset: true });
    }
  });

  it('shapes Devanagari: conjuncts are one glyph, a vowel sign ि is drawn before its consonant', async () => {
    // क्षत्रिय: क्ष (क + virama + ष) and त्र (त + virama + र) are conjunct glyphs; ि (U+093F) is
    // written after त्र and drawn before it. Letter by letter, no glyph would stand for three
    // letters, and ि would be drawn after त्र.
    const pdf = await renderDiploma(fonts, content({ name: 'क्षत्रिय' }));
    const maps = unicodeMaps(pdf).filter((map) => map.includes('<093F>'));
    expect(maps).toHaveLength(1);
    const map = maps[0] ?? '';
    expect(map).toContain('<0915094D0937>');
    expect(map).toContain('<0924094D0930>');
    // The name's glyphs in the order drawn: the one for ि comes before the one for त्र.
    const gidOf = (text: string) => map.match(new RegExp(`<([0-9A-F]{4})> <${text}>`))?.[1];
    const [vowel, conjunct] = [gidOf('093F'), gidOf('0924094D0930')];
    const drawn = pdf.toString('latin1').match(/\/F5 [\d.]+ Tf \[([^\]]*)\] TJ/)?.[1] ?? '';
    const glyphs = [...drawn.matchAll(/<([0-9A-F]{4})>/g)].map((m) => m[1]);
    expect(vowel && conjunct).toBeTruthy();
    expect(glyphs.indexOf(vowel)).toBeGreaterThanOrEqual(0);
    expect(glyphs.indexOf(vowel)).toBeLessThan(glyphs.indexOf(conjunct));
    expect(oneLine(readBack(pdf).text)).toContain('क्षत्रिय');
  });

  it('orders a name mixing directions by the bidi algorithm, not by its first letter', async () => {
    // "Ana محمد 3 علي" reads left to right (its first letter is Latin), but "محمد 3 علي" is one
    // right-to-left stretch: علي is drawn leftmost of it, then 3, then محمد.
    const { words } = readBack(await renderDiploma(fonts, content({ name: 'Ana محمد 3 علي' })));
    const box = (word: string) =>
      words.find((w) => w.w === word || [...w.w].reverse().join('') === word);
    const [ana, mohamed, three, ali] = [box('Ana'), box('محمد'), box('3'), box('علي')];
    expect(ana && mohamed && three && ali).toBeTruthy();
    if (!(ana && mohamed && three && ali)) return;
    expect(ana.x1).toBeLessThan(ali.x0);
    expect(ali.x1).toBeLessThan(three.x0);
    expect(three.x1).toBeLessThan(mohamed.x0);
    // A right-to-left name with a Latin part in brackets: the part stays in its own order,
    // left of the Arabic, with its brackets the right way round.
    const rtl = readBack(await renderDiploma(fonts, content({ name: 'محمد (John Smith)' })));
    const [john, smith, arabic] = ['(John', 'Smith)', 'محمد'].map((w) =>
      rtl.words.find((b) => b.w === w || [...b.w].reverse().join('') === w),
    );
    expect(john && smith && arabic).toBeTruthy();
    if (!(john && smith && arabic)) return;
    expect(john.x1).toBeLessThan(smith.x0);
    expect(smith.x1).toBeLessThan(arabic.x0);
  });

  it('keeps a name no font can draw as its text, printed as boxes, not question marks', async () => {
    // No font shipped draws Ethiopic: the page shows a box a character.
    const pdf = await renderDiploma(fonts, content({ name: 'Ana አበበ' }));
    const { text } = readBack(pdf);
    expect(text).toContain('Ana አበበ');
    expect(text).not.toContain('?');
  });

  it('embeds the second cut only where a name needs it', async () => {
    const latin = await renderDiploma(fonts, content({ name: 'Ana Țurcanu' }));
    const greek = await renderDiploma(fonts, content({ name: 'Γιώργος' }));
    expect(latin.toString('latin1')).not.toContain('PDMREX');
    expect(greek.toString('latin1')).toContain('PDMBEX');
  });

  for (const kind of ['student', 'teacher'] as const) {
    it(`fits a 100-character name on the ${kind}'s page, all of it`, async () => {
      const name =
        'Alexandra-Maria-Magdalena Constantinescu-Dumitrescu Popescu-Rădulescu Vasilescu-Georgescu Ionescu';
      const long = `${name}${'x'.repeat(100 - name.length)}`;
      expect([...long]).toHaveLength(100);
      const students = [{ name: long, grade: 9, prize: null }];
      const pdf = await renderDiploma(fonts, content({ kind, name: long, students }));
      const { text, words } = readBack(pdf);
      expect(oneLine(text).replace(/ /g, '')).toContain(long.replace(/ /g, ''));
      // Every word lies inside the page's frame (A4 landscape, 842 points wide, 28 of margin).
      for (const word of words) {
        expect(word.x0, word.w).toBeGreaterThanOrEqual(28);
        expect(word.x1, word.w).toBeLessThanOrEqual(842 - 28);
      }
      // A name without spaces is broken where it must be, and fits too.
      const unbroken = 'Ș'.repeat(100);
      const solid = readBack(
        await renderDiploma(fonts, content({ kind, name: unbroken, students })),
      );
      expect(oneLine(solid.text).replace(/ /g, '')).toContain(unbroken);
      for (const word of solid.words) expect(word.x1, word.w).toBeLessThanOrEqual(842 - 28);
    });
  }
});

describe('a diploma names the edition once', () => {
  it('does not print "ediția Ediția" for an edition named "Ediția 2026–2027"', async () => {
    for (const kind of ['student', 'teacher'] as const) {
      const pdf = await renderDiploma(
        fonts,
        content({
          kind,
          editionName: 'Ediția 2026–2027',
          ...(kind === 'teacher'
            ? { students: [{ name: 'Ana Țurcanu', grade: 9, prize: null }] }
            : {}),
        }),
      );
      const text = oneLine(readBack(pdf).text);
      expect(text, kind).toContain('ediția 2026–2027');
      expect(text.toLowerCase(), kind).not.toContain('ediția ediția');
    }
  });
});
