import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Test, TestPreview } from '../../../shared/schemas/tests.js';
import { buildTestApp, type TestApp } from '../../test/app.js';
import type { PdfPrinter } from './pdf.js';
import { codeOf, detailsOf, testBody, testsKit } from './tests.fixtures.js';

// POST …/tests/{testId}/download prints through Chromium. Many staff pressing download must not
// mean many prints: a paper is printed once and sent again until what it shows changes, and
// only a few papers print or wait at once, the rest being told to come back shortly. The
// printer here stands in for Chromium and counts what it is asked to print.

/** The HTML of every print the server asked for, in order. */
const printed: string[] = [];
/** While set, every print waits for it (a Chromium that takes its time). */
let held: Promise<void> | undefined;
const countingPrinter: PdfPrinter = {
  async print(html) {
    printed.push(html);
    await held;
    return Buffer.from(`%PDF-1.4 print ${printed.length}`);
  },
  async close() {},
};

let t: TestApp;
let kit: ReturnType<typeof testsKit>;

beforeAll(async () => {
  t = await buildTestApp({
    printer: countingPrinter,
    env: { PAPER_PRINTS_AT_ONCE: '1', PAPER_PRINTS_WAITING: '1' },
  });
  kit = testsKit(t);
});
afterAll(async () => {
  await t.close();
});

let worlds = 0;
/**
 * A phase with one test for each of `grades` (two easy, one medium and one hard question).
 * Each world's tests are named apart: the same competition, questions and name would be the
 * same paper, which is printed once whichever world asks for it.
 */
async function paperWorld(grades: number[]) {
  const w = await kit.world();
  worlds += 1;
  const tests: Test[] = [];
  for (const grade of grades) {
    await kit.addQuestions(w.phase.id, 2, { grade, difficulty: 'low' });
    await kit.addQuestions(w.phase.id, 1, { grade, difficulty: 'medium' });
    await kit.addQuestions(w.phase.id, 1, { grade, difficulty: 'hard' });
    const created = await kit.call(
      'POST',
      w.testsUrl,
      w.examAdmin.headers,
      testBody({ name: `Subiect ${worlds}, clasa ${grade}`, grades: [grade] }),
    );
    expect(created.statusCode, created.body).toBe(201);
    tests.push(created.json() as Test);
  }
  const download = (test: Test) =>
    kit.call('POST', `${w.testsUrl}/${test._id}/download`, w.staff.headers, {});
  return { ...w, tests, download };
}

describe('downloads of one paper', () => {
  it('print it once, and again only when the test or its questions change', async () => {
    const w = await paperWorld([5, 6]);
    const [five, six] = w.tests;
    if (!five || !six) throw new Error('two tests expected');
    const before = printed.length;

    const first = await w.download(five);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.headers['content-type']).toBe('application/pdf');
    const again = await w.download(five);
    expect(again.statusCode).toBe(200);
    expect(again.rawPayload.equals(first.rawPayload)).toBe(true);
    // Staff pressing download together share the one print.
    const together = await Promise.all([w.download(five), w.download(five), w.download(five)]);
    expect(together.map((r) => r.statusCode)).toEqual([200, 200, 200]);
    expect(printed.length - before).toBe(1);

    // Another test is another paper.
    expect((await w.download(six)).statusCode).toBe(200);
    expect(printed.length - before).toBe(2);

    // A question of the test is edited: its paper is printed anew, with the new statement.
    const preview = (
      await kit.call('GET', `${w.testsUrl}/${five._id}`, w.staff.headers)
    ).json() as TestPreview;
    const firstItem = preview.items[0];
    if (!firstItem) throw new Error('the test has items');
    const edited = await t.app.inject({
      method: 'PATCH',
      url: `/api/v1/resource-mgmt/exams/${w.exam.id}/editions/${w.edition.id}/phases/${w.phase.id}/items/${firstItem.itemId}`,
      headers: w.examAdmin.headers,
      payload: { itemQ: 'Enunț schimbat: cât face $2+2$?' },
    });
    expect(edited.statusCode, edited.body).toBe(200);
    const afterEdit = await w.download(five);
    expect(afterEdit.statusCode).toBe(200);
    expect(afterEdit.rawPayload.equals(first.rawPayload)).toBe(false);
    expect(printed.length - before).toBe(3);
    expect(printed.at(-1)).toContain('Enunț schimbat');

    // The items' points change: printed anew; then the same paper is sent again unprinted.
    const points = await kit.call('PUT', `${w.testsUrl}/${five._id}/items`, w.examAdmin.headers, {
      assignedItems: preview.items.map((item, i) => ({
        itemId: item.itemId,
        score: i === 0 ? 40 : 20,
      })),
    });
    expect(points.statusCode, points.body).toBe(200);
    expect((await w.download(five)).statusCode).toBe(200);
    expect(printed.length - before).toBe(4);
    expect(printed.at(-1)).toContain('40 de puncte');
    expect((await w.download(five)).statusCode).toBe(200);
    expect((await w.download(six)).statusCode).toBe(200);
    expect(printed.length - before).toBe(4);
  });
});

describe('many papers at once', () => {
  it('print one at a time with one waiting, and refuse the next with a retryable PDF_BUSY', async () => {
    const w = await paperWorld([5, 6, 7]);
    const [five, six, seven] = w.tests;
    if (!five || !six || !seven) throw new Error('three tests expected');
    const before = printed.length;
    let release = () => {};
    held = new Promise<void>((resolve) => {
      release = resolve;
    });
    try {
      const printing = w.download(five);
      await vi.waitFor(() => expect(printed.length - before).toBe(1), { timeout: 60_000 });
      // The same paper again joins the print under way: neither refused nor printed twice.
      const sameAgain = w.download(five);
      // Two other papers: one takes the place in the queue, the other is told to come back.
      const others = [w.download(six), w.download(seven)];
      const refused = await Promise.race(others);
      expect(refused.statusCode, refused.body).toBe(503);
      expect(codeOf(refused)).toBe('PDF_BUSY');
      expect(detailsOf(refused)).toEqual({ retryAfter: 10 });
      expect(refused.headers['retry-after']).toBe('10');

      release();
      const done = await Promise.all([printing, sameAgain, ...others]);
      expect(done.map((r) => r.statusCode).sort()).toEqual([200, 200, 200, 503]);
      expect(printed.length - before).toBe(2);
    } finally {
      held = undefined;
      release();
    }
    // Once the queue is free, the refused paper prints.
    for (const test of [five, six, seven]) expect((await w.download(test)).statusCode).toBe(200);
    expect(printed.length - before).toBe(3);
  });
});
