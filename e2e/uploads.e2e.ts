import { and, eq } from 'drizzle-orm';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  makeEdition,
  makeEnrolment,
  makeExam,
  makePhase,
  makeTestWithItems,
} from '../server/db/factories.js';
import { answers, attempts, auditEvents, files, phaseStudents } from '../server/db/schema.js';
import { uuidv7 } from '../server/lib/ids.js';
import { scoreEndedAttempts } from '../server/modules/results/index.js';
import { sampleGif, sampleHeic, samplePdf } from '../server/modules/uploads/uploads.fixtures.js';
import { hasChromium, openBrowser, type Podium, shot, startPodium } from './harness.js';
import { type Lang, openSignedIn, PASSWORD } from './session.js';

const HOUR = 3_600_000;
const PHONE = { width: 390, height: 844 };
const TEST_NAME = 'Subiectul etapei pe școală';

/**
 * Whether Chromium's own PDF viewer has loaded in a frame of the page (a frame blocked by the
 * content policy shows an error page instead).
 */
async function pdfViewerLoaded(page: Page) {
  const viewer = page.frames().find((f) => f.url().startsWith('chrome-extension://'));
  return viewer ? viewer.evaluate(() => document.readyState !== 'loading') : false;
}

/** A page of handwriting, photographed: drawn by the browser as a PNG or JPEG. */
async function handwritten(browser: Browser, lines: string[], type: 'png' | 'jpeg') {
  const page = await browser.newPage({ viewport: { width: 480, height: 640 } });
  const text = lines.map((l, i) => `<text x="36" y="${90 + i * 56}">${l}</text>`).join('');
  await page.setContent(`<body style="margin:0;background:#fdfcf5">
    <svg xmlns="http://www.w3.org/2000/svg" width="480" height="640" font-family="cursive"
      font-size="30" fill="#1a237e">
      ${Array.from({ length: 11 }, (_, i) => `<line x1="0" x2="480" y1="${100 + i * 56}" y2="${100 + i * 56}" stroke="#90caf9"/>`).join('')}
      <line x1="28" x2="28" y1="0" y2="640" stroke="#ef9a9a"/>
      ${text}
    </svg></body>`);
  const bytes = await page.screenshot({ type, clip: { x: 0, y: 0, width: 480, height: 640 } });
  await page.close();
  return bytes;
}

describe.skipIf(!hasChromium)('hybrid tests: answer uploads in the browser', () => {
  let podium: Podium;
  let browser: Browser;
  const ids = { exam: '', edition: '', phase: '', test: '', onlinePhase: '', onlineTest: '' };
  const people: Record<string, string> = {};
  let itemIds: string[] = [];
  let pages: { page1: Buffer; page2: Buffer; paper: Buffer };

  const phaseUrl = () => `/examene/${ids.exam}/editii/${ids.edition}/phases/${ids.phase}`;

  beforeAll(async () => {
    podium = await startPodium();
    browser = await openBrowser();
    const db = podium.db;
    people.admin = (
      await podium.createUser({
        email: 'admin@example.ro',
        password: PASSWORD,
        type: 'admin',
        givenName: 'Ioana',
        familyName: 'Dinu',
      })
    ).id;
    people.radu = (
      await podium.createUser({
        email: 'radu.matei@example.ro',
        password: PASSWORD,
        type: 'teacher',
        givenName: 'Radu',
        familyName: 'Matei',
        teacherCode: 'RADU-MATE',
      })
    ).id;
    const exam = await makeExam(db, { name: 'Olimpiada de Matematică', grades: [7, 8] });
    const edition = await makeEdition(db, {
      examId: exam.id,
      name: 'Ediția 2026',
      coordinatorIds: [people.radu],
    });
    const now = Date.now();
    const phase = await makePhase(db, {
      editionId: edition.id,
      name: 'Etapa pe școală',
      type: 'hybrid',
      startDate: new Date(now - 24 * HOUR),
      endDate: new Date(now + 6 * 24 * HOUR),
    });
    const { test, questions } = await makeTestWithItems(db, {
      phaseId: phase.id,
      name: TEST_NAME,
      grades: [7, 8],
      startDate: new Date(now - HOUR),
      endDate: new Date(now + 2 * HOUR),
      durationMinutes: 120,
      items: [
        {
          itemQ:
            'Calculați $\\frac{1}{2} + \\frac{1}{3}$ și scrieți rezultatul ca fracție ireductibilă.',
          itemType: 'open',
          itemAnswers: [],
          itemCorrectAnswers: null,
          score: 10,
        },
        {
          itemQ: 'Demonstrați că $\\sqrt{2}$ este un număr **irațional**.',
          itemType: 'open',
          itemAnswers: [],
          itemCorrectAnswers: null,
          score: 20,
        },
        {
          itemQ: 'Un triunghi are laturile de 3 cm, 4 cm și 5 cm. Aflați aria lui.',
          itemType: 'open',
          itemAnswers: [],
          itemCorrectAnswers: null,
          score: 30,
        },
      ],
    });
    ids.exam = exam.id;
    ids.edition = edition.id;
    ids.phase = phase.id;
    ids.test = test.id;
    itemIds = questions.map((q) => q.id);
    const students = [
      ['maria', 'Maria', 'Ionescu', 7, people.radu],
      ['andrei', 'Andrei', 'Popa', 7, people.radu],
      ['elena', 'Elena', 'Stan', 8, null],
    ] as const;
    for (const [key, givenName, familyName, grade, teacherRef] of students) {
      const { id } = await podium.createUser({
        email: `${key}@elevi.example.ro`,
        password: PASSWORD,
        type: 'student',
        givenName,
        familyName,
        grade,
        teacherRef,
      });
      people[key] = id;
      await makeEnrolment(db, {
        editionId: edition.id,
        studentId: id,
        grade,
        phaseIds: [phase.id],
      });
    }
    // An online test Maria finished, to read her answers against the correct ones.
    const onlinePhase = await makePhase(db, {
      editionId: edition.id,
      name: 'Etapa online',
      type: 'online',
      startDate: new Date(now - 48 * HOUR),
      endDate: new Date(now - 30 * HOUR),
    });
    const online = await makeTestWithItems(db, {
      phaseId: onlinePhase.id,
      name: 'Test online de antrenament',
      grades: [7],
      items: [
        {
          itemQ: 'Cât face $\\frac{1}{2} + \\frac{1}{4}$?',
          itemAnswers: ['$\\frac{3}{4}$', '$\\frac{2}{6}$', '$1$'],
          itemCorrectAnswers: [0],
          score: 10,
        },
        {
          itemQ: 'Câte laturi are un hexagon?',
          itemAnswers: ['4', '5', '6'],
          itemCorrectAnswers: [2],
          score: 20,
        },
      ],
    });
    ids.onlinePhase = onlinePhase.id;
    ids.onlineTest = online.test.id;
    const [first, second] = online.questions;
    if (!first || !second) throw new Error('online questions missing');
    const attemptId = uuidv7();
    await db.insert(attempts).values({
      id: attemptId,
      testId: online.test.id,
      studentId: people.maria ?? '',
      state: 'finished',
      startedAt: new Date(now - 47 * HOUR),
      deadlineAt: new Date(now - 46 * HOUR),
      itemOrder: [second.id, first.id],
      finishedAt: new Date(now - 46.5 * HOUR),
      finishedBy: 'student',
    });
    await db.insert(answers).values([
      {
        id: uuidv7(),
        testId: online.test.id,
        studentId: people.maria ?? '',
        questionId: first.id,
        attemptId,
        submittedAnswer: [0],
        seq: 1,
      },
      {
        id: uuidv7(),
        testId: online.test.id,
        studentId: people.maria ?? '',
        questionId: second.id,
        attemptId,
        submittedAnswer: [1],
        seq: 2,
      },
    ]);
    // Scored as the player's finish scores it.
    await db.transaction((tx) =>
      scoreEndedAttempts(
        tx,
        [{ attemptId, testId: online.test.id, studentId: people.maria ?? '' }],
        new Date(now - 46.5 * HOUR),
      ),
    );
    await db
      .insert(phaseStudents)
      .values({ phaseId: onlinePhase.id, studentId: people.maria ?? '' });
    pages = {
      page1: await handwritten(browser, ['1/2 + 1/3 =', '= 3/6 + 2/6 =', '= 5/6'], 'png'),
      page2: await handwritten(browser, ['Verificare:', '5/6 − 1/3 = 1/2 ✓'], 'jpeg'),
      paper: await handwritten(browser, ['Andrei Popa, cl. a VII-a', '1/2 + 1/3 = 5/6'], 'jpeg'),
    };
  });
  afterAll(async () => {
    await browser?.close();
    await podium?.close();
  });

  const signIn = (email: string, lang: Lang) =>
    openSignedIn(browser, podium.baseUrl, email, lang, {
      acceptDownloads: true,
      keepPickedLanguage: true,
    });

  /** A snackbar with this text is shown (hidden from the accessibility tree behind a dialog). */
  const toast = (page: Page, text: string) =>
    expect
      .poll(() =>
        page.getByRole('alert', { includeHidden: true }).filter({ hasText: text }).count(),
      )
      .toBeGreaterThan(0);

  const fileNames = (page: Page, item: string, listName: RegExp) =>
    page
      .getByRole('region', { name: item })
      .getByRole('list', { name: listName })
      .getByRole('listitem')
      .allInnerTexts();

  it('a student uploads pages on a phone, is told what was refused, deletes and uploads again', async () => {
    const page = await signIn('maria@elevi.example.ro', 'ro');
    await page.setViewportSize(PHONE);
    await page.goto(`${podium.baseUrl}/test/${ids.test}`);
    await expect
      .poll(() => page.getByRole('heading', { name: 'Întrebarea 1', exact: true }).count())
      .toBe(1);
    await expect.poll(() => page.getByText(/Puteți încărca răspunsurile până la/).count()).toBe(1);
    const q1 = page.getByRole('region', { name: 'Întrebarea 1' });
    const q2 = page.getByRole('region', { name: 'Întrebarea 2' });
    await expect.poll(() => q1.locator('.katex').count()).toBeGreaterThan(0);
    await shot(page, 'hybrid-student-phone-ro');

    // A PNG and a PDF, with a GIF that calls itself .png: the GIF is refused by its bytes.
    await q1.getByLabel('Încarcă fișiere pentru Întrebarea 1').setInputFiles([
      { name: 'pagina-1.png', mimeType: 'image/png', buffer: pages.page1 },
      { name: 'pagina-2.pdf', mimeType: 'application/pdf', buffer: samplePdf('Rezolvare 1') },
      { name: 'desen.png', mimeType: 'image/png', buffer: sampleGif() },
    ]);
    await toast(page, 'Răspunsul a fost salvat');
    const report = q1.getByRole('alert').filter({ hasText: 'desen.png' });
    await expect.poll(() => report.innerText()).toMatch(/2 fișiere au fost salvate/);
    await expect
      .poll(() => report.innerText())
      .toMatch(/nu este un PDF, PNG sau JPEG care se poate deschide/);
    await expect
      .poll(() => fileNames(page, 'Întrebarea 1', /Paginile răspunsului/))
      .toEqual([expect.stringMatching(/pagina-1\.png/), expect.stringMatching(/pagina-2\.pdf/)]);
    await expect.poll(() => q1.getByText('2 pagini').count()).toBe(1);

    // An iPhone photo in HEIC, alone: refused with its own message.
    await q2
      .getByLabel('Încarcă fișiere pentru Întrebarea 2')
      .setInputFiles([{ name: 'IMG_0042.HEIC', mimeType: 'image/heic', buffer: sampleHeic() }]);
    await toast(page, 'Răspunsul nu a putut fi salvat');
    await expect
      .poll(() => q2.getByRole('alert').filter({ hasText: 'IMG_0042.HEIC' }).innerText())
      .toMatch(/Niciun fișier nu a fost salvat[\s\S]*fotografie HEIC/);
    await expect.poll(() => q2.getByText('Niciun fișier încărcat încă.').count()).toBe(1);
    await shot(page, 'hybrid-refused-phone-ro');

    // On a phone the PDF is not framed (phone browsers show none there): it opens in a tab.
    await q1.getByRole('button', { name: 'Previzualizează pagina-2.pdf' }).click();
    const pdfPreview = page.getByRole('dialog', { name: /pagina-2\.pdf/ });
    await expect
      .poll(() => pdfPreview.getByRole('button', { name: 'Deschide PDF-ul' }).count())
      .toBe(1);
    expect(await pdfPreview.locator('iframe').count()).toBe(0);
    await shot(page, 'hybrid-pdf-phone-ro');
    await pdfPreview.getByRole('button', { name: 'Închide' }).click();
    await pdfPreview.waitFor({ state: 'hidden' });

    // Delete the PDF, then upload a photo of the second page instead.
    await q1.getByRole('button', { name: 'Șterge pagina-2.pdf' }).click();
    const confirm = page.getByRole('dialog', { name: 'Ștergeți pagina?' });
    await confirm.getByRole('button', { name: 'Șterge' }).click();
    await toast(page, 'Răspunsul a fost șters');
    await expect
      .poll(() => fileNames(page, 'Întrebarea 1', /Paginile răspunsului/))
      .toEqual([expect.stringMatching(/pagina-1\.png/)]);
    await q1
      .getByLabel('Încarcă fișiere pentru Întrebarea 1')
      .setInputFiles([{ name: 'pagina-2.jpg', mimeType: 'image/jpeg', buffer: pages.page2 }]);
    await expect
      .poll(() => fileNames(page, 'Întrebarea 1', /Paginile răspunsului/))
      .toEqual([expect.stringMatching(/pagina-1\.png/), expect.stringMatching(/pagina-2\.jpg/)]);

    // Preview a page.
    await q1.getByRole('button', { name: 'Previzualizează pagina-2.jpg' }).click();
    const preview = page.getByRole('dialog', { name: /pagina-2\.jpg/ });
    await expect
      .poll(() => preview.getByRole('img', { name: 'Pagina încărcată: pagina-2.jpg' }).count())
      .toBe(1);
    await expect
      .poll(() =>
        preview
          .getByRole('img', { name: 'Pagina încărcată: pagina-2.jpg' })
          .evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth),
      )
      .toBe(480);
    await shot(page, 'hybrid-preview-phone-ro');
    await preview.getByRole('button', { name: 'Închide' }).click();
    await preview.waitFor({ state: 'hidden' });

    // The photo of the second page was meant to come first: move it up.
    expect(await q1.getByRole('button', { name: 'Mută mai sus pagina-1.png' }).isDisabled()).toBe(
      true,
    );
    await q1.getByRole('button', { name: 'Mută mai sus pagina-2.jpg' }).click();
    await expect
      .poll(() => fileNames(page, 'Întrebarea 1', /Paginile răspunsului/))
      .toEqual([
        expect.stringMatching(/pagina-2\.jpg[\s\S]*Pagina 1/),
        expect.stringMatching(/pagina-1\.png[\s\S]*Pagina 2/),
      ]);
    await shot(page, 'hybrid-reordered-phone-ro');

    // Stored as shown: two pages, in the order on screen, the refused files nowhere.
    const [row] = await podium.db
      .select()
      .from(answers)
      .where(
        and(eq(answers.studentId, people.maria ?? ''), eq(answers.questionId, itemIds[0] ?? '')),
      );
    expect(row?.fileIds).toHaveLength(2);
    const [firstPage] = await podium.db
      .select({ name: files.originalName })
      .from(files)
      .where(eq(files.id, row?.fileIds?.[0] ?? ''));
    expect(firstPage?.name).toBe('pagina-2.jpg');
    const stored = await podium.db.select({ name: files.originalName }).from(files);
    expect(stored.map((f) => f.name)).not.toContain('desen.png');
    expect(stored.map((f) => f.name)).not.toContain('IMG_0042.HEIC');

    // The same screen in English.
    await page.evaluate(() => window.localStorage.setItem('podium.language', '"en"'));
    await page.reload();
    await expect
      .poll(() => page.getByRole('heading', { name: 'Question 1', exact: true }).count())
      .toBe(1);
    await expect.poll(() => page.getByText(/You can upload your answers until/).count()).toBe(1);
    await expect.poll(() => page.getByText('2 pages').count()).toBe(1);
    await shot(page, 'hybrid-student-phone-en');
    await page.context().close();
  });

  it('an admin enters the paper answer of a student who wrote on paper', async () => {
    const page = await signIn('admin@example.ro', 'ro');
    await page.goto(`${podium.baseUrl}${phaseUrl()}/test/${ids.test}`);
    const table = page.getByRole('table', { name: 'Elevii testului' });
    await expect.poll(() => table.getByRole('row').count()).toBe(4);
    await expect
      .poll(() => table.getByRole('row', { name: /Ionescu/ }).innerText())
      .toMatch(/Încărcat/);
    await expect
      .poll(() => table.getByRole('row', { name: /Popa/ }).innerText())
      .toMatch(/Neînceput/);
    await shot(page, 'test-students-ro');

    await page.getByRole('link', { name: 'Răspunsurile elevului Popa Andrei' }).click();
    await expect.poll(() => page.getByRole('heading', { name: 'Popa Andrei' }).count()).toBe(1);
    await expect
      .poll(() => page.getByText('Introducerea răspunsurilor de pe hârtie').count())
      .toBeGreaterThan(0);
    const q1 = page.getByRole('region', { name: 'Întrebarea 1' });
    await q1.getByLabel('Încarcă fișiere pentru Întrebarea 1').setInputFiles([
      { name: 'lucrare-andrei-p1.jpg', mimeType: 'image/jpeg', buffer: pages.paper },
      { name: 'lucrare-andrei-p2.pdf', mimeType: 'application/pdf', buffer: samplePdf('Andrei') },
    ]);
    await toast(page, 'Răspunsul a fost salvat');
    await expect
      .poll(() => fileNames(page, 'Întrebarea 1', /Paginile răspunsului/))
      .toHaveLength(2);
    await expect.poll(() => q1.getByText('Introdus de comisie').count()).toBe(1);
    await shot(page, 'answers-entry-ro');

    // The PDF page in the browser's viewer inside the dialog, allowed by the content policy.
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { cspViolations: string[] }).cspViolations = seen;
      document.addEventListener('securitypolicyviolation', (e) => seen.push(e.violatedDirective));
    });
    await q1.getByRole('button', { name: 'Previzualizează lucrare-andrei-p2.pdf' }).click();
    const pdf = page.getByRole('dialog', { name: /lucrare-andrei-p2\.pdf/ });
    const frame = pdf.locator('iframe[title="Document încărcat: lucrare-andrei-p2.pdf"]');
    await expect.poll(() => frame.getAttribute('src')).toMatch(/^blob:/);
    await expect.poll(() => pdfViewerLoaded(page)).toBe(true);
    // Only for the screenshot: the viewer draws the page a moment after its document loads.
    await page.waitForTimeout(1500);
    await expect
      .poll(() => pdf.getByRole('button', { name: 'Deschide într-o filă nouă' }).count())
      .toBe(1);
    await shot(page, 'answers-entry-pdf-ro');
    expect(
      await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations),
    ).toEqual([]);
    await pdf.getByRole('button', { name: 'Închide' }).click();
    await pdf.waitFor({ state: 'hidden' });

    const [entry] = await podium.db
      .select()
      .from(auditEvents)
      .where(
        and(eq(auditEvents.action, 'answer.enter'), eq(auditEvents.actorId, people.admin ?? '')),
      );
    expect(entry?.reason).toBe('paper');
    expect(entry?.after).toMatchObject({ studentId: people.andrei, itemId: itemIds[0] });

    await page.getByRole('link', { name: TEST_NAME }).click();
    await expect
      .poll(() => table.getByRole('row', { name: /Popa/ }).innerText())
      .toMatch(/Încărcat/);

    // An online test: each answer against the correct one, in the order Maria had them.
    const onlineUrl = `/examene/${ids.exam}/editii/${ids.edition}/phases/${ids.onlinePhase}/test/${ids.onlineTest}`;
    await page.goto(`${podium.baseUrl}${onlineUrl}`);
    const onlineTable = page.getByRole('table', { name: 'Elevii testului' });
    await expect
      .poll(() => onlineTable.getByRole('row', { name: /Ionescu/ }).innerText())
      .toMatch(/Încheiat[\s\S]*10/);
    await page.getByRole('link', { name: 'Răspunsurile elevului Ionescu Maria' }).click();
    const hexagon = page.getByRole('region', { name: 'Întrebarea 1' });
    await expect.poll(() => hexagon.innerText()).toMatch(/hexagon/);
    await expect.poll(() => hexagon.innerText()).toMatch(/Răspunsul elevului:\s*B/);
    await expect.poll(() => hexagon.innerText()).toMatch(/Punctaj obținut: 0 din 20/);
    const fraction = page.getByRole('region', { name: 'Întrebarea 2' });
    await expect.poll(() => fraction.innerText()).toMatch(/Răspunsul elevului:\s*A/);
    await expect.poll(() => fraction.getByRole('img', { name: 'Răspuns corect' }).count()).toBe(1);
    await shot(page, 'student-answers-online-ro');
    await page.context().close();
  });

  it("a coordinating teacher lists the test's students and opens a student's answers", async () => {
    const page = await signIn('radu.matei@example.ro', 'en');
    await page.goto(`${podium.baseUrl}${phaseUrl()}/test/${ids.test}`);
    const table = page.getByRole('table', { name: 'Students of the test' });
    // His two students only, by given name.
    const givenNames = async () => {
      const out: string[] = [];
      for (const row of (await table.getByRole('row').all()).slice(1)) {
        const cells = row.getByRole('cell');
        // The loading row has a single cell.
        if ((await cells.count()) > 1) out.push((await cells.nth(1).innerText()).trim());
      }
      return out;
    };
    await expect.poll(givenNames).toEqual(['Andrei', 'Maria']);
    await page.getByLabel('Find a student').fill('ionesc');
    await expect.poll(() => table.getByRole('row').count()).toBe(2);
    await expect
      .poll(() => table.getByRole('row', { name: /Ionescu/ }).innerText())
      .toMatch(/Uploaded/);
    await shot(page, 'test-students-en');

    await page.getByRole('link', { name: 'Answers of Ionescu Maria' }).click();
    await expect.poll(() => page.getByRole('heading', { name: 'Ionescu Maria' }).count()).toBe(1);
    const q1 = page.getByRole('region', { name: 'Question 1' });
    // In the order Maria gave them (she moved her photo of page 2 first).
    await expect
      .poll(() => fileNames(page, 'Question 1', /Pages of the answer/))
      .toEqual([expect.stringMatching(/pagina-2\.jpg/), expect.stringMatching(/pagina-1\.png/)]);
    // A coordinator views; only the exam's admins change answers.
    expect(await q1.getByRole('button', { name: /^Delete / }).count()).toBe(0);
    expect(await q1.getByRole('button', { name: /^Move / }).count()).toBe(0);
    expect(await q1.getByLabel('Upload files for Question 1').count()).toBe(0);

    const download = page.waitForEvent('download');
    await q1.getByRole('button', { name: 'Download all (zip): Question 1' }).click();
    expect((await download).suggestedFilename()).toMatch(/^response_[0-9a-f-]{36}\.zip$/);

    await q1.getByRole('button', { name: 'Preview pagina-1.png' }).click();
    const preview = page.getByRole('dialog', { name: /pagina-1\.png/ });
    await expect
      .poll(() =>
        preview
          .getByRole('img', { name: 'Uploaded page: pagina-1.png' })
          .evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth),
      )
      .toBe(480);
    await shot(page, 'student-answers-preview-en');
    await preview.getByRole('button', { name: 'Close' }).click();
    await preview.waitFor({ state: 'hidden' });
    await shot(page, 'student-answers-en');

    // Andrei's paper answer, entered by the admin: its PDF page in the viewer, in English.
    await page.goto(
      `${podium.baseUrl}${phaseUrl()}/test/${ids.test}/student/${people.andrei}/answers`,
    );
    await page
      .getByRole('region', { name: 'Question 1' })
      .getByRole('button', { name: 'Preview lucrare-andrei-p2.pdf' })
      .click();
    const pdf = page.getByRole('dialog', { name: /lucrare-andrei-p2\.pdf/ });
    await expect
      .poll(() => pdf.locator('iframe[title="Uploaded document: lucrare-andrei-p2.pdf"]').count())
      .toBe(1);
    await expect.poll(() => pdfViewerLoaded(page)).toBe(true);
    await expect.poll(() => pdf.getByRole('button', { name: 'Open in a new tab' }).count()).toBe(1);
    // Only for the screenshot: the viewer draws the page a moment after its document loads.
    await page.waitForTimeout(1500);
    await shot(page, 'student-answers-pdf-en');
    await pdf.getByRole('button', { name: 'Close' }).click();
    await pdf.waitFor({ state: 'hidden' });

    // Elena is not his student: her answers are not found for him.
    await page.goto(
      `${podium.baseUrl}${phaseUrl()}/test/${ids.test}/student/${people.elena}/answers`,
    );
    await expect
      .poll(() => page.getByText('We could not find what you asked for.').count())
      .toBe(1);
    await page.context().close();
  });
});
