import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { XLSX_MIME } from '../../../shared/schemas/questions.js';
import { MAX_FORMULA_CHARS, MAX_FORMULA_DEPTH } from '../../../shared/statement.js';
import { buildTestApp, type TestApp } from '../../test/app.js';
import { codeOf, detailsOf, questionsKit, xlsx } from './questions.fixtures.js';

/**
 * Formulas stay within what the statement renderer can draw: nested deeper than
 * MAX_FORMULA_DEPTH (~500 levels crashed it) or longer than MAX_FORMULA_CHARS in one text (a
 * 20 KB statement cost 3.2 s) is a 400 naming the field, on adding, editing and importing.
 */

let t: TestApp;
let kit: ReturnType<typeof questionsKit>;

beforeAll(async () => {
  t = await buildTestApp();
  kit = questionsKit(t);
});
afterAll(() => t.close());

const nested = (n: number) => `$${'\\frac{1}{'.repeat(n)}x${'}'.repeat(n)}$`;
const question = (over: Record<string, unknown> = {}) => ({
  itemQ: 'Cât face $\\frac{1}{2} + \\frac{1}{2}$?',
  itemDiscipline: 'Matematică',
  itemGrade: 5,
  difficulty: 'low',
  itemType: 'single',
  itemAnswers: ['$1$', '$2$'],
  itemCorrectAnswers: [0],
  ...over,
});
const refusal = (res: Awaited<ReturnType<ReturnType<typeof questionsKit>['call']>>) => ({
  status: res.statusCode,
  code: codeOf(res),
  details: detailsOf(res),
});

describe('formulas of a question', () => {
  it('are refused on the field when nested too deep or too long, and nothing is stored', async () => {
    const w = await kit.world();
    const h = w.examAdmin.headers;
    const deep = await kit.call('POST', w.items, h, question({ itemQ: `Fie ${nested(500)}.` }));
    expect(refusal(deep)).toEqual({
      status: 400,
      code: 'VALIDATION_FAILED',
      details: [{ code: 'formula_too_deep', path: ['itemQ'] }],
    });
    const long = `${Array.from({ length: 700 }, (_, i) => `$x_{${i}}$`).join(' ')}`;
    expect(long.length).toBeLessThan(20_000);
    expect(refusal(await kit.call('POST', w.items, h, question({ itemQ: long })))).toEqual({
      status: 400,
      code: 'VALIDATION_FAILED',
      details: [{ code: 'formula_too_long', path: ['itemQ'] }],
    });
    const option = await kit.call(
      'POST',
      w.items,
      h,
      question({ itemAnswers: ['$1$', nested(MAX_FORMULA_DEPTH + 1)] }),
    );
    expect(refusal(option).details).toEqual([
      { code: 'formula_too_deep', path: ['itemAnswers', 1] },
    ]);
    expect((await kit.call('GET', `${w.items}/count`, h)).json()).toEqual({ count: 0 });

    // At the limits, the question is taken; an edit past them is refused on the field.
    const ok = await kit.call(
      'POST',
      w.items,
      h,
      question({ itemQ: `Fie ${nested(MAX_FORMULA_DEPTH)}.` }),
    );
    expect(ok.statusCode).toBe(201);
    const id = (ok.json() as { _id: string })._id;
    const edit = await kit.call('PATCH', `${w.items}/${id}`, h, {
      itemQ: `$${'a+'.repeat(MAX_FORMULA_CHARS / 2 + 1)}b$`,
    });
    expect(refusal(edit).details).toEqual([{ code: 'formula_too_long', path: ['itemQ'] }]);
  });

  it('are refused row by row in a spreadsheet import', async () => {
    const w = await kit.world();
    const data = await xlsx(
      ['Enunț', 'Disciplină', 'Clasa', 'Dificultate'],
      [
        ['Cât face $1+1$?', 'Matematică', 5, 'ușor'],
        [`Fie ${nested(MAX_FORMULA_DEPTH + 5)}.`, 'Matematică', 5, 'ușor'],
      ],
    );
    const res = await kit.upload(`${w.items}/import`, w.examAdmin.headers, [
      { name: 'file', filename: 'intrebari.xlsx', type: XLSX_MIME, value: data },
    ]);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      createdCount: 1,
      refused: [{ row: 3, field: 'itemQ', code: 'formula_too_deep' }],
    });
  });
});
