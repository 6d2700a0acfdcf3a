import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
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

const oneLine = (text: string) => text.replace(/\s+/g, ' ');

describe('a diploma prints every name', () => {
  it('prints Cyrillic, Greek and Latin Extended names as written, not as question marks', () => {
    for (const name of [
      'Анастасия Иванова',
      'Γιώργος Παπαδόπουλος',
      'Nguyễn Thị Ánh',
      'Łukasz Żółć',
    ]) {
      const pdf = renderDiploma(fonts, content({ name }));
      const { text } = readBack(pdf);
      expect(oneLine(text), name).toContain(name);
      expect(text).not.toContain('?');
    }
  });

  it('prints a teacher’s students in other scripts too', () => {
    const pdf = renderDiploma(
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

  it('keeps a name the fonts cannot draw as its text, printed as boxes, not question marks', () => {
    // No font shipped draws Chinese (nor Arabic or Hebrew): the page shows a box a character.
    const pdf = renderDiploma(fonts, content({ name: 'Ana 王小明' }));
    const { text } = readBack(pdf);
    expect(text).toContain('Ana 王小明');
    expect(text).not.toContain('?');
  });

  it('embeds the second cut only where a name needs it', () => {
    const latin = renderDiploma(fonts, content({ name: 'Ana Țurcanu' }));
    const greek = renderDiploma(fonts, content({ name: 'Γιώργος' }));
    expect(latin.toString('latin1')).not.toContain('PDMREX');
    expect(greek.toString('latin1')).toContain('PDMBEX');
  });

  for (const kind of ['student', 'teacher'] as const) {
    it(`fits a 100-character name on the ${kind}'s page, all of it`, () => {
      const name =
        'Alexandra-Maria-Magdalena Constantinescu-Dumitrescu Popescu-Rădulescu Vasilescu-Georgescu Ionescu';
      const long = `${name}${'x'.repeat(100 - name.length)}`;
      expect([...long]).toHaveLength(100);
      const students = [{ name: long, grade: 9, prize: null }];
      const pdf = renderDiploma(fonts, content({ kind, name: long, students }));
      const { text, words } = readBack(pdf);
      expect(oneLine(text).replace(/ /g, '')).toContain(long.replace(/ /g, ''));
      // Every word lies inside the page's frame (A4 landscape, 842 points wide, 28 of margin).
      for (const word of words) {
        expect(word.x0, word.w).toBeGreaterThanOrEqual(28);
        expect(word.x1, word.w).toBeLessThanOrEqual(842 - 28);
      }
      // A name without spaces is broken where it must be, and fits too.
      const unbroken = 'Ș'.repeat(100);
      const solid = readBack(renderDiploma(fonts, content({ kind, name: unbroken, students })));
      expect(oneLine(solid.text).replace(/ /g, '')).toContain(unbroken);
      for (const word of solid.words) expect(word.x1, word.w).toBeLessThanOrEqual(842 - 28);
    });
  }
});

describe('a diploma names the edition once', () => {
  it('does not print "ediția Ediția" for an edition named "Ediția 2026–2027"', () => {
    for (const kind of ['student', 'teacher'] as const) {
      const pdf = renderDiploma(
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
