import { readFile } from 'node:fs/promises';
import { eq } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeEdition, makeExam, makePhase } from '../server/db/factories.js';
import { questions, testItems, tests, users } from '../server/db/schema.js';
import { uuidv7 } from '../server/lib/ids.js';
import { hasChromium, openBrowser, type Podium, shot, startPodium } from './harness.js';
import { LAPTOP, type Lang, openSignedIn, PASSWORD } from './session.js';

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** The spreadsheet's data rows: 9 good ones (grades 5 and 6), then two the server refuses. */
const SHEET_ROWS = [
  ['Problema 1. Calculați $2^{10}$.', 'Algebră', 'Matematică', 5, 'ușor', 'numeric', '', '1024'],
  [
    'Problema 2. Câte laturi are un hexagon?',
    'Geometrie',
    'Matematică',
    5,
    'ușor',
    'unic',
    '4 | 5 | 6 | 8',
    'C',
  ],
  [
    'Problema 3. Care numere sunt prime?',
    'Aritmetică',
    'Matematică',
    6,
    'mediu',
    'multiplu',
    '2 | 4 | 7 | 9',
    'A, C',
  ],
  [
    'Problema 4. Rezolvați ecuația $3x + 1 = 10$.',
    'Algebră',
    'Matematică',
    6,
    'mediu',
    'numeric',
    '',
    '3',
  ],
  [
    'Problema 5. Perimetrul unui pătrat cu latura 4 cm este:',
    'Geometrie',
    'Matematică',
    5,
    'mediu',
    'unic',
    '8 | 12 | 16',
    'C',
  ],
  [
    'Problema 6. Demonstrați că $n^2 + n$ este par.',
    'Algebră',
    'Matematică',
    6,
    'dificil',
    'deschis',
    '',
    '',
  ],
  [
    'Problema 7. Câte numere de două cifre există?',
    'Aritmetică',
    'Matematică',
    5,
    'ușor',
    'numeric',
    '',
    '90',
  ],
  [
    'Problema 8. Suma unghiurilor unui triunghi este (în grade):',
    'Geometrie',
    'Matematică',
    6,
    'ușor',
    'numeric',
    '',
    '180',
  ],
  [
    'Problema 9. Scrieți un algoritm care află maximul a $n$ numere.',
    'Algoritmi',
    'Informatică',
    6,
    'mediu',
    'deschis',
    '',
    '',
  ],
  [
    'Problema 10. Cât face 7 · 8?',
    'Aritmetică',
    'Matematică',
    5,
    'foarte greu',
    'numeric',
    '',
    '56',
  ],
  ['', 'Algebră', 'Matematică', '', 'ușor', 'numeric', '', '1'],
] as const;

/** Waits for a value; the machine running the journeys may be busy, so up to 15 s. */
const poll = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 15_000 });

// The question bank: import, add with a formula, edit, filter, bulk delete, the question's teachers, rights.
describe.skipIf(!hasChromium)('question bank in the browser', () => {
  let podium: Podium;
  let browser: Browser;
  let phaseUrl = '';
  let phaseId = '';
  const ids = { examId: '', editionId: '' };
  const teachers: Record<string, string> = {};

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
    for (const [key, givenName, familyName, state] of [
      ['ana', 'Ana', 'Georgescu', 'active'],
      ['radu', 'Radu', 'Matei', 'active'],
      ['mihai', 'Mihai', 'Pop', 'active'],
      ['elena', 'Elena', 'Dobre', 'active'],
      ['sorin', 'Sorin', 'Munteanu', 'active'],
      ['vlad', 'Vlad', 'Ionescu', 'inactive'],
      ['dana', 'Dana', 'Stoica', 'active'],
    ] as const) {
      const { id } = await podium.createUser({
        email: `${key}@profesori.example.ro`,
        password: PASSWORD,
        type: 'teacher',
        givenName,
        familyName,
        state,
        teacherCode: key.toUpperCase(),
      });
      teachers[key] = id;
    }
    const exam = await makeExam(podium.db, {
      name: 'Olimpiada de Matematică',
      subject: 'Matematică',
      grades: [5, 6],
      staffTeacherIds: [teachers.ana ?? ''],
    });
    const edition = await makeEdition(podium.db, {
      examId: exam.id,
      name: 'Ediția 2026',
      coordinatorIds: [teachers.dana ?? ''],
    });
    const phase = await makePhase(podium.db, {
      editionId: edition.id,
      name: 'Etapa județeană',
      type: 'hybrid',
      startDate: new Date(Date.now() + 30 * 86_400_000),
    });
    phaseId = phase.id;
    ids.examId = exam.id;
    ids.editionId = edition.id;
    phaseUrl = `/examene/${exam.id}/editii/${edition.id}/phases/${phase.id}`;
  });
  afterAll(async () => {
    await browser?.close();
    await podium?.close();
  });

  const signIn = (email: string, lang: Lang = 'ro', viewport = LAPTOP) =>
    openSignedIn(browser, podium.baseUrl, email, lang, {
      viewport,
      acceptDownloads: true,
      keepPickedLanguage: true,
    });

  /** A snackbar with this text is shown (hidden from the accessibility tree behind a dialog). */
  const toast = (page: Page, text: string) =>
    poll(() =>
      page.getByRole('alert', { includeHidden: true }).filter({ hasText: text }).count(),
    ).toBeGreaterThan(0);

  /** MUI names a select by its label and its value: match the label's start. */
  const choose = async (page: Page, combobox: RegExp, option: string) => {
    await page.getByRole('combobox', { name: combobox }).first().click();
    await page.getByRole('option', { name: option, exact: true }).click();
  };

  /** The pager's "1–10 of N" text. */
  const pager = (page: Page) => page.locator('.MuiTablePagination-displayedRows').innerText();
  const table = (page: Page, name = 'Întrebările etapei') => page.getByRole('table', { name });
  const rowOf = (page: Page, text: string) =>
    table(page).getByRole('row').filter({ hasText: text });

  it('imports questions from the spreadsheet template, with a row-by-row report', async () => {
    const page = await signIn('admin@example.ro');
    await page.goto(`${podium.baseUrl}${phaseUrl}`);
    await page.getByRole('link', { name: 'Întrebări' }).click();
    await page.waitForURL(`**${phaseUrl}/questions`);
    await poll(() => page.getByText('Nicio întrebare.').count()).toBe(1);

    await page.getByRole('button', { name: 'Importă' }).click();
    const dialog = page.getByRole('dialog', { name: 'Importă întrebări' });
    // Nothing chosen: the file is required.
    await dialog.getByRole('button', { name: 'Importă' }).click();
    await poll(() => dialog.getByText('Câmpul este obligatoriu').count()).toBe(1);

    // The template comes from the server; its examples are replaced by our rows.
    const download = page.waitForEvent('download');
    await dialog.getByRole('button', { name: 'Descarcă modelul' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe('model-import-intrebari.xlsx');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load((await readFile((await file.path()) ?? '')) as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0];
    if (!sheet) throw new Error('template without a sheet');
    expect(sheet.getRow(1).getCell(1).text).toBe('Enunț');
    // Our rows over the examples (there are fewer examples than rows).
    SHEET_ROWS.forEach((row, i) => {
      sheet.getRow(i + 2).values = [...row];
    });
    const filled = Buffer.from(await workbook.xlsx.writeBuffer());

    await dialog
      .getByLabel('Alege foaia de calcul')
      .setInputFiles({ name: 'intrebari.xlsx', mimeType: XLSX, buffer: filled });
    await poll(() => dialog.getByText('intrebari.xlsx').count()).toBe(1);
    await dialog.getByRole('button', { name: 'Importă' }).click();
    await poll(() => dialog.getByText('Au fost adăugate 9 întrebări.').count()).toBe(1);
    await poll(() => dialog.getByText('2 rânduri au fost refuzate:').count()).toBe(1);
    const refused = dialog.getByRole('table', { name: 'Ce nu a fost importat' });
    const lines = (await refused.getByRole('row').allInnerTexts())
      .slice(1)
      .map((l) => l.replace(/\s+/g, ' ').trim());
    // Row numbers as the spreadsheet shows them (the header is row 1).
    expect(lines).toContain('11 Dificultate Valoare incorectă');
    expect(lines).toContain('12 Enunț Câmpul este obligatoriu');
    expect(lines).toContain('12 Clasa Câmpul este obligatoriu');
    await shot(page, 'question-import-report-ro', { fullPage: false });
    await dialog.getByRole('button', { name: 'Închide' }).click();
    await poll(() => pager(page)).toBe('1–9 din 9');
  });

  it('imports images: one question each, a file that is no image refused', async () => {
    const page = await signIn('admin@example.ro');
    await page.goto(`${podium.baseUrl}${phaseUrl}/questions`);
    await page.getByRole('button', { name: 'Importă' }).click();
    const dialog = page.getByRole('dialog', { name: 'Importă întrebări' });
    await dialog.getByRole('tab', { name: 'Imagini' }).click();
    await choose(page, /^Clasa/, 'Clasa 6');
    // Real PNGs: pictures of the page itself.
    const png = await page.screenshot({ clip: { x: 0, y: 0, width: 240, height: 120 } });
    await dialog.getByLabel('Alege imaginile').setInputFiles([
      { name: 'geometrie-1.png', mimeType: 'image/png', buffer: png },
      { name: 'geometrie-2.png', mimeType: 'image/png', buffer: png },
      { name: 'notite.png', mimeType: 'image/png', buffer: Buffer.from('nu este o imagine') },
    ]);
    await poll(() => dialog.getByText('3 fișiere alese').count()).toBe(1);
    await dialog.getByRole('button', { name: 'Importă' }).click();
    await poll(() => dialog.getByText('Au fost adăugate 2 întrebări.').count()).toBe(1);
    const refused = dialog.getByRole('table', { name: 'Ce nu a fost importat' });
    await poll(() =>
      refused.getByRole('row').filter({ hasText: 'notite.png' }).innerText(),
    ).toContain('Nu este o imagine png sau jpeg.');
    await dialog.getByRole('button', { name: 'Închide' }).click();
    await poll(() => pager(page)).toBe('1–10 din 11');
    // The image questions show their picture in the list.
    await poll(() => table(page).locator('img.statement-image').count()).toBeGreaterThanOrEqual(1);
  });

  it('adds a question with a formula and an image, with a live preview, then edits it', async () => {
    const page = await signIn('admin@example.ro');
    await page.goto(`${podium.baseUrl}${phaseUrl}/questions`);
    await page.getByRole('button', { name: 'Adaugă întrebare' }).click();
    const form = page.getByRole('dialog', { name: 'Adaugă întrebare' });
    // Empty: each problem on its own field.
    await form.getByRole('button', { name: 'Adaugă întrebarea' }).click();
    await poll(() => form.getByText('Câmpul este obligatoriu').count()).toBeGreaterThanOrEqual(5);

    await choose(page, /^Clasa/, 'Clasa 5');
    await form.getByLabel('Categorie').fill('Aritmetică');
    await form
      .getByRole('textbox', { name: /^Enunț/ })
      .fill('Calculați suma fracțiilor $\\frac{1}{2} + \\frac{1}{3}$.');
    await form.getByRole('textbox', { name: 'Varianta A' }).fill('$\\frac{2}{5}$');
    await form.getByRole('textbox', { name: 'Varianta B' }).fill('$\\frac{5}{6}$');
    await form.getByRole('textbox', { name: 'Varianta C' }).fill('$\\frac{1}{6}$');
    await form.getByRole('textbox', { name: 'Varianta D' }).fill('$1$');
    await form.getByRole('radio', { name: 'Varianta B este corectă' }).check();
    // An image stored by POST /files goes into the statement where the cursor is.
    const png = await page.screenshot({ clip: { x: 0, y: 0, width: 160, height: 80 } });
    await form
      .getByLabel('Imaginea de inserat')
      .setInputFiles({ name: 'desen.png', mimeType: 'image/png', buffer: png });
    await poll(() => form.getByRole('textbox', { name: /^Enunț/ }).inputValue()).toMatch(
      /!\[desen\]\(\/api\/v1\/resource-mgmt\/files\/[0-9a-f-]{36}\)/,
    );

    const preview = form.getByRole('region', { name: 'Previzualizare' });
    await poll(() => preview.locator('.katex').count()).toBe(5);
    await poll(() => preview.locator('img.statement-image').count()).toBe(1);
    await poll(() => preview.getByRole('img', { name: 'Răspuns corect' }).count()).toBe(1);
    // The tooltip of the last radio clicked would cover the options.
    await page.mouse.move(0, 0);
    await shot(page, 'question-dialog-formula-ro', { fullPage: false });
    await form.getByRole('button', { name: 'Adaugă întrebarea' }).click();
    await toast(page, 'Întrebarea a fost adăugată');
    await poll(() => pager(page)).toBe('1–10 din 12');

    // Only the questions of grade 5 about fractions: the new one.
    await page.getByRole('searchbox', { name: 'Caută în enunț' }).fill('fracțiilor');
    await poll(() => pager(page)).toBe('1–1 din 1');
    await page
      .getByRole('button', { name: /^Modifică întrebarea: Calculați suma fracțiilor/ })
      .click();
    const edit = page.getByRole('dialog', { name: 'Modifică întrebarea' });
    await poll(() => edit.getByRole('textbox', { name: 'Varianta B' }).inputValue()).toBe(
      '$\\frac{5}{6}$',
    );
    await choose(page, /^Dificultate/, 'Dificil');
    await edit.getByRole('button', { name: 'Salvează' }).click();
    await toast(page, 'Întrebarea a fost modificată');
    await poll(() => rowOf(page, 'Calculați suma').innerText()).toContain('Dificil');
  });

  it('filters by subject, category, grade and difficulty; a new subject clears the category', async () => {
    const page = await signIn('admin@example.ro');
    await page.goto(`${podium.baseUrl}${phaseUrl}/questions`);
    await poll(() => pager(page)).toBe('1–10 din 12');
    await page.getByRole('button', { name: 'Mergi la pagina următoare' }).click();
    await poll(() => pager(page)).toBe('11–12 din 12');
    // Any filter change goes back to the first page.
    await choose(page, /^Clasa/, 'Clasa 6');
    await poll(() => pager(page)).toBe('1–7 din 7');
    await page.getByRole('searchbox', { name: 'Categorie' }).fill('geom');
    await poll(() => pager(page)).toBe('1–1 din 1');
    await choose(page, /^Disciplina/, 'Informatică');
    await poll(() => page.getByRole('searchbox', { name: 'Categorie' }).inputValue()).toBe('');
    await poll(() => pager(page)).toBe('1–1 din 1');
    await poll(() => table(page).getByText('Scrieți un algoritm').count()).toBe(1);
    await choose(page, /^Disciplina/, 'Toate');
    await choose(page, /^Dificultate/, 'Ușor');
    await poll(() => pager(page)).toBe('1–1 din 1');
    await choose(page, /^Clasa/, 'Toate');
    await poll(() => pager(page)).toBe('1–4 din 4');
    await choose(page, /^Dificultate/, 'Toate');
    await poll(() => pager(page)).toBe('1–10 din 12');
    await page.getByRole('heading', { name: 'Banca de întrebări' }).click();
    await shot(page, 'questions-list-ro');
  });

  it('bulk-deletes; a question drawn into a test is refused and the list returns to page 1', async () => {
    const page = await signIn('admin@example.ro');
    await page.goto(`${podium.baseUrl}${phaseUrl}/questions`);
    await page.getByRole('button', { name: 'Mergi la pagina următoare' }).click();
    await poll(() => pager(page)).toBe('11–12 din 12');
    // The pager moves before the rows do (page 1 stays shown while page 2 loads): wait for
    // page 2's two rows, or the question "drawn" below would be one of page 1's.
    const links = table(page).getByRole('link', { name: /Mediator|Fără mediator/ });
    await poll(() => links.count()).toBe(2);
    // Meanwhile a test draws the first question of this page (rows straight into the database).
    const href = await links.first().getAttribute('href');
    const drawnId = /questions\/([0-9a-f-]{36})\//.exec(href ?? '')?.[1] ?? '';
    expect(drawnId).not.toBe('');
    const testId = uuidv7();
    await podium.db.insert(tests).values({
      id: testId,
      phaseId,
      name: 'Test clasa a V-a',
      grades: [5],
      subject: 'Matematică',
      startDate: new Date(Date.now() + 30 * 86_400_000),
      endDate: new Date(Date.now() + 31 * 86_400_000),
      durationMinutes: 90,
      totalScore: 100,
      seed: 'e2e',
    });
    await podium.db
      .insert(testItems)
      .values({ testId, questionId: drawnId, position: 0, score: 100 });
    const [drawn] = await podium.db.select().from(questions).where(eq(questions.id, drawnId));

    await page.getByRole('checkbox', { name: 'Selectează toate rândurile din pagină' }).check();
    await poll(() => page.getByText('2 întrebări selectate').count()).toBe(1);
    await page.getByRole('button', { name: 'Șterge întrebările selectate' }).click();
    const confirm = page.getByRole('dialog', { name: 'Ștergeți 2 întrebări?' });
    await confirm.getByRole('button', { name: 'Șterge' }).click();
    await toast(page, 'Unele întrebări nu au putut fi șterse');
    await poll(() =>
      confirm
        .getByText('1 întrebare nu a fost ștearsă, pentru că face parte dintr-un test:')
        .count(),
    ).toBe(1);
    const refusedList = confirm.getByRole('list', { name: 'Întrebări care nu au fost șterse' });
    await poll(() => refusedList.getByRole('listitem').count()).toBe(1);
    expect(drawn?.itemQ).toBeTruthy();
    await shot(page, 'question-bulk-delete-refused-ro', { fullPage: false });
    await confirm.getByRole('button', { name: 'Închide' }).click();
    await poll(() => pager(page)).toBe('1–10 din 11');
    // The refused question is still there, marked as part of a test.
    await page.getByRole('button', { name: 'Mergi la pagina următoare' }).click();
    await poll(() => pager(page)).toBe('11–11 din 11');
    await poll(() => table(page).getByText('În test').count()).toBe(1);
    const rest = await podium.db.select().from(questions).where(eq(questions.id, drawnId));
    expect(rest[0]?.deletedAt).toBeNull();
  });

  it('assigns a mediator and two reviewers, with the state filter and refusals', async () => {
    const page = await signIn('admin@example.ro');
    await page.goto(`${podium.baseUrl}${phaseUrl}/questions`);
    await page.getByRole('button', { name: /^Mai multe pentru: Calculați suma/ }).click();
    await page.getByRole('menuitem', { name: 'Mediator' }).click();
    await page.waitForURL(/\/questions\/[0-9a-f-]{36}\/mediator$/);
    await poll(() => page.getByRole('heading', { name: 'Mediatorul întrebării' }).count()).toBe(1);
    await poll(() => page.getByText('Întrebarea are nevoie de un mediator.').count()).toBe(1);

    // Active teachers only, until the filter says otherwise.
    const picker = page.getByRole('region', { name: 'Alege mediatorul' });
    const cell = (name: string) => picker.getByRole('cell', { name, exact: true });
    await cell('Matei Radu').waitFor();
    expect(await cell('Ionescu Vlad').count()).toBe(0);
    await choose(page, /^Stare/, 'Toate');
    await poll(() => cell('Ionescu Vlad').count()).toBe(1);
    await poll(() =>
      picker.getByRole('row').filter({ hasText: 'Ionescu Vlad' }).innerText(),
    ).toContain('Inactiv');
    await choose(page, /^Stare/, 'Activ');

    await picker.getByRole('searchbox', { name: 'Caută profesor' }).fill('Matei');
    await poll(() => picker.getByRole('row').count()).toBe(2);
    await picker.getByRole('button', { name: 'Desemnează mediator: Matei Radu' }).click();
    await toast(page, 'Mediatorul a fost desemnat');
    const current = page.getByRole('region', { name: 'Mediatorul', exact: true });
    await poll(() => current.getByText('Matei Radu').count()).toBe(1);
    await poll(() => page.getByText('Mediatorul este desemnat.').count()).toBe(1);
    // The appeal role that comes with it (SPEC.md §3), on the role and on its picker.
    expect(await current.getByText('Mediator la contestații', { exact: true }).count()).toBe(1);
    expect(await picker.getByText('Mediator la contestații', { exact: true }).count()).toBe(1);
    await shot(page, 'question-mediator-ro');

    await page.getByRole('tab', { name: 'Corectori' }).click();
    await page.waitForURL(/\/corectori$/);
    const reviewers = page.getByRole('region', { name: 'Adaugă corectori' });
    // The mediator cannot also review.
    await reviewers.getByRole('searchbox', { name: 'Caută profesor' }).fill('Matei');
    await poll(() =>
      reviewers.getByRole('row').filter({ hasText: 'Matei Radu' }).innerText(),
    ).toContain('Este mediator');
    for (const [search, name] of [
      ['Pop', 'Pop Mihai'],
      ['Dobre', 'Dobre Elena'],
    ] as const) {
      await reviewers.getByRole('searchbox', { name: 'Caută profesor' }).fill(search);
      await reviewers.getByRole('button', { name: `Adaugă corector: ${name}` }).click();
      await toast(page, 'Corectorul a fost desemnat');
      await poll(() =>
        page.getByRole('list', { name: 'Corectorii', exact: true }).getByText(name).count(),
      ).toBe(1);
    }
    await poll(() => page.getByText('2 corectori din 2 necesari').count()).toBe(1);

    // A teacher made inactive after the list was shown: the server refuses, the page says so.
    // He turns inactive just as the request leaves, so no refetch of the list can show it first.
    await reviewers.getByRole('searchbox', { name: 'Caută profesor' }).fill('Munteanu');
    const addSorin = reviewers.getByRole('button', { name: 'Adaugă corector: Munteanu Sorin' });
    await addSorin.waitFor();
    const teachersCall = (url: URL) => url.pathname.endsWith('/teachers');
    await page.route(teachersCall, async (route) => {
      if (route.request().method() === 'POST') {
        await podium.db
          .update(users)
          .set({ state: 'inactive' })
          .where(eq(users.id, teachers.sorin ?? ''));
      }
      await route.continue();
    });
    await addSorin.click();
    await toast(page, 'Corectorul nu a putut fi desemnat');
    await poll(() =>
      page.getByRole('region', { name: 'Corectorii', exact: true }).getByRole('alert').innerText(),
    ).toContain('Profesorul ales nu este activ.');
    await page.unroute(teachersCall);

    // Removing a reviewer, then adding them back.
    await page.getByRole('button', { name: 'Elimină: Dobre Elena' }).click();
    await toast(page, 'Corectorul a fost eliminat');
    await poll(() => page.getByText('1 corector din 2 necesari').count()).toBe(1);
    await reviewers.getByRole('searchbox', { name: 'Caută profesor' }).fill('Dobre');
    await reviewers.getByRole('button', { name: 'Adaugă corector: Dobre Elena' }).click();
    await poll(() => page.getByText('2 corectori din 2 necesari').count()).toBe(1);

    const url = new URL(page.url()).pathname;
    const en = await signIn('admin@example.ro', 'en');
    await en.goto(`${podium.baseUrl}${url}`);
    await poll(() => en.getByRole('heading', { name: "The question's reviewers" }).count()).toBe(1);
    await poll(() => en.getByText('2 reviewers of the 2 needed').count()).toBe(1);
    await poll(() =>
      en.getByRole('list', { name: 'Reviewers', exact: true }).getByRole('listitem').count(),
    ).toBe(2);
    expect(
      await en
        .getByRole('region', { name: 'Reviewers', exact: true })
        .getByText('Appeal reviewers', { exact: true })
        .count(),
    ).toBe(1);
    await shot(en, 'question-reviewers-en');

    // Removing the mediator.
    await en.getByRole('tab', { name: 'Mediator' }).click();
    await en.getByRole('button', { name: 'Remove: Matei Radu' }).click();
    await toast(en, 'The mediator has been removed');
    await poll(() => en.getByText('The question needs a mediator.').count()).toBe(1);
    const [q] = await podium.db
      .select()
      .from(questions)
      .where(eq(questions.id, /questions\/([0-9a-f-]{36})\//.exec(url)?.[1] ?? ''));
    expect(q?.mediatorTeacherId).toBeNull();
  });

  it('shows staff the bank without edit controls and without correct answers', async () => {
    const page = await signIn('ana@profesori.example.ro', 'en');
    await page.goto(`${podium.baseUrl}${phaseUrl}`);
    await page.getByRole('link', { name: 'Questions' }).click();
    await page.waitForURL(`**${phaseUrl}/questions`);
    await poll(() => page.locator('.MuiTablePagination-displayedRows').innerText()).toBe(
      '1–10 of 11',
    );
    expect(await page.getByRole('button', { name: 'Add question' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Import' }).count()).toBe(0);
    expect(await page.getByRole('checkbox').count()).toBe(0);
    expect(await page.getByRole('button', { name: /^Edit question/ }).count()).toBe(0);
    await page.getByRole('searchbox', { name: 'Search the statement' }).fill('fracțiilor');
    await page.getByRole('button', { name: /^View question: Calculați suma/ }).click();
    const view = page.getByRole('dialog', { name: 'Question' });
    await poll(() => view.locator('.katex').count()).toBe(5);
    expect(await view.getByRole('img', { name: 'Correct answer' }).count()).toBe(0);
    await shot(page, 'question-staff-en', { fullPage: false });
    await view.getByRole('button', { name: 'Close' }).click();
    await view.waitFor({ state: 'hidden' });
    // Not merely hidden: the server does not send them to staff.
    const questionId = /questions\/([0-9a-f-]{36})\//.exec(
      (await table(page, "The phase's questions").getByRole('link').first().getAttribute('href')) ??
        '',
    )?.[1];
    const sent = await page.evaluate(async (path) => {
      const session = JSON.parse(window.localStorage.getItem('podium.session') ?? '{}');
      const res = await fetch(path, {
        headers: { authorization: `Bearer ${session.token}`, userid: session.userId },
      });
      return (await res.json()).itemCorrectAnswers;
    }, `/api/v1/resource-mgmt/exams/${ids.examId}/editions/${ids.editionId}/phases/${phaseId}/items/${questionId}`);
    expect(sent).toBeNull();

    // The pages of a question's teachers are read-only for staff.
    await page.getByRole('button', { name: /^More for: Calculați suma/ }).click();
    await page.getByRole('menuitem', { name: 'Reviewers' }).click();
    await page.waitForURL(/\/corectori$/);
    await poll(() => page.getByText('2 reviewers of the 2 needed').count()).toBe(1);
    expect(await page.getByRole('region', { name: 'Add reviewers' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: /^Remove/ }).count()).toBe(0);

    // The admin sees the correct answer of the same question.
    const admin = await signIn('admin@example.ro', 'en');
    await admin.goto(`${podium.baseUrl}${phaseUrl}/questions`);
    await admin.getByRole('searchbox', { name: 'Search the statement' }).fill('fracțiilor');
    await admin.getByRole('button', { name: /^View question: Calculați suma/ }).click();
    await poll(() =>
      admin
        .getByRole('dialog', { name: 'Question' })
        .getByRole('img', { name: 'Correct answer' })
        .count(),
    ).toBe(1);
  });

  it('keeps the bank from an edition coordinator (neither manager nor staff)', async () => {
    const page = await signIn('dana@profesori.example.ro');
    await page.goto(`${podium.baseUrl}${phaseUrl}`);
    await poll(() => page.getByRole('heading', { name: 'Etapa județeană' }).count()).toBe(1);
    expect(await page.getByRole('link', { name: 'Întrebări' }).count()).toBe(0);
    await page.goto(`${podium.baseUrl}${phaseUrl}/questions`);
    // The bank is outside their scope: the server does not even confirm it exists.
    await poll(() => page.getByText('Nu am găsit ce ați cerut.').count()).toBe(1);
    expect(await page.getByRole('table').count()).toBe(0);
  });

  it('fits a phone', async () => {
    const page = await signIn('admin@example.ro', 'ro', { width: 390, height: 844 });
    await page.goto(`${podium.baseUrl}${phaseUrl}/questions`);
    await poll(() => pager(page)).toBe('1–10 din 11');
    // Nothing of the page's own content (the main area, the table inside it) is wider than
    // the window: no sideways scrolling to reach a question's buttons.
    const overflow = await page.evaluate(() => {
      const main = document.querySelector('main');
      const tableBox = document.querySelector('main table')?.parentElement;
      const width = document.documentElement.clientWidth;
      return Math.max(
        (main?.getBoundingClientRect().right ?? 0) - width,
        (main?.scrollWidth ?? 0) - (main?.clientWidth ?? 0),
        (tableBox?.scrollWidth ?? 0) - (tableBox?.clientWidth ?? 0),
      );
    });
    expect(overflow).toBeLessThanOrEqual(0);
    await shot(page, 'questions-phone-ro');
    await page.getByRole('button', { name: 'Adaugă întrebare' }).click();
    const form = page.getByRole('dialog', { name: 'Adaugă întrebare' });
    await form.getByRole('textbox', { name: /^Enunț/ }).fill('Cât face $\\sqrt{16}$?');
    await poll(() =>
      form.getByRole('region', { name: 'Previzualizare' }).locator('.katex').count(),
    ).toBe(1);
    await shot(page, 'question-dialog-phone-ro', { fullPage: false });
  });
});
