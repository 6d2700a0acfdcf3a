import ExcelJS from 'exceljs';
import { GRADE_ABSOLVENT } from '../../../shared/constants.js';
import {
  MAX_IMPORT_ROWS,
  MAX_IMPORT_UNPACKED_BYTES,
  type QuestionCreate,
  questionCreateSchema,
} from '../../../shared/schemas/questions.js';
import { AppError, fieldError } from '../../lib/errors.js';
import { checkZip } from '../../lib/files/zip-bounds.js';

/**
 * The question spreadsheet: one row a question, Romanian headers (English ones are accepted
 * too), read and written with exceljs. Pure: bytes in, rows or a template out.
 */

type Field =
  | 'itemQ'
  | 'itemCategory'
  | 'itemDiscipline'
  | 'itemGrade'
  | 'difficulty'
  | 'itemType'
  | 'itemAnswers'
  | 'itemCorrectAnswers';

/** The template's columns, in order, with the header names each one also answers to. */
const COLUMNS: { field: Field; header: string; width: number; aliases: string[] }[] = [
  { field: 'itemQ', header: 'Enunț', width: 60, aliases: ['enunt', 'statement', 'itemq'] },
  { field: 'itemCategory', header: 'Categorie', width: 16, aliases: ['categorie', 'category'] },
  {
    field: 'itemDiscipline',
    header: 'Disciplină',
    width: 16,
    aliases: ['disciplina', 'discipline', 'subject'],
  },
  { field: 'itemGrade', header: 'Clasa', width: 8, aliases: ['clasa', 'grade'] },
  { field: 'difficulty', header: 'Dificultate', width: 12, aliases: ['dificultate', 'difficulty'] },
  { field: 'itemType', header: 'Tip', width: 12, aliases: ['tip', 'type'] },
  {
    field: 'itemAnswers',
    header: 'Variante',
    width: 40,
    aliases: ['variante', 'answers', 'options'],
  },
  {
    field: 'itemCorrectAnswers',
    header: 'Răspuns corect',
    width: 16,
    aliases: ['raspunscorect', 'raspunsuricorecte', 'correctanswer', 'correctanswers'],
  },
];
const REQUIRED: Field[] = ['itemQ', 'itemDiscipline', 'itemGrade', 'difficulty'];

/** Lower case, no diacritics, no spaces or punctuation: 'Răspuns corect' → 'raspunscorect'. */
const key = (text: string) =>
  text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '');

const DIFFICULTY: Record<string, QuestionCreate['difficulty']> = {
  usor: 'low',
  low: 'low',
  easy: 'low',
  mediu: 'medium',
  medium: 'medium',
  dificil: 'hard',
  greu: 'hard',
  hard: 'hard',
};
const TYPE: Record<string, QuestionCreate['itemType']> = {
  unic: 'single',
  single: 'single',
  raspunsunic: 'single',
  multiplu: 'multiple',
  multiple: 'multiple',
  raspunsmultiplu: 'multiple',
  numeric: 'numeric',
  numar: 'numeric',
  deschis: 'open',
  open: 'open',
  liber: 'open',
};
const ROMAN = ['i', 'ii', 'iii', 'iv', 'v', 'vi', 'vii', 'viii', 'ix', 'x', 'xi', 'xii'];

function parseGrade(text: string): number | string {
  const k = key(text).replace(/^a(?=[ivx])|a$/g, '');
  if (k === 'absolvent') return GRADE_ABSOLVENT;
  if (/^\d{1,2}$/.test(k)) return Number(k);
  const roman = ROMAN.indexOf(k);
  return roman >= 0 ? roman + 1 : text;
}

/** 'A', 'b', '2' → 0-based indices; anything else stays as given so the check refuses it. */
function parseIndices(text: string): number[] | string {
  const parts = text.split(/[\s,;]+/).filter(Boolean);
  const indices = parts.map((p) =>
    /^[a-t]$/i.test(p)
      ? p.toUpperCase().charCodeAt(0) - 65
      : /^\d{1,2}$/.test(p)
        ? Number(p) - 1
        : -1,
  );
  return indices.some((i) => i < 0) ? text : indices;
}

export type SheetRow = { row: number; values: Partial<Record<Field, string>> };
export type RowResult =
  | { row: number; question: QuestionCreate }
  | { row: number; issues: { field: string | null; code: string }[] };

/** Rows a workbook may hold beyond the data rows: headers, blank rows, the instructions sheet. */
const ROW_SLACK = 1000;
/** An xlsx is a few dozen parts; thousands are not a spreadsheet we wrote or Excel writes. */
const MAX_PARTS = 500;
const WORKSHEET_PART = /^xl\/worksheets\/[^/]+\.xml$/;
/** A row element, with or without a namespace prefix (`<row r="2">`, `<x:row>`). */
const ROW_ELEMENT = /<(?:[A-Za-z_][\w.-]*:)?row[\s>/]/g;

/**
 * What the workbook unpacks to and how many rows its sheets hold, before exceljs parses it:
 * SPREADSHEET_TOO_LARGE for more than MAX_IMPORT_UNPACKED_BYTES (or a suspicious compression
 * ratio, or parts whose real size exceeds what the zip declares), `file: too_long` for far more
 * rows than an import takes. What is not a zip at all is left to the type check and the parser.
 * Runs before anything else reads the file (the type detector looks inside zips too).
 */
export function assertSheetBounds(data: Buffer): void {
  const zip = checkZip(
    data,
    { maxUnpackedBytes: MAX_IMPORT_UNPACKED_BYTES, maxRatio: 100, maxEntries: MAX_PARTS },
    (name) => WORKSHEET_PART.test(name),
  );
  if (!zip.ok && zip.reason === 'not_zip') return;
  if (!zip.ok) {
    throw new AppError('SPREADSHEET_TOO_LARGE', 'The spreadsheet unpacks to too much', {
      maxUnpackedBytes: MAX_IMPORT_UNPACKED_BYTES,
    });
  }
  let rows = 0;
  for (const sheet of zip.entries.values())
    rows += sheet.toString('utf8').match(ROW_ELEMENT)?.length ?? 0;
  if (rows > MAX_IMPORT_ROWS + ROW_SLACK) {
    throw fieldError({ file: ['too_long'] }, `More than ${MAX_IMPORT_ROWS} rows`);
  }
}

/** The spreadsheet's rows by field; CLIENT_ERROR on `file` for a workbook we cannot use. */
export async function readQuestionSheet(data: Buffer): Promise<SheetRow[]> {
  const workbook = new ExcelJS.Workbook();
  try {
    await workbook.xlsx.load(data as unknown as ArrayBuffer);
  } catch {
    throw fieldError({ file: ['invalid'] }, 'Not a readable spreadsheet');
  }
  const sheet = workbook.worksheets[0];
  if (!sheet) throw fieldError({ file: ['invalid'] }, 'The workbook has no sheet');
  const columnOf = new Map<Field, number>();
  sheet.getRow(1).eachCell((cell, col) => {
    const k = key(cell.text ?? '');
    const column = COLUMNS.find((c) => c.aliases.includes(k) || key(c.header) === k);
    if (column && !columnOf.has(column.field)) columnOf.set(column.field, col);
  });
  const missing = REQUIRED.filter((f) => !columnOf.has(f));
  if (missing.length > 0) {
    throw fieldError({ file: ['invalid'] }, `Missing columns: ${missing.join(', ')}`);
  }
  const rows: SheetRow[] = [];
  for (let r = 2; r <= sheet.rowCount; r++) {
    const row = sheet.getRow(r);
    const values: SheetRow['values'] = {};
    for (const [field, col] of columnOf) {
      const text = (row.getCell(col).text ?? '').trim();
      if (text) values[field] = text;
    }
    if (Object.keys(values).length === 0) continue;
    rows.push({ row: r, values });
    if (rows.length > MAX_IMPORT_ROWS) {
      throw fieldError({ file: ['too_long'] }, `More than ${MAX_IMPORT_ROWS} rows`);
    }
  }
  return rows;
}

/** One row → a question checked by the same schema as `POST …/items`, or why not. */
export function checkSheetRow({ row, values }: SheetRow): RowResult {
  const answers = values.itemAnswers
    ? values.itemAnswers
        .split('|')
        .map((a) => a.trim())
        .filter(Boolean)
    : [];
  const typeText = values.itemType ? key(values.itemType) : '';
  const itemType = typeText
    ? (TYPE[typeText] ?? values.itemType)
    : answers.length
      ? 'single'
      : 'open';
  const correctText = values.itemCorrectAnswers;
  const itemCorrectAnswers =
    correctText === undefined
      ? null
      : itemType === 'single' || itemType === 'multiple'
        ? parseIndices(correctText)
        : correctText;
  const candidate = {
    itemQ: values.itemQ ?? '',
    itemCategory: values.itemCategory ?? null,
    itemDiscipline: values.itemDiscipline ?? '',
    itemGrade: values.itemGrade === undefined ? undefined : parseGrade(values.itemGrade),
    difficulty: values.difficulty
      ? (DIFFICULTY[key(values.difficulty)] ?? values.difficulty)
      : undefined,
    itemType,
    itemAnswers: answers,
    itemCorrectAnswers,
  };
  const parsed = questionCreateSchema.safeParse(candidate);
  if (parsed.success) return { row, question: parsed.data };
  const issues = parsed.error.issues.map((issue) => {
    const field = typeof issue.path[0] === 'string' ? issue.path[0] : null;
    const value = field === null ? undefined : candidate[field as keyof typeof candidate];
    const code = /^[a-z_]+$/.test(issue.message) ? issue.message : 'invalid';
    if (value === undefined) return { field, code: 'required' };
    // A value was given but is not one we know (e.g. difficulty 'foarte greu').
    return {
      field,
      code: code === 'required' && typeof value === 'string' && value ? 'invalid' : code,
    };
  });
  // One report line per field (its first problem), however many zod issues it had.
  const unique = new Map<string | null, (typeof issues)[number]>();
  for (const issue of issues) if (!unique.has(issue.field)) unique.set(issue.field, issue);
  return { row, issues: [...unique.values()] };
}

/** The template offered for download: headers, three examples and a sheet of instructions. */
export async function buildQuestionTemplate(): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Întrebări');
  sheet.columns = COLUMNS.map((c) => ({ header: c.header, key: c.field, width: c.width }));
  sheet.getRow(1).font = { bold: true };
  sheet.addRow({
    itemQ: 'Câte soluții reale are ecuația $x^2 - 5x + 6 = 0$?',
    itemCategory: 'Algebră',
    itemDiscipline: 'Matematică',
    itemGrade: 8,
    difficulty: 'ușor',
    itemType: 'unic',
    itemAnswers: '0 | 1 | 2 | o infinitate',
    itemCorrectAnswers: 'C',
  });
  sheet.addRow({
    itemQ: 'Aria unui pătrat cu latura de $3\\,\\text{cm}$ este (în $\\text{cm}^2$):',
    itemCategory: 'Geometrie',
    itemDiscipline: 'Matematică',
    itemGrade: 5,
    difficulty: 'mediu',
    itemType: 'numeric',
    itemAnswers: '',
    itemCorrectAnswers: '9',
  });
  sheet.addRow({
    itemQ: 'Demonstrați că $\\sqrt{2}$ este irațional.',
    itemCategory: 'Algebră',
    itemDiscipline: 'Matematică',
    itemGrade: 8,
    difficulty: 'dificil',
    itemType: 'deschis',
    itemAnswers: '',
    itemCorrectAnswers: '',
  });
  const help = workbook.addWorksheet('Instrucțiuni');
  help.getColumn(1).width = 110;
  for (const line of [
    'Un rând = o întrebare. Rândurile goale sunt ignorate. Primul rând păstrează numele coloanelor.',
    'Enunț (obligatoriu): text Markdown; formulele între $…$ sau $$…$$ (LaTeX).',
    'Categorie: de exemplu Algebră, Geometrie.',
    'Disciplină (obligatoriu): de exemplu Matematică, Informatică.',
    'Clasa (obligatoriu): 0–12 sau Absolvent (cifre sau cifre romane: V, VI …).',
    'Dificultate (obligatoriu): ușor, mediu sau dificil.',
    'Tip: unic, multiplu, numeric sau deschis (implicit: unic dacă există variante, altfel deschis).',
    'Variante: separate prin | (bară verticală); doar pentru unic și multiplu (cel puțin două).',
    'Răspuns corect: litera sau numărul variantei (A sau 1); la multiplu mai multe, separate prin virgulă; la numeric valoarea; la deschis gol.',
  ]) {
    help.addRow([line]);
  }
  return Buffer.from(await workbook.xlsx.writeBuffer());
}
