import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Test } from '../../../shared/schemas/tests.js';
import { statementImage } from '../../../shared/statement.js';
import { files } from '../../db/schema.js';
import { createStorage } from '../../lib/files/storage.js';
import { uuidv7 } from '../../lib/ids.js';
import { buildTestApp, type TestApp } from '../../test/app.js';
import { codeOf, makePng, type Person, testBody, testsKit } from './tests.fixtures.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const hasChromium = existsSync(CHROMIUM);
const hasPoppler = existsSync('/usr/bin/pdftotext');
/** Set PODIUM_PAPER_OUT to a directory to keep the printed paper for a look. */
const keepDir = process.env.PODIUM_PAPER_OUT;

let t: TestApp;
let kit: ReturnType<typeof testsKit>;
let student: Person;

beforeAll(async () => {
  t = await buildTestApp();
  kit = testsKit(t);
  student = await kit.person({ type: 'student', grade: 5 });
});
afterAll(async () => {
  await t.close();
});

/** Stores a PNG as a question image would be stored; its file id. */
async function storeImage(): Promise<string> {
  const data = makePng();
  const id = uuidv7();
  await createStorage(t.config).put(`files/${id}`, data, 'image/png');
  await t.database.db.insert(files).values({
    id,
    storageKey: `files/${id}`,
    mime: 'image/png',
    size: data.length,
    sha256: createHash('sha256').update(data).digest('hex'),
    originalName: 'figura.png',
  });
  return id;
}

/** A phase with a grade-5 test of three questions: formulas, diacritics, two images. */
async function paperWorld() {
  const w = await kit.world();
  const [embedded, own] = [await storeImage(), await storeImage()];
  await kit.addQuestions(w.phase.id, 1, {
    grade: 5,
    difficulty: 'low',
    category: 'Algebră',
    itemQ:
      'Știind că $x^2 - 5x + 6 = 0$, aflați suma soluțiilor ecuației. Țineți cont că ' +
      'mulțimea soluțiilor este $\\{2, 3\\}$.\n\n' +
      `${statementImage(embedded, 'Figura 1')}`,
    itemAnswers: ['$4$', '$5$', '$\\frac{5}{2}$', 'Niciuna dintre variante'],
    itemCorrectAnswers: [1],
  });
  await kit.addQuestions(w.phase.id, 1, {
    grade: 5,
    difficulty: 'medium',
    category: 'Geometrie',
    itemType: 'numeric',
    itemQ: 'În triunghiul din figură, aria este $\\sqrt{16} \\cdot 3$ cm². Câți cm² are?',
    itemAnswers: [],
    itemCorrectAnswers: '12',
    imageFileId: own,
  });
  await kit.addQuestions(w.phase.id, 1, {
    grade: 5,
    difficulty: 'hard',
    category: 'Combinatorică',
    itemType: 'open',
    itemQ: 'Arătați că $$\\sum_{k=1}^{n} k = \\frac{n(n+1)}{2}$$ pentru orice număr natural $n$.',
    itemAnswers: [],
    itemCorrectAnswers: null,
  });
  const created = await kit.call(
    'POST',
    w.testsUrl,
    w.examAdmin.headers,
    testBody({ name: 'Subiectul pentru clasa a V-a', easyCount: 1, mediumCount: 1, hardCount: 1 }),
  );
  expect(created.statusCode).toBe(201);
  return { ...w, test: created.json() as Test };
}

describe.skipIf(!hasChromium)('POST …/tests/{testId}/download (Chromium)', () => {
  it('prints the paper to an A4 PDF with diacritics, formulas and images', async () => {
    const w = await paperWorld();
    const res = await kit.call('POST', `${w.testsUrl}/${w.test._id}/download`, w.staff.headers, {
      callbackUrl: 'http://podium.test/teacher',
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toBe('attachment; filename="test-5.pdf"');
    const pdf = res.rawPayload;
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');

    const dir = keepDir ?? (await mkdtemp(path.join(tmpdir(), 'podium-paper-')));
    const file = path.join(dir, 'test-paper.pdf');
    await writeFile(file, pdf);
    try {
      if (hasPoppler) {
        const text = execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
        for (const words of [
          'Olimpiada de Matematică „Gheorghe Țițeica”',
          'Ediția 2026–2027',
          'Etapa județeană',
          'Subiectul pentru clasa a V-a',
          'Clasa 5',
          'Matematică',
          'Întrebarea 1',
          'Întrebarea 3',
          'Știind că',
          'soluțiilor ecuației',
          'Niciuna dintre variante',
          'Arătați că',
          'Punctaj total: 100 de puncte',
          'Durata: 120 de minute',
        ]) {
          expect(text, words).toContain(words);
        }
        // The correct answer of the numeric question is not on the paper.
        expect(text).not.toMatch(/\b12\b/);
        // KaTeX fonts are embedded: the formulas are typeset, not left as TeX source.
        const fonts = execFileSync('pdffonts', [file], { encoding: 'utf8' });
        expect(fonts).toMatch(/KaTeX_Main/);
        expect(fonts).toMatch(/DejaVu/);
        expect(text).not.toContain('\\frac');
      }
    } finally {
      if (!keepDir) await rm(dir, { recursive: true, force: true });
    }
  });

  it('is for managers and staff only: other teachers get 403 (SPEC.md §2), a wrong test 404', async () => {
    const w = await paperWorld();
    const url = `${w.testsUrl}/${w.test._id}/download`;
    expect((await kit.call('POST', url, w.examAdmin.headers)).statusCode).toBe(200);
    for (const who of [w.coordinator, w.outsider]) {
      const res = await kit.call('POST', url, who.headers, {});
      expect(res.statusCode).toBe(403);
      expect(codeOf(res)).toBe('OPERATION_NOT_PERMITTED');
      const paper = await kit.call('GET', `${w.testsUrl}/${w.test._id}/paper`, who.headers);
      expect(paper.statusCode).toBe(403);
      const missing = await kit.call(
        'POST',
        `${w.testsUrl}/${crypto.randomUUID()}/download`,
        who.headers,
        {},
      );
      expect(missing.statusCode).toBe(404);
    }
    const asStudent = await kit.call('POST', url, student.headers, {});
    expect(asStudent.statusCode).toBe(403);
    expect(codeOf(asStudent)).toBe('OPERATION_NOT_PERMITTED');
    const bad = await kit.call('POST', url, w.staff.headers, { callbackUrl: 'x'.repeat(501) });
    expect(codeOf(bad)).toBe('VALIDATION_FAILED');
  });
});

describe('POST …/tests/{testId}/download with a figure gone from the storage', () => {
  it('refuses to print the paper without it: 409 PAPER_IMAGE_MISSING', async () => {
    const w = await paperWorld();
    const paper = await kit.call('GET', `${w.testsUrl}/${w.test._id}/paper`, w.staff.headers);
    const shown = JSON.stringify(paper.json()).match(
      /[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}/g,
    );
    const row = (await t.database.db.select().from(files)).find((f) => shown?.includes(f.id));
    expect(row).toBeDefined();
    await createStorage(t.config).delete(row?.storageKey ?? '');
    const res = await kit.call('POST', `${w.testsUrl}/${w.test._id}/download`, w.staff.headers, {
      callbackUrl: 'http://podium.test/test-download',
    });
    expect(res.statusCode).toBe(409);
    expect(codeOf(res)).toBe('PAPER_IMAGE_MISSING');
  });
});

describe('POST …/tests/{testId}/download without Chromium', () => {
  it('answers 503 PDF_UNAVAILABLE, and the paper data still works', async () => {
    const noBrowser = await buildTestApp({
      env: { CHROMIUM_PATH: path.join(tmpdir(), 'no-such-chromium') },
    });
    try {
      const local = testsKit(noBrowser);
      const world = await local.world();
      await local.addQuestions(world.phase.id, 1, { grade: 5, difficulty: 'low' });
      const created = await local.call(
        'POST',
        world.testsUrl,
        world.examAdmin.headers,
        testBody({ easyCount: 1, mediumCount: 0, hardCount: 0 }),
      );
      const testId = (created.json() as Test)._id;
      const res = await local.call(
        'POST',
        `${world.testsUrl}/${testId}/download`,
        world.staff.headers,
      );
      expect(res.statusCode).toBe(503);
      expect(codeOf(res)).toBe('PDF_UNAVAILABLE');
      const paper = await local.call(
        'GET',
        `${world.testsUrl}/${testId}/paper`,
        world.staff.headers,
      );
      expect(paper.statusCode).toBe(200);
    } finally {
      await noBrowser.close();
    }
  });
});
