import { crc32, deflateRawSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_IMPORT_UNPACKED_BYTES, XLSX_MIME } from '../../../shared/schemas/questions.js';
import { checkZip } from '../../lib/files/zip-bounds.js';
import { buildTestApp, type TestApp } from '../../test/app.js';
import { codeOf, detailsOf, questionsKit, xlsx } from './questions.fixtures.js';

/**
 * A spreadsheet import is sized before it is parsed: a tiny xlsx whose sheet XML unpacks to
 * tens of megabytes (the probe's 355 KB → 116 MB took 14.8 s and 2.4 GB), one whose zip
 * directory understates what a part unpacks to, and one holding a hundred thousand rows in a
 * few megabytes are refused with a code, before exceljs reads a byte, and nothing is created.
 */

let t: TestApp;
let kit: ReturnType<typeof questionsKit>;

beforeAll(async () => {
  t = await buildTestApp({ env: { UPLOAD_MAX_BYTES: String(2 * 1024 * 1024) } });
  kit = questionsKit(t);
});
afterAll(() => t.close());

const HEADERS = ['Enunț', 'Disciplină', 'Clasa', 'Dificultate'];
const SHEET = 'xl/worksheets/sheet1.xml';

type Part = { name: string; data: Buffer; declaredSize?: number };

/** A deflated zip of these parts; `declaredSize` lets the directory lie about one of them. */
function deflatedZip(parts: Part[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const part of parts) {
    const name = Buffer.from(part.name, 'utf8');
    const packed = deflateRawSync(part.data, { level: 9 });
    const size = part.declaredSize ?? part.data.length;
    const crc = crc32(part.data) >>> 0;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(packed.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(packed.length, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, packed);
    centrals.push(central, name);
    offset += 30 + name.length + packed.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(parts.length, 8);
  end.writeUInt16LE(parts.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

/** A real workbook (from exceljs) with its first sheet's XML replaced. */
async function workbookWithSheet(sheetXml: string, declaredSize?: number): Promise<Buffer> {
  const real = await xlsx(HEADERS, [['Cât face 1 + 1?', 'Matematică', 5, 'ușor']]);
  const unpacked = checkZip(
    real,
    { maxUnpackedBytes: 1e9, maxRatio: 1e9, maxEntries: 1000 },
    () => true,
  );
  if (!unpacked.ok) throw new Error('exceljs wrote an unreadable workbook');
  return deflatedZip(
    [...unpacked.entries].map(([name, data]) =>
      name === SHEET ? { name, data: Buffer.from(sheetXml, 'utf8'), declaredSize } : { name, data },
    ),
  );
}

const sheetXml = (rows: string) =>
  '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>' +
  '<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>' +
  rows +
  '</sheetData></worksheet>';

const cellRow = (r: number) =>
  `<row r="${r}"><c r="A${r}" t="inlineStr"><is><t>Cât face ${r % 10} + 1?</t></is></c></row>`;

describe('POST …/items/import of a spreadsheet bomb', () => {
  it('refuses a small file that unpacks to tens of megabytes, and creates nothing', async () => {
    const w = await kit.world();
    const rows = Array.from({ length: 600_000 }, (_, i) => cellRow((i % 10) + 2)).join('');
    const bomb = await workbookWithSheet(sheetXml(rows));
    expect(bomb.length).toBeLessThan(2 * 1024 * 1024);
    expect(Buffer.byteLength(rows)).toBeGreaterThan(4 * MAX_IMPORT_UNPACKED_BYTES);
    const res = await kit.upload(`${w.items}/import`, w.examAdmin.headers, [
      { name: 'file', filename: 'intrebari.xlsx', type: XLSX_MIME, value: bomb },
    ]);
    expect({ status: res.statusCode, code: codeOf(res), details: detailsOf(res) }).toEqual({
      status: 413,
      code: 'SPREADSHEET_TOO_LARGE',
      details: { maxUnpackedBytes: MAX_IMPORT_UNPACKED_BYTES },
    });
    expect((await kit.call('GET', `${w.items}/count`, w.examAdmin.headers)).json()).toEqual({
      count: 0,
    });
  });

  it('refuses a part that unpacks to more than the zip directory says', async () => {
    const w = await kit.world();
    const rows = Array.from({ length: 150_000 }, (_, i) => cellRow((i % 10) + 2)).join('');
    const liar = await workbookWithSheet(sheetXml(rows), 2048);
    const res = await kit.upload(`${w.items}/import`, w.examAdmin.headers, [
      { name: 'file', filename: 'intrebari.xlsx', type: XLSX_MIME, value: liar },
    ]);
    expect({ status: res.statusCode, code: codeOf(res) }).toEqual({
      status: 413,
      code: 'SPREADSHEET_TOO_LARGE',
    });
  });

  it('refuses far more rows than an import takes before parsing them, as too many rows', async () => {
    const w = await kit.world();
    const rows = Array.from({ length: 100_000 }, (_, i) => `<row r="${i + 2}"/>`).join('');
    const many = await workbookWithSheet(sheetXml(rows));
    expect(Buffer.byteLength(rows)).toBeLessThan(MAX_IMPORT_UNPACKED_BYTES);
    const res = await kit.upload(`${w.items}/import`, w.examAdmin.headers, [
      { name: 'file', filename: 'intrebari.xlsx', type: XLSX_MIME, value: many },
    ]);
    expect({ status: res.statusCode, details: detailsOf(res) }).toEqual({
      status: 400,
      details: { file: ['too_long'] },
    });
  });

  it('still imports a workbook rebuilt the same way at a sensible size', async () => {
    const w = await kit.world();
    const rows = [2, 3, 4]
      .map(
        (r) =>
          `<row r="${r}"><c r="A${r}" t="inlineStr"><is><t>Cât face ${r} + 1?</t></is></c>` +
          `<c r="B${r}" t="inlineStr"><is><t>Matematică</t></is></c><c r="C${r}"><v>5</v></c>` +
          `<c r="D${r}" t="inlineStr"><is><t>ușor</t></is></c></row>`,
      )
      .join('');
    const header =
      '<row r="1">' +
      HEADERS.map((h, i) => `<c r="${'ABCD'[i]}1" t="inlineStr"><is><t>${h}</t></is></c>`).join(
        '',
      ) +
      '</row>';
    const ok = await workbookWithSheet(sheetXml(header + rows));
    const res = await kit.upload(`${w.items}/import`, w.examAdmin.headers, [
      { name: 'file', filename: 'intrebari.xlsx', type: XLSX_MIME, value: ok },
    ]);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ createdCount: 3, refused: [] });
  });
});
