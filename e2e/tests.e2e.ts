import { execFileSync } from 'node:child_process';
import { mkdtemp, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { and, asc, eq } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeEdition, makeExam, makePhase } from '../server/db/factories.js';
import {
  answers,
  attempts,
  questions,
  testItems,
  testResults,
  tests,
} from '../server/db/schema.js';
import { uuidv7 } from '../server/lib/ids.js';
import { scoreEndedAttempts } from '../server/modules/results/index.js';
import { hasChromium, openBrowser, type Podium, shot, startPodium } from './harness.js';
import { type Lang, openPage, PASSWORD, signInOn } from './session.js';

const EXAM = 'Olimpiada de Matematică';
const EDITION = 'Ediția 2026';
const PHASE = 'Etapa pe școală';
const DAY = 86_400_000;
const SCREENSHOTS = path.resolve('e2e/screenshots');

/**
 * The bank: one row a question, as organisers fill the import template. Grades 5–6 have
 * three easy, three medium and two hard questions, each with a formula; grade 7 one of each.
 */
const SHEET_ROWS = [
  ['Calculați $\\frac{3}{4} + \\frac{1}{4}$.', 'Algebră', 5, 'ușor', 'unic', '1|2|3/4|1/2', 'A'],
  ['Cât este $2^{5}$?', 'Algebră', 5, 'ușor', 'numeric', '', '32'],
  [
    'Un pătrat are latura de $4\\,\\text{cm}$. Care este aria lui?',
    'Geometrie',
    6,
    'ușor',
    'unic',
    '$8\\,\\text{cm}^2$|$16\\,\\text{cm}^2$|$12\\,\\text{cm}^2$',
    'B',
  ],
  ['Rezolvați ecuația $3x - 7 = 11$.', 'Algebră', 6, 'mediu', 'numeric', '', '6'],
  [
    'Care dintre numerele mulțimii $\\{2, 9, 11, 15\\}$ sunt prime?',
    'Algebră',
    5,
    'mediu',
    'multiplu',
    '2|9|11|15',
    'A, C',
  ],
  [
    'În triunghiul $ABC$, $\\angle A = 50^\\circ$ și $\\angle B = 60^\\circ$. Aflați $\\angle C$ (în grade).',
    'Geometrie',
    6,
    'mediu',
    'numeric',
    '',
    '70',
  ],
  [
    'Arătați că numărul $n = 5^{2026} + 3$ este divizibil cu $4$.',
    'Algebră',
    6,
    'dificil',
    'deschis',
    '',
    '',
  ],
  [
    'Fie $\\sqrt{x} = 3$. Aflați media geometrică a numerelor $x$ și $4$ și justificați.',
    'Algebră',
    5,
    'dificil',
    'deschis',
    '',
    '',
  ],
  ['Calculați $(a+b)^2$ pentru $a = 2$ și $b = 3$.', 'Algebră', 7, 'ușor', 'numeric', '', '25'],
  [
    'Aflați lungimea unui cerc de rază $r = 5$.',
    'Geometrie',
    7,
    'mediu',
    'unic',
    '$5\\pi$|$10\\pi$|$25\\pi$',
    'B',
  ],
  ['Demonstrați că $\\sqrt{2}$ este irațional.', 'Algebră', 7, 'dificil', 'deschis', '', ''],
];

async function questionSheet(): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('Întrebări');
  sheet.addRow([
    'Enunț',
    'Categorie',
    'Disciplină',
    'Clasa',
    'Dificultate',
    'Tip',
    'Variante',
    'Răspuns corect',
  ]);
  for (const [itemQ, category, grade, difficulty, type, answers, correct] of SHEET_ROWS) {
    sheet.addRow([itemQ, category, 'Matematică', grade, difficulty, type, answers, correct]);
  }
  return Buffer.from(await book.xlsx.writeBuffer());
}

/** Renders a PDF's pages to PNG (pdftoppm, 60 dpi) next to the screenshots; their paths. */
async function pdfToPngs(pdf: Buffer, name: string): Promise<string[]> {
  const dir = await mkdtemp(path.join(tmpdir(), 'podium-pdf-'));
  try {
    const file = path.join(dir, `${name}.pdf`);
    await writeFile(file, pdf);
    execFileSync('pdftoppm', ['-png', '-r', '60', file, path.join(dir, name)]);
    const pngs = (await readdir(dir)).filter((f) => f.endsWith('.png')).sort();
    const out: string[] = [];
    for (const png of pngs) {
      const target = path.join(SCREENSHOTS, png);
      await rename(path.join(dir, png), target);
      out.push(target);
    }
    return out;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Polls until the expectation holds: the app fetches and animates, the machine is shared. */
const eventually = <T>(fn: () => T | Promise<T>) =>
  expect.poll(fn, { timeout: 15_000, interval: 100 });

// Question bank → tests: import, generate for two grades, refusals on the form, preview,
// PDF, print view, publish, delete; the commission sees the papers without the answers.
describe.skipIf(!hasChromium)('tests of a phase in the browser', () => {
  let podium: Podium;
  let browser: Browser;
  let studentId = '';
  const ids = { examId: '', editionId: '', phaseId: '' };
  const phaseUrl = () => `/examene/${ids.examId}/editii/${ids.editionId}/phases/${ids.phaseId}`;

  beforeAll(async () => {
    podium = await startPodium();
    browser = await openBrowser();
    await podium.createUser({
      email: 'admin@example.ro',
      password: PASSWORD,
      type: 'admin',
      givenName: 'Ioana',
      familyName: 'Dinu',
    });
    const staff = await podium.createUser({
      email: 'mihai.pop@example.ro',
      password: PASSWORD,
      type: 'teacher',
      givenName: 'Mihai',
      familyName: 'Pop',
      county: 'Cluj',
      teacherCode: 'MIHAI-POP',
    });
    await podium.createUser({
      email: 'dana.rus@example.ro',
      password: PASSWORD,
      type: 'teacher',
      givenName: 'Dana',
      familyName: 'Rus',
      county: 'Cluj',
      teacherCode: 'DANA-RUS',
    });
    studentId = (
      await podium.createUser({
        email: 'elev@example.ro',
        password: PASSWORD,
        type: 'student',
        givenName: 'Maria',
        familyName: 'Ionescu',
        grade: 7,
      })
    ).id;
    // The competition screens are another journey's (exams.e2e.ts): start from a phase.
    const exam = await makeExam(podium.db, {
      name: EXAM,
      grades: [5, 6, 7, 8],
      staffTeacherIds: [staff.id],
    });
    const edition = await makeEdition(podium.db, { examId: exam.id, name: EDITION });
    const phase = await makePhase(podium.db, {
      editionId: edition.id,
      name: PHASE,
      startDate: new Date(Date.now() - DAY),
      endDate: new Date(Date.now() + 30 * DAY),
    });
    Object.assign(ids, { examId: exam.id, editionId: edition.id, phaseId: phase.id });
  });
  afterAll(async () => {
    await browser?.close();
    await podium?.close();
  });

  const open = (lang: Lang) =>
    openPage(browser, lang, { acceptDownloads: true, keepPickedLanguage: true });

  const signIn = async (email: string, lang: Lang = 'ro') =>
    signInOn(await open(lang), podium.baseUrl, email, { lang });

  /** A snackbar with this text is shown (hidden from the accessibility tree behind a dialog). */
  const toast = (page: Page, text: string) =>
    eventually(() =>
      page.getByRole('alert', { includeHidden: true }).filter({ hasText: text }).count(),
    ).toBeGreaterThan(0);

  /** Fills the create dialog; grades are picked in the multi-select, then it is closed. */
  const fillTest = async (
    page: Page,
    values: { name: string; grades: string[]; easy: string; medium: string; hard: string },
  ) => {
    const dialog = page.getByRole('dialog', { name: 'Generează test' });
    await dialog.getByLabel('Numele testului').fill(values.name);
    await dialog.getByRole('combobox', { name: /^Clase/ }).click();
    const listbox = page.getByRole('listbox');
    // Unpick what a previous attempt chose, then pick these.
    for (const option of await listbox.getByRole('option', { selected: true }).all()) {
      await option.click();
    }
    for (const grade of values.grades) {
      await listbox.getByRole('option', { name: new RegExp(`^${grade}`) }).click();
    }
    await page.keyboard.press('Escape');
    await eventually(() => listbox.count()).toBe(0);
    await dialog.getByLabel('Ușoare').fill(values.easy);
    await dialog.getByLabel('Medii').fill(values.medium);
    await dialog.getByLabel('Dificile').fill(values.hard);
    return dialog;
  };

  /** The rows of the tests table, as their first cell reads ("Clasa 5, 6" + name). */
  const testRows = (page: Page) =>
    page.getByRole('table', { name: 'Testele etapei' }).getByRole('row');

  it('imports the question bank from a spreadsheet and an image', async () => {
    const page = await signIn('admin@example.ro');
    await page.goto(`${podium.baseUrl}${phaseUrl()}`);
    await page.getByRole('link', { name: 'Întrebări', exact: true }).click();
    await page.getByRole('button', { name: 'Importă' }).click();
    const dialog = page.getByRole('dialog', { name: 'Importă întrebări' });
    await dialog.getByLabel('Alege foaia de calcul').setInputFiles({
      name: 'intrebari.xlsx',
      mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      buffer: await questionSheet(),
    });
    await dialog.getByRole('button', { name: 'Importă' }).click();
    await eventually(() => dialog.getByText('Au fost adăugate 11 întrebări.').count()).toBe(1);

    // A figure drawn by hand, scanned: one open question of grade 7 from the picture.
    const drawing = await page.context().newPage();
    await drawing.setViewportSize({ width: 320, height: 200 });
    await drawing.setContent(`<svg xmlns="http://www.w3.org/2000/svg" width="320" height="200">
      <rect width="320" height="200" fill="#fff"/>
      <polygon points="40,170 280,170 160,30" fill="none" stroke="#000" stroke-width="3"/>
      <text x="28" y="192" font-size="20">A</text><text x="282" y="192" font-size="20">B</text>
      <text x="154" y="24" font-size="20">C</text></svg>`);
    const png = await drawing.screenshot();
    await drawing.close();
    await dialog.getByRole('tab', { name: 'Imagini' }).click();
    await dialog.getByRole('combobox', { name: /^Clasa/ }).click();
    await page.getByRole('option', { name: 'Clasa 7', exact: true }).click();
    await dialog.getByRole('combobox', { name: /^Dificultate/ }).click();
    await page.getByRole('option', { name: 'Ușor', exact: true }).click();
    await dialog
      .getByLabel('Alege imaginile')
      .setInputFiles({ name: 'triunghi.png', mimeType: 'image/png', buffer: png });
    await dialog.getByRole('button', { name: 'Importă' }).click();
    await eventually(() => dialog.getByText('A fost adăugată 1 întrebare.').count()).toBe(1);
    await dialog.getByRole('button', { name: 'Închide' }).click();
    await page.context().close();
  });

  it('generates tests for two grades, with the refusals on the form', async () => {
    const page = await signIn('admin@example.ro');
    await page.goto(`${podium.baseUrl}${phaseUrl()}`);
    await page.getByRole('link', { name: 'Teste', exact: true }).click();
    await eventually(() => page.getByRole('heading', { name: 'Teste', level: 1 }).count()).toBe(1);
    await eventually(() =>
      page.getByText('Etapa nu are încă teste.', { exact: false }).count(),
    ).toBe(1);

    await page.getByRole('button', { name: 'Generează test' }).click();
    let dialog = await fillTest(page, {
      name: 'Subiect clasele a V-a și a VI-a',
      grades: ['Clasa 5', 'Clasa 6'],
      easy: '2',
      medium: '2',
      hard: '1',
    });
    expect(
      await dialog.getByText(/Fiecare dificultate se împarte egal între categoriile/).count(),
    ).toBe(1);
    await dialog.getByRole('button', { name: 'Generează', exact: true }).click();
    await toast(page, 'Testul a fost creat');
    await eventually(() => testRows(page).filter({ hasText: 'Clasa 5, 6' }).count()).toBe(1);

    await page.getByRole('button', { name: 'Generează test' }).click();
    dialog = await fillTest(page, {
      name: 'Subiect clasa a VII-a',
      grades: ['Clasa 7'],
      easy: '2',
      medium: '1',
      hard: '1',
    });
    await dialog.getByRole('button', { name: 'Generează', exact: true }).click();
    await toast(page, 'Testul a fost creat');
    await eventually(() => testRows(page).filter({ hasText: 'Clasa 7' }).count()).toBe(1);

    // Grade 6 already has a test: the server's refusal lands on the grades field.
    await page.getByRole('button', { name: 'Generează test' }).click();
    dialog = await fillTest(page, {
      name: 'Al doilea subiect',
      grades: ['Clasa 6'],
      easy: '1',
      medium: '0',
      hard: '0',
    });
    await dialog.getByRole('button', { name: 'Generează', exact: true }).click();
    const gradesField = dialog.getByRole('combobox', { name: /^Clase/ });
    await eventually(() =>
      dialog.getByText('Există deja un test pentru această clasă').count(),
    ).toBe(1);
    expect(await gradesField.getAttribute('aria-invalid')).toBe('true');
    await shot(page, 'tests-create-error-ro');

    // Grade 8 has no questions: the dialog says what the bank lacks.
    await fillTest(page, {
      name: 'Al doilea subiect',
      grades: ['Clasa 8'],
      easy: '1',
      medium: '0',
      hard: '0',
    });
    await dialog.getByRole('button', { name: 'Generează', exact: true }).click();
    await eventually(() => dialog.getByText('Ușor: 0 disponibile, 1 cerute').count()).toBe(1);
    await dialog.getByRole('button', { name: 'Anulează' }).click();

    // Once the dialog has gone (the page behind a dialog is hidden from the role tree).
    await eventually(async () =>
      (await testRows(page).allInnerTexts()).map((r) => r.split(/[\t\n]/)[0]),
    ).toEqual(['Test', 'Clasa 5, 6', 'Clasa 7']);
    const five = await testRows(page).filter({ hasText: 'Clasa 5, 6' }).innerText();
    for (const part of [
      'Subiect clasele a V-a și a VI-a',
      'Matematică',
      '120 de minute',
      '100 de puncte',
      '5 întrebări',
      'ușoare: 2 · medii: 2 · dificile: 1',
      // As drawn: each difficulty shared over the categories, the hard one only algebra has.
      'Algebră: 3 · Geometrie: 2',
      'Nepublicat',
    ]) {
      expect(five).toContain(part);
    }
    await shot(page, 'tests-list-ro');
    await page.context().close();
  });

  it("lets a manager set each question's points, refusing a sum that is not the total", async () => {
    // A student has sat the grade 5–6 test and answered its first question right.
    const [five] = await podium.db
      .select({ id: tests.id })
      .from(tests)
      .where(eq(tests.name, 'Subiect clasele a V-a și a VI-a'));
    if (!five) throw new Error('no grade 5-6 test');
    const items = await podium.db
      .select({
        questionId: testItems.questionId,
        position: testItems.position,
        itemType: questions.itemType,
        itemCorrectAnswers: questions.itemCorrectAnswers,
      })
      .from(testItems)
      .innerJoin(questions, eq(questions.id, testItems.questionId))
      .where(eq(testItems.testId, five.id))
      .orderBy(asc(testItems.position));
    const first = items[0];
    if (!first || first.itemType === 'open') throw new Error('first question not auto-scored');
    const pupil = await podium.createUser({
      email: 'ana.pop@example.ro',
      password: PASSWORD,
      type: 'student',
      givenName: 'Ana',
      familyName: 'Pop',
      grade: 5,
    });
    const attemptId = uuidv7();
    const now = Date.now();
    await podium.db.insert(attempts).values({
      id: attemptId,
      testId: five.id,
      studentId: pupil.id,
      state: 'finished',
      startedAt: new Date(now - 3_600_000),
      deadlineAt: new Date(now - 60_000),
      itemOrder: items.map((i) => i.questionId),
      finishedAt: new Date(now - 120_000),
      finishedBy: 'student',
    });
    await podium.db.insert(answers).values({
      id: uuidv7(),
      testId: five.id,
      studentId: pupil.id,
      questionId: first.questionId,
      attemptId,
      // A typed number is text, as the player sends it.
      submittedAnswer:
        first.itemType === 'numeric' ? String(first.itemCorrectAnswers) : first.itemCorrectAnswers,
      seq: 1,
    });
    await podium.db.transaction((tx) =>
      scoreEndedAttempts(
        tx,
        [{ attemptId, testId: five.id, studentId: pupil.id }],
        new Date(now - 120_000),
      ),
    );
    const pointsOf = async () => {
      const [row] = await podium.db
        .select({ points: testResults.points })
        .from(testResults)
        .where(and(eq(testResults.testId, five.id), eq(testResults.studentId, pupil.id)));
      return Number(row?.points);
    };
    // Five questions share 100 equally.
    expect(await pointsOf()).toBe(20);

    const page = await signIn('admin@example.ro');
    await page.goto(`${podium.baseUrl}${phaseUrl()}/tests`);
    // The create form shares the total equally unless told to weigh by difficulty.
    await page.getByRole('button', { name: 'Generează test' }).click();
    const create = page.getByRole('dialog', { name: 'Generează test' });
    const weigh = create.getByRole('switch', { name: 'Punctaj după dificultate' });
    expect(await weigh.isChecked()).toBe(false);
    await eventually(() =>
      create.getByText('Totalul se împarte egal între întrebări', { exact: false }).count(),
    ).toBe(1);
    await weigh.check();
    await eventually(() =>
      create.getByText('în raportul 1 : 2 : 3', { exact: false }).count(),
    ).toBe(1);
    await shot(page, 'tests-create-weight-ro', { fullPage: false });
    await create.getByRole('button', { name: 'Anulează' }).click();

    await page.getByRole('button', { name: 'Punctajul întrebărilor: Clasa 5, 6' }).click();
    const dialog = page.getByRole('dialog', { name: /Punctajul întrebărilor: Clasa 5, 6/ });
    const box = (n: number) => dialog.getByLabel(`Punctajul întrebării ${n}`, { exact: true });
    const save = dialog.getByRole('button', { name: 'Salvează punctajele' });
    await eventually(() => box(5).inputValue()).toBe('20');
    expect(await dialog.getByTestId('points-sum').innerText()).toBe('100 din 100');

    // 5.5 points too many: said under the table, and nothing can be saved.
    await box(1).fill('25,5');
    await eventually(() => dialog.getByTestId('points-sum').innerText()).toBe('105,5 din 100');
    expect(await dialog.getByTestId('points-hint').innerText()).toBe(
      'Sunt 5,5 puncte în plus; salvarea devine posibilă când totalul este exact.',
    );
    expect(await save.isDisabled()).toBe(true);
    await box(2).fill('abc');
    await eventually(() => dialog.getByText('Introduceți un număr').count()).toBe(1);
    expect(await dialog.getByTestId('points-hint').innerText()).toBe(
      'Corectați punctajele marcate înainte de salvare.',
    );
    await box(2).fill('14');
    await eventually(() => dialog.getByTestId('points-hint').innerText()).toBe(
      'Mai sunt de împărțit 0,5 puncte; salvarea devine posibilă când totalul este exact.',
    );
    await shot(page, 'tests-points-ro', { fullPage: false });
    await box(2).fill('14,5');
    await eventually(() => dialog.getByTestId('points-sum').innerText()).toBe('100 din 100');
    expect(await save.isEnabled()).toBe(true);

    // The server's refusals in words (the API tests provoke them for real).
    for (const [status, code, details, message] of [
      [
        409,
        'ITEM_ALREADY_MARKED',
        undefined,
        'Răspunsurile unei întrebări au fost deja corectate: punctajul ei nu se mai poate schimba.',
      ],
      [
        400,
        'VALIDATION_FAILED',
        [{ code: 'score_sum', path: ['assignedItems'] }],
        'Punctajele întrebărilor trebuie să dea împreună punctajul total al testului',
      ],
      [409, 'PHASE_CLOSED', undefined, 'Etapa este închisă și nu mai poate fi modificată.'],
    ] as const) {
      await page.route('**/items', (route) =>
        route.fulfill({
          status,
          json: { error: { statusCode: status, code, message: code, details } },
        }),
      );
      await save.click();
      await eventually(() => dialog.getByRole('alert').innerText()).toBe(message);
      await page.unroute('**/items');
    }
    expect(await pointsOf()).toBe(20);

    await save.click();
    await toast(page, 'Punctajele au fost salvate; punctajul unui elev a fost recalculat.');
    await dialog.waitFor({ state: 'hidden' });
    expect(await pointsOf()).toBe(25.5);
    await page.getByRole('button', { name: 'Punctajul întrebărilor: Clasa 5, 6' }).click();
    await eventually(() => box(1).inputValue()).toBe('25,5');
    expect(await box(2).inputValue()).toBe('14,5');
    await dialog.getByRole('button', { name: 'Anulează' }).click();
    await page.context().close();

    const en = await signIn('admin@example.ro', 'en');
    await en.goto(`${podium.baseUrl}${phaseUrl()}/tests`);
    await en.getByRole('button', { name: 'Points per question: Grade 5, 6' }).click();
    const enDialog = en.getByRole('dialog', { name: /Points per question: Grade 5, 6/ });
    const enBox = (n: number) => enDialog.getByLabel(`Points of question ${n}`, { exact: true });
    await eventually(() => enBox(1).inputValue()).toBe('25.5');
    await enBox(3).fill('19.75');
    await eventually(() => enDialog.getByTestId('points-hint').innerText()).toBe(
      '0.25 points still to share; saving is possible once the total is exact.',
    );
    expect(await enDialog.getByTestId('points-sum').innerText()).toBe('99.75 of 100');
    expect(await enDialog.getByRole('button', { name: 'Save the points' }).isDisabled()).toBe(true);
    await shot(en, 'tests-points-en', { fullPage: false });
    await en.context().close();
  });

  it('previews a test with its formulas and correct answers, and downloads its PDF', async () => {
    const page = await signIn('admin@example.ro');
    await page.goto(`${podium.baseUrl}${phaseUrl()}/tests`);
    await page.getByRole('button', { name: 'Previzualizează Clasa 5, 6' }).click();
    const dialog = page.getByRole('dialog', { name: /Previzualizare: Clasa 5, 6/ });
    await eventually(() => dialog.getByRole('region', { name: /^Întrebarea/ }).count()).toBe(5);
    // The statement renderer arrives a moment after the text: wait for the formulas.
    await eventually(() => dialog.locator('.katex').count()).toBeGreaterThan(0);
    // Managers see what is correct: marked options or the expected value.
    await eventually(
      async () =>
        (await dialog.getByRole('img', { name: 'Răspuns corect' }).count()) +
        (await dialog.getByText(/^Răspunsul corect/).count()),
    ).toBeGreaterThan(0);
    await dialog.getByRole('button', { name: 'Închide' }).click();

    // The figure imported as a question shows once, fetched with the user's credentials.
    await page.getByRole('button', { name: 'Previzualizează Clasa 7' }).click();
    const seven = page.getByRole('dialog', { name: /Previzualizare: Clasa 7/ });
    await eventually(() => seven.getByRole('region', { name: /^Întrebarea/ }).count()).toBe(4);
    const figure = seven.locator('img.statement-image');
    await eventually(() =>
      figure.evaluateAll((imgs) => imgs.map((i) => (i as HTMLImageElement).naturalWidth > 0)),
    ).toEqual([true]);
    await shot(page, 'tests-preview-image-ro');
    await seven.getByRole('button', { name: 'Închide' }).click();

    // The client's words for the server's refusals (the API tests provoke them for real):
    // 403 and a print service that is down.
    for (const [status, code, message] of [
      [403, 'OPERATION_NOT_PERMITTED', 'Nu aveți dreptul să descărcați acest test'],
      [503, 'PDF_UNAVAILABLE', 'Generarea PDF nu este disponibilă acum.'],
    ] as const) {
      await page.route('**/download', (route) =>
        route.fulfill({ status, json: { error: { statusCode: status, code, message: code } } }),
      );
      await page.getByRole('button', { name: 'Descarcă PDF: Clasa 5, 6' }).click();
      await toast(page, message);
      await page.unroute('**/download');
    }

    for (const [title, name] of [
      ['Clasa 5, 6', 'test-5-6'],
      ['Clasa 7', 'test-7'],
    ] as const) {
      const download = page.waitForEvent('download');
      await page.getByRole('button', { name: `Descarcă PDF: ${title}` }).click();
      const file = await download;
      expect(file.suggestedFilename()).toBe(`${name}.pdf`);
      const pdf = await readFile((await file.path()) as string);
      expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
      const pngs = await pdfToPngs(pdf, `tests-pdf-${name}`);
      expect(pngs.length).toBeGreaterThan(0);
    }
    await page.context().close();
  });

  it('opens the print view, publishes the tests and deletes one not yet started', async () => {
    const page = await signIn('admin@example.ro');
    await page.goto(`${podium.baseUrl}${phaseUrl()}/tests`);

    const popup = page.waitForEvent('popup');
    await page.getByRole('link', { name: 'Versiune de tipărit: Clasa 5, 6' }).click();
    const paper = await popup;
    const sheet = paper.getByRole('article', { name: 'Subiectul testului' });
    await eventually(() => sheet.getByRole('heading', { name: EXAM, level: 1 }).count()).toBe(1);
    const text = await sheet.innerText();
    for (const part of [
      EDITION,
      PHASE,
      'Clasa 5, 6',
      'Matematică',
      'Întrebarea 5',
      '120 de minute',
    ]) {
      expect(text).toContain(part);
    }
    // The formulas' renderer is fetched with the first statement, a moment after the text.
    await eventually(() => sheet.locator('.katex').count()).toBeGreaterThan(0);
    const print = paper.getByRole('button', { name: 'Tipărește' });
    expect(await print.isVisible()).toBe(true);
    await shot(paper, 'tests-print-ro');
    await paper.emulateMedia({ media: 'print' });
    expect(await print.isVisible()).toBe(false);
    await paper.close();

    await page.getByRole('button', { name: 'Publică toate' }).click();
    await page
      .getByRole('dialog', { name: 'Publicați testele?' })
      .getByRole('button', { name: 'Publică toate' })
      .click();
    await toast(page, 'Testele au fost publicate');
    await eventually(() =>
      page
        .getByRole('table', { name: 'Testele etapei' })
        .getByText('Publicat', { exact: true })
        .count(),
    ).toBe(2);
    await eventually(() => page.getByText('Toate publicate').count()).toBe(1);

    // A student has started the grade 7 test: it can no longer be deleted.
    const [seven] = await podium.db
      .select({ id: tests.id })
      .from(tests)
      .where(eq(tests.name, 'Subiect clasa a VII-a'));
    if (!seven) throw new Error('no grade 7 test');
    const now = new Date();
    await podium.db.insert(attempts).values({
      id: crypto.randomUUID(),
      testId: seven.id,
      studentId,
      startedAt: now,
      deadlineAt: new Date(now.getTime() + 3_600_000),
      itemOrder: [],
    });
    await page.getByRole('button', { name: 'Șterge Clasa 7' }).click();
    const confirm = page.getByRole('dialog', { name: 'Ștergeți testul?' });
    await confirm.getByRole('button', { name: 'Șterge testul' }).click();
    await eventually(() =>
      confirm.getByText(/Testul nu a putut fi șters\. Testul a fost deja început/).count(),
    ).toBe(1);
    await toast(page, 'Testul nu a putut fi șters');
    await confirm.getByRole('button', { name: 'Închide' }).click();

    // Once nobody has started it, it goes.
    await podium.db.delete(attempts).where(eq(attempts.testId, seven.id));
    await page.getByRole('button', { name: 'Șterge Clasa 7' }).click();
    await confirm.getByRole('button', { name: 'Șterge testul' }).click();
    await toast(page, 'Testul a fost șters');
    await eventually(() => testRows(page).filter({ hasText: 'Clasa 7' }).count()).toBe(0);
    await page.context().close();
  });

  it('shows the commission the papers without the correct answers, in English', async () => {
    const page = await signIn('mihai.pop@example.ro', 'en');
    const calls: string[] = [];
    page.on('request', (r) => calls.push(new URL(r.url()).pathname));
    await page.goto(`${podium.baseUrl}${phaseUrl()}`);
    await page.getByRole('link', { name: 'Tests', exact: true }).click();
    await eventually(() =>
      page.getByRole('table', { name: 'Tests of the phase' }).getByRole('row').count(),
    ).toBe(2);
    expect(await page.getByRole('button', { name: 'Generate test' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: /^Delete/ }).count()).toBe(0);
    const five = await page.getByRole('row').filter({ hasText: 'Grade 5, 6' }).innerText();
    expect(five).toContain('easy: 2 · medium: 2 · hard: 1');
    expect(five).toContain('Algebră: 3 · Geometrie: 2');
    await shot(page, 'tests-list-en');

    await page.getByRole('button', { name: 'Preview Grade 5, 6' }).click();
    const dialog = page.getByRole('dialog', { name: /Preview: Grade 5, 6/ });
    await eventually(() => dialog.getByRole('region', { name: /^Question/ }).count()).toBe(5);
    // The statement renderer arrives a moment after the text: wait for the formulas.
    await eventually(() => dialog.locator('.katex').count()).toBeGreaterThan(0);
    expect(await dialog.getByText(/^Correct answer/).count()).toBe(0);
    expect(await dialog.getByRole('img', { name: 'Correct answer' }).count()).toBe(0);
    // The answers never reach this browser: the details call is the managers'.
    expect(calls.some((p) => p.endsWith('/details'))).toBe(false);
    await shot(page, 'tests-preview-en');
    await page.context().close();
  });

  it('tells a guest and a teacher without rights that they cannot see the paper', async () => {
    const [test] = await podium.db.select({ id: tests.id }).from(tests);
    if (!test) throw new Error('no test');
    const paperPath = `/test-download/examen/${ids.examId}/edition/${ids.editionId}/phase/${ids.phaseId}/test/${test.id}`;

    const guest = await open('ro');
    await guest.goto(`${podium.baseUrl}${paperPath}`);
    await eventually(() =>
      guest.getByText('Autentificați-vă pentru a vedea acest test.').count(),
    ).toBe(1);
    await guest.context().close();

    const other = await signIn('dana.rus@example.ro', 'en');
    await other.goto(`${podium.baseUrl}${paperPath}`);
    // SPEC.md §2: a download the teacher has no right to is 403, said as such.
    await eventually(() => other.getByText('You have no right to download this test').count()).toBe(
      1,
    );
    await shot(other, 'tests-paper-no-rights-en');
    await other.context().close();
  });
});
