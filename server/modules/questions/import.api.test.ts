import { eq } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { XLSX_MIME } from '../../../shared/schemas/questions.js';
import { statementImage } from '../../../shared/statement.js';
import { files, phases } from '../../db/schema.js';
import { buildTestApp, type TestApp } from '../../test/app.js';
import {
  API,
  codeOf,
  detailsOf,
  type Part,
  questionsKit,
  tinyGif,
  tinyJpeg,
  tinyPng,
  xlsx,
} from './questions.fixtures.js';

const MAX_BYTES = 200_000;

let t: TestApp;
let kit: ReturnType<typeof questionsKit>;

beforeAll(async () => {
  t = await buildTestApp({
    env: { AUTH_RATE_LIMIT_PER_MINUTE: '100000', UPLOAD_MAX_BYTES: String(MAX_BYTES) },
  });
  kit = questionsKit(t);
});
afterAll(async () => {
  await t.close();
});

const image = (filename: string, value: Buffer = tinyPng()): Part => ({
  name: 'image',
  filename,
  type: 'image/png',
  value,
});
const text = (name: string, value: string): Part => ({ name, value });
const sheet = (value: Buffer, filename = 'intrebari.xlsx'): Part => ({
  name: 'file',
  filename,
  type: XLSX_MIME,
  value,
});
const fileCount = async () => (await t.database.db.select({ id: files.id }).from(files)).length;
type Listed = {
  _id: string;
  itemQ: string;
  itemType: string;
  itemGrade: number;
  itemCategory: string | null;
  itemDiscipline: string;
  difficulty: string;
  itemAnswers: string[];
  itemCorrectAnswers: unknown;
  imageFileId: string | null;
  images: string[];
};

const HEADERS = [
  'Enunț',
  'Categorie',
  'Disciplină',
  'Clasa',
  'Dificultate',
  'Tip',
  'Variante',
  'Răspuns corect',
];

describe('POST …/items/files (one question per image)', () => {
  it('creates an open question per accepted image and reports each refused file', async () => {
    const w = await kit.world();
    const res = await kit.upload(`${w.items}/files`, w.examAdmin.headers, [
      text('Discipline', 'Matematică'),
      text('Grade', '6'),
      text('Difficulty', 'hard'),
      text('Category', 'Geometrie'),
      image('Problema 1.png'),
      image('animatie.png', tinyGif()),
      image('Problema 2.jpg', tinyJpeg()),
      image('scanare-mare.png', tinyPng(MAX_BYTES + 1)),
      image('notite.png', Buffer.from('doar text')),
    ]);
    expect(res.statusCode).toBe(200);
    const report = res.json() as {
      createdCount: number;
      created: { file: string; _id: string }[];
      refused: { file: string; code: string }[];
    };
    expect(report.createdCount).toBe(2);
    expect(report.created.map((c) => c.file)).toEqual(['Problema 1.png', 'Problema 2.jpg']);
    expect(report.refused).toEqual([
      { file: 'animatie.png', code: 'FILE_TYPE_NOT_ALLOWED' },
      { file: 'scanare-mare.png', code: 'FILE_TOO_LARGE' },
      { file: 'notite.png', code: 'FILE_TYPE_NOT_ALLOWED' },
    ]);

    const listed = (await kit.call('GET', w.items, w.staff.headers)).json() as Listed[];
    expect(listed).toHaveLength(2);
    for (const q of listed) {
      expect(q).toMatchObject({
        itemType: 'open',
        itemGrade: 6,
        itemDiscipline: 'Matematică',
        itemCategory: 'Geometrie',
        difficulty: 'hard',
        itemAnswers: [],
        itemCorrectAnswers: null,
      });
      expect(q.imageFileId).toEqual(expect.any(String));
      expect(q.images).toEqual([q.imageFileId]);
      expect(q.itemQ).toBe(
        statementImage(
          q.imageFileId ?? '',
          q.itemQ.includes('Problema 1') ? 'Problema 1' : 'Problema 2',
        ),
      );
      // The statement's image is readable by the exam's staff.
      const img = await kit.call('GET', `/files/${q.imageFileId}`, w.staff.headers);
      expect(img.statusCode).toBe(200);
    }
    expect(await fileCount()).toBeGreaterThanOrEqual(2);
  });

  it('uses medium and no category by default, and a Roman grade is not a number', async () => {
    const w = await kit.world();
    const res = await kit.upload(`${w.items}/files`, w.admin.headers, [
      text('Discipline', 'Informatică'),
      text('Grade', '99'),
      image('a.png'),
    ]);
    expect(res.json()).toMatchObject({ createdCount: 1, refused: [] });
    const [q] = (await kit.call('GET', w.items, w.admin.headers)).json() as Listed[];
    expect(q).toMatchObject({ difficulty: 'medium', itemCategory: null, itemGrade: 99 });
  });

  it('answers at SPEC.md §7’s data-import path too, under the same rules', async () => {
    const w = await kit.world();
    const parts = [text('Discipline', 'Matematică'), text('Grade', '5'), image('p.png')];
    const spec = '/api/v1/data-import';
    const res = await kit.upload(`${w.items}/files`, w.examAdmin.headers, parts, spec);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ createdCount: 1, refused: [] });
    const listed = (await kit.call('GET', w.items, w.examAdmin.headers)).json() as Listed[];
    expect(listed).toHaveLength(1);
    const staff = await kit.upload(`${w.items}/files`, w.staff.headers, parts, spec);
    expect(staff.statusCode).toBe(403);
  });

  it('refuses bad fields and bodies before storing anything', async () => {
    const w = await kit.world();
    const url = `${w.items}/files`;
    const h = w.examAdmin.headers;
    const before = await fileCount();
    const cases: [Part[], unknown][] = [
      [[text('Grade', '6'), image('a.png')], [{ code: 'required', path: ['Discipline'] }]],
      [[text('Discipline', 'Mate'), image('a.png')], [{ code: 'required', path: ['Grade'] }]],
      [
        [text('Discipline', 'Matematică'), text('Grade', 'VI'), image('a.png')],
        [{ code: 'invalid', path: ['Grade'] }],
      ],
      [
        [text('Discipline', 'Matematică'), text('Grade', '13'), image('a.png')],
        [{ code: 'invalid', path: ['Grade'] }],
      ],
      [
        [
          text('Discipline', 'Matematică'),
          text('Grade', '6'),
          text('Difficulty', 'greu'),
          image('a.png'),
        ],
        [{ code: 'invalid', path: ['Difficulty'] }],
      ],
      [
        [text('Discipline', 'Matematică'), text('Grade', '6'), text('Clasa', '6'), image('a.png')],
        [{ code: 'invalid', path: [] }],
      ],
      [
        [text('Discipline', 'Matematică'), text('Grade', '6'), { ...image('a.png'), name: 'file' }],
        [{ code: 'invalid', path: ['file'] }],
      ],
    ];
    for (const [parts, details] of cases) {
      const res = await kit.upload(url, h, parts);
      expect({ status: res.statusCode, code: codeOf(res), details: detailsOf(res) }).toEqual({
        status: 400,
        code: 'VALIDATION_FAILED',
        details,
      });
    }
    const noImage = await kit.upload(url, h, [
      text('Discipline', 'Matematică'),
      text('Grade', '6'),
    ]);
    expect(detailsOf(noImage)).toEqual({ image: ['required'] });
    const tooMany = await kit.upload(url, h, [
      text('Discipline', 'Matematică'),
      text('Grade', '6'),
      ...Array.from({ length: 21 }, (_, i) => image(`p${i}.png`)),
    ]);
    expect(detailsOf(tooMany)).toEqual([{ code: 'too_long', path: ['image'] }]);
    const json = await kit.call('POST', url, h, { Discipline: 'Matematică', Grade: 6 });
    expect(codeOf(json)).toBe('INVALID_MULTIPART');
    expect(await fileCount()).toBe(before);
    expect((await kit.call('GET', `${w.items}/count`, h)).json()).toEqual({ count: 0 });
  });

  it('is for the bank managers of an open phase', async () => {
    const w = await kit.world();
    const url = `${w.items}/files`;
    const parts = [text('Discipline', 'Matematică'), text('Grade', '6'), image('a.png')];
    const before = await fileCount();
    expect(codeOf(await kit.upload(url, w.staff.headers, parts))).toBe('OPERATION_NOT_PERMITTED');
    for (const who of [w.coordinator, w.outsider, w.student]) {
      expect((await kit.upload(url, who.headers, parts)).statusCode).toBe(404);
    }
    expect((await kit.upload(url, {}, parts)).statusCode).toBe(401);
    await t.database.db.update(phases).set({ state: 'closed' }).where(eq(phases.id, w.phase.id));
    expect(codeOf(await kit.upload(url, w.examAdmin.headers, parts))).toBe('PHASE_CLOSED');
    expect(await fileCount()).toBe(before);
  });
});

describe('GET …/items/import-template', () => {
  it('gives the managers and staff a spreadsheet that imports as it is', async () => {
    const w = await kit.world();
    const res = await kit.call('GET', `${w.items}/import-template`, w.staff.headers);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe(XLSX_MIME);
    expect(res.headers['content-disposition']).toContain('model-import-intrebari.xlsx');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const header = workbook.worksheets[0]?.getRow(1).values as string[];
    expect(header.filter(Boolean)).toEqual(HEADERS);
    expect(workbook.worksheets.map((s) => s.name)).toEqual(['Întrebări', 'Instrucțiuni']);

    const imported = await kit.upload(`${w.items}/import`, w.examAdmin.headers, [
      sheet(res.rawPayload),
    ]);
    expect(imported.json()).toMatchObject({ createdCount: 3, refused: [] });
    const listed = (await kit.call('GET', w.items, w.examAdmin.headers)).json() as Listed[];
    expect(listed.map((q) => [q.itemType, q.itemCorrectAnswers])).toEqual(
      expect.arrayContaining([
        ['single', [2]],
        ['numeric', '9'],
        ['open', null],
      ]),
    );

    for (const who of [w.coordinator, w.outsider, w.student]) {
      expect((await kit.call('GET', `${w.items}/import-template`, who.headers)).statusCode).toBe(
        404,
      );
    }
  });
});

describe('POST …/items/import (spreadsheet)', () => {
  it('adds the valid rows and reports every refused row with its field and code', async () => {
    const w = await kit.world();
    const foreignImage = (
      await kit.upload('/files', w.outsider.headers, [{ ...image('x.png'), name: 'file' }])
    ).json()._id as string;
    const data = await xlsx(HEADERS, [
      ['Cât face $2+2$?', 'Algebră', 'Matematică', 'a V-a', 'ușor', 'unic', '3 | 4 | 5', 'B'],
      ['Care sunt pare?', 'Algebră', 'Matematică', 6, 'Mediu', 'multiplu', '1|2|3|4', 'B, D'],
      ['Cât face $7/2$?', null, 'Matematică', 'VII', 'dificil', 'numeric', null, '3,5'],
      ['Demonstrați.', 'Geometrie', 'Matematică', 'Absolvent', 'greu', 'deschis', null, null],
      ['Fără tip, cu variante', null, 'Matematică', 5, 'ușor', null, 'da | nu', '1'],
      [null, null, null, null, null, null, null, null],
      [null, 'Algebră', 'Matematică', 5, 'ușor', 'unic', 'a|b', 'A'],
      ['Dificultate necunoscută', null, 'Matematică', 5, 'foarte greu', 'unic', 'a|b', 'A'],
      ['Clasă greșită', null, 'Matematică', 'XIII', 'ușor', 'unic', 'a|b', 'A'],
      ['Răspuns în afara variantelor', null, 'Matematică', 5, 'ușor', 'unic', 'a|b', 'E'],
      ['Două răspunsuri la unic', null, 'Matematică', 5, 'ușor', 'unic', 'a|b|c', 'A,B'],
      ['Numeric fără număr', null, 'Matematică', 5, 'ușor', 'numeric', null, 'cinci'],
      ['Tip necunoscut', null, 'Matematică', 5, 'ușor', 'eseu', null, null],
      [
        `Imagine străină ${statementImage(foreignImage)}`,
        null,
        'Matematică',
        5,
        'ușor',
        'deschis',
        null,
        null,
      ],
      ['Fără disciplină', null, null, 5, 'ușor', 'deschis', null, null],
    ]);
    const res = await kit.upload(`${w.items}/import`, w.examAdmin.headers, [sheet(data)]);
    expect(res.statusCode).toBe(200);
    const report = res.json() as {
      createdCount: number;
      created: { row: number; _id: string }[];
      refused: { row: number; field: string | null; code: string }[];
    };
    expect(report.createdCount).toBe(5);
    expect(report.created.map((c) => c.row)).toEqual([2, 3, 4, 5, 6]);
    expect(report.refused).toEqual([
      { row: 8, field: 'itemQ', code: 'required' },
      { row: 9, field: 'difficulty', code: 'invalid' },
      { row: 10, field: 'itemGrade', code: 'invalid' },
      { row: 11, field: 'itemCorrectAnswers', code: 'invalid' },
      { row: 12, field: 'itemCorrectAnswers', code: 'invalid' },
      { row: 13, field: 'itemCorrectAnswers', code: 'not_number' },
      { row: 14, field: 'itemType', code: 'invalid' },
      { row: 15, field: 'itemQ', code: 'invalid' },
      { row: 16, field: 'itemDiscipline', code: 'required' },
    ]);

    const byId = new Map(
      (
        (
          await kit.call('GET', `${w.items}?filter=${kit.q({ limit: 50 })}`, w.examAdmin.headers)
        ).json() as Listed[]
      ).map((q) => [q._id, q]),
    );
    const [r2, r3, r4, r5, r6] = report.created.map((c) => byId.get(c._id));
    expect(r2).toMatchObject({
      itemType: 'single',
      itemGrade: 5,
      difficulty: 'low',
      itemAnswers: ['3', '4', '5'],
      itemCorrectAnswers: [1],
      itemCategory: 'Algebră',
    });
    expect(r3).toMatchObject({ itemType: 'multiple', itemGrade: 6, itemCorrectAnswers: [1, 3] });
    expect(r4).toMatchObject({
      itemType: 'numeric',
      itemGrade: 7,
      difficulty: 'hard',
      itemCorrectAnswers: '3.5',
      itemCategory: null,
    });
    expect(r5).toMatchObject({ itemType: 'open', itemGrade: 99, itemCorrectAnswers: null });
    expect(r6).toMatchObject({
      itemType: 'single',
      itemAnswers: ['da', 'nu'],
      itemCorrectAnswers: [0],
    });
  });

  it('reads English headers too', async () => {
    const w = await kit.world();
    const data = await xlsx(
      ['Statement', 'Discipline', 'Grade', 'Difficulty', 'Type', 'Answers', 'Correct answer'],
      [['What is $1+1$?', 'Mathematics', 8, 'easy', 'single', '1 | 2', '2']],
    );
    const res = await kit.upload(`${w.items}/import`, w.admin.headers, [sheet(data)]);
    expect(res.json()).toMatchObject({ createdCount: 1, refused: [] });
  });

  it('refuses a file it cannot use, and changes nothing', async () => {
    const w = await kit.world();
    const url = `${w.items}/import`;
    const h = w.examAdmin.headers;
    const png = await kit.upload(url, h, [sheet(tinyPng(), 'intrebari.xlsx')]);
    expect(codeOf(png)).toBe('FILE_TYPE_NOT_ALLOWED');
    const csv = await kit.upload(url, h, [sheet(Buffer.from('Enunț,Clasa\nx,5\n'), 'a.xlsx')]);
    expect(codeOf(csv)).toBe('FILE_TYPE_NOT_ALLOWED');
    const noColumns = await kit.upload(url, h, [
      sheet(await xlsx(['Nume', 'Prenume'], [['a', 'b']])),
    ]);
    expect(detailsOf(noColumns)).toEqual({ file: ['invalid'] });
    const manyRows = await xlsx(
      HEADERS,
      Array.from({ length: 2001 }, (_, i) => [
        `Q${i}`,
        null,
        'M',
        5,
        'ușor',
        'deschis',
        null,
        null,
      ]),
    );
    expect(detailsOf(await kit.upload(url, h, [sheet(manyRows)]))).toEqual({ file: ['too_long'] });
    const big = await kit.upload(url, h, [sheet(tinyPng(MAX_BYTES + 10))]);
    expect(codeOf(big)).toBe('FILE_TOO_LARGE');
    const two = await kit.upload(url, h, [
      sheet(await xlsx(HEADERS, [])),
      sheet(await xlsx(HEADERS, [])),
    ]);
    expect(detailsOf(two)).toEqual({ file: ['too_long'] });
    expect(detailsOf(await kit.upload(url, h, [text('x', 'y')]))).toEqual({ file: ['required'] });
    const broken = await t.app.inject({
      method: 'POST',
      url: `${API}${url}`,
      headers: { ...h, 'content-type': 'multipart/form-data; boundary=b' },
      payload: '--b\r\nContent-Disposition: form-data; name="file"; filename="a.xlsx"\r\n\r\nPK',
    });
    expect(codeOf(broken)).toBe('INVALID_MULTIPART');
    expect((await kit.call('GET', `${w.items}/count`, h)).json()).toEqual({ count: 0 });
  });

  it('is for the bank managers', async () => {
    const w = await kit.world();
    const data = await xlsx(HEADERS, [['x?', null, 'M', 5, 'ușor', 'deschis', null, null]]);
    const url = `${w.items}/import`;
    expect(codeOf(await kit.upload(url, w.staff.headers, [sheet(data)]))).toBe(
      'OPERATION_NOT_PERMITTED',
    );
    for (const who of [w.coordinator, w.outsider, w.student]) {
      expect((await kit.upload(url, who.headers, [sheet(data)])).statusCode).toBe(404);
    }
    expect((await kit.call('GET', `${w.items}/count`, w.admin.headers)).json()).toEqual({
      count: 0,
    });
  });
});
