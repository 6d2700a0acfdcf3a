import type { PdfFonts } from '../../lib/pdf/fonts.js';
import { createPdfDocument, type PdfDocument, type PdfPage } from '../../lib/pdf/pdf-writer.js';
import { qrGrid } from '../../lib/pdf/qr.js';
import { encodePageCode, type PageCode } from './paper-code.js';

/**
 * Answer booklets for a paper test: for each student a cover page (the only page with a name:
 * it is torn off, and a scanned cover never reaches a marker), then `pagesPerItem` answer pages
 * per question, each with a QR code of the test, the student's anonymous code, the question and
 * the page (paper-code.ts) and the same in text for a person; spare pages with a QR code of the
 * test only, where the student writes code and question by hand. A4 portrait, black on white
 * (prints on any office printer), labels in Romanian and English.
 */
export type BookletStudent = {
  name: string;
  code: string;
  room: string;
  seat: string;
  grade: number | null;
};

export type BookletContent = {
  testId: string;
  examName: string;
  phaseName: string;
  testName: string;
  room: string | null;
  students: readonly BookletStudent[];
  /** How many questions the test has (`Întrebarea 1` … `Întrebarea N`). */
  itemCount: number;
  pagesPerItem: number;
  sparePages: number;
};

const WIDTH = 595.28;
const HEIGHT = 841.89;
const MARGIN = 36;
const QR_SIZE = 96;
const INK = [0, 0, 0] as const;
const TEXT_WIDTH = WIDTH - 2 * MARGIN - QR_SIZE - 16;

/** `text` cut to `width` points with an ellipsis, so a long name never runs under the QR code. */
function fitted(doc: PdfDocument, text: string, bold: boolean, size: number, width: number) {
  const font = bold ? 'bold' : 'regular';
  if (doc.measure(text, font, size) <= width) return text;
  let cut = text;
  while (cut.length > 1 && doc.measure(`${cut}…`, font, size) > width) cut = cut.slice(0, -1);
  return `${cut.trimEnd()}…`;
}

/** The QR code at the top right, where the scan reader looks first. */
function qr(page: PdfPage, code: PageCode) {
  const grid = qrGrid(encodePageCode(code), 'alphanumeric');
  page.fillGrid(
    WIDTH - MARGIN - QR_SIZE,
    HEIGHT - MARGIN - QR_SIZE,
    QR_SIZE / grid.size,
    grid.boxes,
    INK,
  );
}

function heading(doc: PdfDocument, page: PdfPage, c: BookletContent) {
  const top = HEIGHT - MARGIN - 12;
  page.text(fitted(doc, c.testName, true, 12, TEXT_WIDTH), MARGIN, top, { font: 'bold', size: 12 });
  page.text(fitted(doc, `${c.examName} · ${c.phaseName}`, false, 9, TEXT_WIDTH), MARGIN, top - 14, {
    size: 9,
  });
}

/** Where the student writes, and the reminder that no name goes on the page. */
function answerArea(page: PdfPage, top: number) {
  page.strokeRect(MARGIN, MARGIN + 24, WIDTH - 2 * MARGIN, top - MARGIN - 24, 0.6, INK);
  page.text(
    'Nu scrieți numele pe această pagină. · Do not write your name on this page.',
    MARGIN,
    MARGIN + 8,
    { size: 8 },
  );
}

function cover(doc: PdfDocument, c: BookletContent, s: BookletStudent) {
  const page = doc.addPage(WIDTH, HEIGHT);
  qr(page, { kind: 'cover', testId: c.testId, code: s.code });
  heading(doc, page, c);
  let y = HEIGHT - MARGIN - 70;
  page.text('Caiet de răspunsuri · Answer booklet', MARGIN, y, { font: 'bold', size: 20 });
  y -= 48;
  const row = (label: string, value: string, size = 14) => {
    page.text(label, MARGIN, y, { size: 10 });
    page.text(fitted(doc, value, true, size, WIDTH - 2 * MARGIN - 170), MARGIN + 170, y, {
      font: 'bold',
      size,
    });
    y -= size + 16;
  };
  row('Nume · Name', s.name);
  row('Cod elev · Student code', s.code, 22);
  row('Sala · Room', s.room || '—');
  row('Locul · Seat', s.seat || '—');
  if (s.grade !== null) row('Clasa · Grade', String(s.grade));
  y -= 10;
  page.line(MARGIN, y, WIDTH - MARGIN, y, 0.6, INK);
  y -= 22;
  for (const line of [
    'Această pagină este singura cu numele dumneavoastră; se detașează înainte de corectare.',
    'This is the only page with your name; it is taken off before marking.',
    'Scrieți fiecare răspuns pe paginile întrebării lui. Nu scrieți numele pe celelalte pagini.',
    'Write each answer on the pages of its question. Do not write your name on the other pages.',
    'Paginile suplimentare: completați codul, întrebarea și pagina.',
    'Spare pages: fill in your code, the question and the page.',
  ]) {
    page.text(line, MARGIN, y, { size: 10 });
    y -= 16;
  }
}

function answerPage(
  doc: PdfDocument,
  c: BookletContent,
  s: BookletStudent,
  itemIndex: number,
  pageNo: number,
) {
  const page = doc.addPage(WIDTH, HEIGHT);
  qr(page, { kind: 'answer', testId: c.testId, code: s.code, itemIndex, page: pageNo });
  heading(doc, page, c);
  const y = HEIGHT - MARGIN - 52;
  page.text(`Întrebarea ${itemIndex} · Question ${itemIndex}`, MARGIN, y, {
    font: 'bold',
    size: 16,
  });
  page.text(
    `Pagina ${pageNo} din ${c.pagesPerItem} · Page ${pageNo} of ${c.pagesPerItem}`,
    MARGIN,
    y - 18,
    { size: 10 },
  );
  page.text(`Cod elev · Student code: ${s.code}`, MARGIN + 220, y - 18, {
    font: 'bold',
    size: 10,
  });
  answerArea(page, HEIGHT - MARGIN - QR_SIZE - 10);
}

function sparePage(doc: PdfDocument, c: BookletContent, serial: number) {
  const page = doc.addPage(WIDTH, HEIGHT);
  qr(page, { kind: 'spare', testId: c.testId, serial });
  heading(doc, page, c);
  const y = HEIGHT - MARGIN - 52;
  page.text(`Pagină suplimentară ${serial} · Spare page ${serial}`, MARGIN, y, {
    font: 'bold',
    size: 14,
  });
  const field = (label: string, x: number, w: number) => {
    page.text(label, x, y - 22, { size: 9 });
    page.strokeRect(x, y - 48, w, 20, 0.6, INK);
  };
  field('Cod elev · Student code', MARGIN, 130);
  field('Întrebarea · Question', MARGIN + 145, 90);
  field('Pagina · Page', MARGIN + 250, 60);
  answerArea(page, HEIGHT - MARGIN - QR_SIZE - 10);
}

/** Pages one student's booklet has (cover, answer pages), without the room's spare pages. */
export const bookletPages = (c: Pick<BookletContent, 'itemCount' | 'pagesPerItem'>) =>
  1 + c.itemCount * c.pagesPerItem;

/**
 * The booklets of `c.students` in order, then the room's spare pages; `onStudent` is told after
 * each booklet (the job's progress).
 */
export function renderBooklets(
  fonts: PdfFonts,
  c: BookletContent,
  onStudent: (done: number) => void = () => undefined,
): Promise<Buffer> {
  const doc = createPdfDocument(fonts, `Caiete de răspunsuri — ${c.testName}`);
  c.students.forEach((s, i) => {
    cover(doc, c, s);
    for (let item = 1; item <= c.itemCount; item += 1) {
      for (let p = 1; p <= c.pagesPerItem; p += 1) answerPage(doc, c, s, item, p);
    }
    onStudent(i + 1);
  });
  for (let serial = 1; serial <= c.sparePages; serial += 1) sparePage(doc, c, serial);
  return doc.save();
}
