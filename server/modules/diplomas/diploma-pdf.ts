import { editionAfterWord } from '../../../shared/editions.js';
import { schoolGradeName } from '../../../shared/grades.js';
import type { DiplomaKind } from '../../../shared/schemas/diplomas.js';
import { PRIZE_DOCUMENT_NAMES, type Prize } from '../../../shared/schemas/rankings.js';
import type { PdfFonts } from '../../lib/pdf/fonts.js';
import {
  createPdfDocument,
  type FontStyle,
  type PdfDocument,
  type PdfPage,
  type Rgb,
} from '../../lib/pdf/pdf-writer.js';
import { qrGrid } from '../../lib/pdf/qr.js';

/** What one diploma prints (in Romanian, the competitions' document language). */
export type DiplomaContent = {
  kind: DiplomaKind;
  /** The verification code as printed, `XXXX-XXXX-XXXX`. */
  code: string;
  /** The page the QR code opens. */
  verifyUrl: string;
  name: string;
  examName: string;
  editionName: string;
  phaseName: string;
  grade: number | null;
  school: string | null;
  prize: Prize | null;
  /** A teacher's diploma: the students they prepared, in the order printed. */
  students: readonly { name: string; grade: number | null; prize: Prize | null }[];
  issuedAt: Date;
};

// A4 landscape, in points.
const WIDTH = 842;
const HEIGHT = 595;
const MARGIN = 28;
const NAVY: Rgb = [0.1, 0.18, 0.38];
const GOLD: Rgb = [0.72, 0.55, 0.18];
const INK: Rgb = [0.12, 0.12, 0.12];
const GREY: Rgb = [0.38, 0.38, 0.38];
const TEXT_WIDTH = WIDTH - 2 * (MARGIN + 60);

/** The date as Romanian documents write it, in Romania's time: 25.11.2026. */
export function documentDate(date: Date): string {
  return DATE_FORMAT.format(date);
}

// Made once: building a formatter costs more than a whole diploma.
const DATE_FORMAT = new Intl.DateTimeFormat('ro-RO', {
  timeZone: 'Europe/Bucharest',
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
});

/** The largest size up to `size` (not under `min`) at which `text` fits `width`. */
function fittingSize(
  doc: PdfDocument,
  text: string,
  font: FontStyle,
  size: number,
  width: number,
  min: number,
): number {
  const measured = doc.measure(text, font, size);
  if (measured <= width) return size;
  return Math.max(min, Math.floor(((size * width) / measured) * 10) / 10);
}

/** `text` broken into lines no wider than `width` at this size (words kept whole). */
function wrap(doc: PdfDocument, text: string, font: FontStyle, size: number, width: number) {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const candidate = line ? `${line} ${word}` : word;
    if (line && doc.measure(candidate, font, size) > width) {
      lines.push(line);
      line = word;
    } else {
      line = candidate;
    }
  }
  if (line) lines.push(line);
  return lines;
}

/** `text` in lines no wider than `width`, a word wider than that broken where it must be. */
function wrapAnywhere(
  doc: PdfDocument,
  text: string,
  font: FontStyle,
  size: number,
  width: number,
): string[] {
  const lines: string[] = [];
  for (const line of wrap(doc, text, font, size, width)) {
    let rest = line;
    while (doc.measure(rest, font, size) > width) {
      const chars = [...rest];
      let n = chars.length - 1;
      while (n > 1 && doc.measure(chars.slice(0, n).join(''), font, size) > width) n -= 1;
      lines.push(chars.slice(0, n).join(''));
      rest = chars.slice(n).join('');
    }
    lines.push(rest);
  }
  return lines;
}

/**
 * A name set to fit `width`: on one line, shrunk from `size` down to `oneLineMin`; past that on
 * two lines (broken between words when it can), at the largest size down to `min` at which
 * they fit, and smaller still if a name is so long that even `min` does not.
 */
export function fitName(
  doc: PdfDocument,
  name: string,
  o: { font: FontStyle; size: number; oneLineMin: number; min: number; width: number },
): { size: number; lines: string[] } {
  const one = fittingSize(doc, name, o.font, o.size, o.width, o.oneLineMin);
  if (doc.measure(name, o.font, one) <= o.width) return { size: one, lines: [name] };
  for (let size = o.oneLineMin; size > 4; size -= size > o.min ? 1 : 0.5) {
    const lines = wrapAnywhere(doc, name, o.font, size, o.width);
    if (lines.length <= 2) return { size, lines };
  }
  return { size: 4, lines: wrapAnywhere(doc, name, o.font, 4, o.width).slice(0, 2) };
}

/** Centred lines of `text`, shrunk to at most `maxLines`; returns the y below them. */
function paragraph(
  doc: PdfDocument,
  page: PdfPage,
  text: string,
  y: number,
  o: { font?: FontStyle; size: number; color: Rgb; maxLines?: number },
): number {
  const font = o.font ?? 'regular';
  let size = o.size;
  let lines = wrap(doc, text, font, size, TEXT_WIDTH);
  while (lines.length > (o.maxLines ?? 2) && size > 9) {
    size -= 1;
    lines = wrap(doc, text, font, size, TEXT_WIDTH);
  }
  let at = y;
  for (const line of lines) {
    page.centred(line, WIDTH / 2, at, { font, size, color: o.color });
    at -= size * 1.35;
  }
  return at;
}

function frame(page: PdfPage) {
  page.strokeRect(MARGIN, MARGIN, WIDTH - 2 * MARGIN, HEIGHT - 2 * MARGIN, 3, NAVY);
  page.strokeRect(
    MARGIN + 7,
    MARGIN + 7,
    WIDTH - 2 * MARGIN - 14,
    HEIGHT - 2 * MARGIN - 14,
    1,
    GOLD,
  );
}

/** The competition's heading at the top of a page. */
function heading(doc: PdfDocument, page: PdfPage, c: DiplomaContent): number {
  const size = fittingSize(doc, c.examName, 'bold', 20, TEXT_WIDTH, 11);
  page.centred(c.examName, WIDTH / 2, HEIGHT - 80, { font: 'bold', size, color: NAVY });
  const sub = `${c.phaseName} · ediția ${editionAfterWord(c.editionName)}`;
  const subSize = fittingSize(doc, sub, 'regular', 13, TEXT_WIDTH, 9);
  page.centred(sub, WIDTH / 2, HEIGHT - 102, { size: subSize, color: GREY });
  return HEIGHT - 102;
}

/** The date, the verification code and its QR code, at the foot of each page. */
function foot(doc: PdfDocument, page: PdfPage, c: DiplomaContent, pageNo: number, pages: number) {
  const left = MARGIN + 40;
  page.text(`Data: ${documentDate(c.issuedAt)}`, left, 92, { size: 11, color: INK });
  page.line(left, 70, left + 190, 70, 0.6, GREY);
  page.text('Președintele comisiei', left, 56, { size: 9, color: GREY });
  const qrSize = 84;
  const qrX = WIDTH - MARGIN - 36 - qrSize;
  const qrY = 44;
  const qr = qrGrid(c.verifyUrl);
  page.fillGrid(qrX, qrY, qrSize / qr.size, qr.boxes, [0, 0, 0]);
  const right = qrX - 10;
  page.rightAligned(`Cod de verificare: ${c.code}`, right, qrY + 44, {
    font: 'bold',
    size: 10,
    color: INK,
  });
  const urlSize = fittingSize(doc, c.verifyUrl, 'regular', 8, 300, 6);
  page.rightAligned(c.verifyUrl, right, qrY + 30, { size: urlSize, color: GREY });
  if (pages > 1) {
    page.rightAligned(`Pagina ${pageNo} din ${pages}`, right, qrY + 16, { size: 8, color: GREY });
  }
}

function studentDiploma(doc: PdfDocument, c: DiplomaContent) {
  const page = doc.addPage(WIDTH, HEIGHT);
  frame(page);
  heading(doc, page, c);
  page.centred('DIPLOMĂ', WIDTH / 2, HEIGHT - 175, { font: 'bold', size: 50, color: NAVY });
  const award = c.prize ? PRIZE_DOCUMENT_NAMES[c.prize] : 'de participare';
  page.centred(award, WIDTH / 2, HEIGHT - 215, {
    font: 'bold',
    size: c.prize ? 28 : 20,
    color: c.prize ? GOLD : GREY,
  });
  page.centred('se acordă elevului (elevei)', WIDTH / 2, HEIGHT - 252, { size: 13, color: INK });
  const name = fitName(doc, c.name, {
    font: 'bold',
    size: 30,
    oneLineMin: 18,
    min: 11,
    width: TEXT_WIDTH,
  });
  // Two lines sit a little higher, and push what follows down by the second one.
  const nameTop = HEIGHT - (name.lines.length > 1 ? 282 : 292);
  name.lines.forEach((line, i) => {
    const y = nameTop - i * name.size * 1.2;
    page.centred(line, WIDTH / 2, y, { font: 'bold', size: name.size, color: INK });
  });
  const who = [c.grade === null ? null : schoolGradeName(c.grade), c.school]
    .filter(Boolean)
    .join(', ');
  let y = HEIGHT - 322 - (name.lines.length > 1 ? name.size * 1.2 - 10 : 0);
  if (who) y = paragraph(doc, page, who, y, { size: 14, color: INK });
  const why = c.prize
    ? `pentru rezultatele obținute la ${c.phaseName} a competiției ${c.examName}, ediția ${editionAfterWord(c.editionName)}.`
    : `pentru participarea la ${c.phaseName} a competiției ${c.examName}, ediția ${editionAfterWord(c.editionName)}.`;
  paragraph(doc, page, why, y - 6, { size: 12, color: GREY });
  foot(doc, page, c, 1, 1);
}

const ROWS_FIRST_PAGE = 8;
const ROWS_NEXT_PAGES = 18;

/** A teacher's diploma: the thanks on the first page, then the students, as many pages as needed. */
function teacherDiploma(doc: PdfDocument, c: DiplomaContent) {
  const rest = Math.max(0, c.students.length - ROWS_FIRST_PAGE);
  const pages = 1 + Math.ceil(rest / ROWS_NEXT_PAGES);
  let index = 0;
  for (let pageNo = 1; pageNo <= pages; pageNo += 1) {
    const page = doc.addPage(WIDTH, HEIGHT);
    frame(page);
    heading(doc, page, c);
    let y: number;
    if (pageNo === 1) {
      page.centred('DIPLOMĂ', WIDTH / 2, HEIGHT - 160, { font: 'bold', size: 44, color: NAVY });
      page.centred('se acordă profesorului coordonator', WIDTH / 2, HEIGHT - 190, {
        size: 13,
        color: INK,
      });
      const name = fitName(doc, c.name, {
        font: 'bold',
        size: 26,
        oneLineMin: 16,
        min: 10,
        width: TEXT_WIDTH,
      });
      // Two lines share the height of one: the thanks below stays where it is.
      const lineGap = name.size * 1.1;
      name.lines.forEach((line, i) => {
        const y = HEIGHT - 224 + ((name.lines.length - 1) * lineGap) / 2 - i * lineGap;
        page.centred(line, WIDTH / 2, y, { font: 'bold', size: name.size, color: INK });
      });
      const count = c.students.length;
      const students = count === 1 ? 'elevului' : `celor ${count} elevi`;
      y =
        paragraph(
          doc,
          page,
          `pentru pregătirea ${students} care au participat la ${c.phaseName} a competiției ${c.examName}, ediția ${editionAfterWord(c.editionName)}:`,
          HEIGHT - 252,
          { size: 12, color: GREY },
        ) - 8;
    } else {
      y = HEIGHT - 130;
    }
    const rows = pageNo === 1 ? ROWS_FIRST_PAGE : ROWS_NEXT_PAGES;
    const tableLeft = MARGIN + 120;
    const tableRight = WIDTH - MARGIN - 120;
    const gradeX = tableLeft + 330;
    const prizeX = tableLeft + 450;
    page.text('Elev', tableLeft, y, { font: 'bold', size: 10, color: NAVY });
    page.text('Clasa', gradeX, y, { font: 'bold', size: 10, color: NAVY });
    page.text('Distincție', prizeX, y, { font: 'bold', size: 10, color: NAVY });
    page.line(tableLeft, y - 4, tableRight, y - 4, 0.6, GOLD);
    y -= 17;
    for (let r = 0; r < rows && index < c.students.length; r += 1, index += 1) {
      const s = c.students[index];
      if (!s) break;
      const name = fitName(doc, s.name, {
        font: 'regular',
        size: 10,
        oneLineMin: 7,
        min: 6,
        width: gradeX - tableLeft - 10,
      });
      // Two lines fit in the row's 15 points.
      name.lines.forEach((line, i) => {
        const lineY = y + (name.lines.length > 1 ? 3.5 : 0) - i * (name.size + 1);
        page.text(line, tableLeft, lineY, { size: name.size, color: INK });
      });
      if (s.grade !== null)
        page.text(schoolGradeName(s.grade), gradeX, y, { size: 10, color: INK });
      page.text(s.prize ? PRIZE_DOCUMENT_NAMES[s.prize] : 'participare', prizeX, y, {
        size: 10,
        color: s.prize ? INK : GREY,
      });
      y -= 15;
    }
    foot(doc, page, c, pageNo, pages);
  }
}

/** The diploma as a PDF: one A4 landscape page (a teacher's goes on while students remain). */
export function renderDiploma(fonts: PdfFonts, c: DiplomaContent): Promise<Buffer> {
  const doc = createPdfDocument(fonts, `Diplomă — ${c.name} — ${c.examName}`);
  if (c.kind === 'teacher') teacherDiploma(doc, c);
  else studentDiploma(doc, c);
  return doc.save();
}
