import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import type { Browser, Page, Route } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  makeEdition,
  makeEnrolment,
  makeExam,
  makePhase,
  makeTestWithItems,
} from '../server/db/factories.js';
import { paperSeats, questionReviewers, questions } from '../server/db/schema.js';
import { hasPoppler, scanPages, scanPdf } from '../server/modules/uploads/scan.fixtures.js';
import {
  hasChromium,
  openBrowser,
  type Podium,
  SCREENSHOTS,
  shot,
  startPodium,
} from './harness.js';

type Lang = 'ro' | 'en';
const PASSWORD = 'parola-buna-123';
const HOUR = 3_600_000;
const DESKTOP = { width: 1280, height: 900 };
const ROOM = 'Sala 12';
/** The students' paper codes, set here so the journey can type them as a person reads them. */
const CODES = { maria: 'K7P-2QX', andrei: 'M4R-8TA' } as const;
const poppler = await hasPoppler();

/**
 * A county round written on paper: the exam's admin makes the booklets of a room and downloads
 * them, uploads the scan of the written stack in one go (the connection dropping halfway and
 * the upload going on by itself), sees the summary, matches by hand the pages nobody could read
 * (a smudged code, a spare page) and sets a blank one aside; the review refuses to start while
 * a page waits, then starts; a reviewer marks one page blind. Romanian and English.
 */
describe.skipIf(!hasChromium || !poppler)('paper exams: booklets, one scan, matching', () => {
  let podium: Podium;
  let browser: Browser;
  let scratch: string;
  const ids = { exam: '', edition: '', phase: '', test: '' };
  const people: Record<string, string> = {};
  let booklets: Buffer;

  const phaseUrl = () => `/examene/${ids.exam}/editii/${ids.edition}/phases/${ids.phase}`;
  const paperUrl = () => `${phaseUrl()}/test/${ids.test}/hartie`;

  beforeAll(async () => {
    vi.setConfig({ expect: { poll: { timeout: 30_000, interval: 200 } } });
    podium = await startPodium();
    browser = await openBrowser();
    scratch = mkdtempSync(path.join(tmpdir(), 'paper-e2e-'));
    const db = podium.db;
    const teacher = async (key: string, givenName: string, familyName: string) => {
      people[key] = (
        await podium.createUser({
          email: `${key}@profesori.example.ro`,
          password: PASSWORD,
          type: 'teacher',
          givenName,
          familyName,
          teacherCode: `${key.toUpperCase()}-COD`,
        })
      ).id;
    };
    await teacher('ioana', 'Ioana', 'Dinu');
    await teacher('radu', 'Radu', 'Matei');
    await teacher('ana', 'Ana', 'Pop');
    await teacher('mihai', 'Mihai', 'Stoica');
    const exam = await makeExam(db, {
      name: 'Olimpiada de Matematică',
      grades: [7],
      adminTeacherIds: [people.ioana ?? ''],
    });
    const edition = await makeEdition(db, { examId: exam.id, name: 'Ediția 2026' });
    const now = Date.now();
    const phase = await makePhase(db, {
      editionId: edition.id,
      name: 'Etapa județeană',
      type: 'hybrid',
      startDate: new Date(now - 24 * HOUR),
      endDate: new Date(now + 6 * 24 * HOUR),
    });
    const { test, questions: qs } = await makeTestWithItems(db, {
      phaseId: phase.id,
      name: 'Subiectul clasei a VII-a',
      grades: [7],
      startDate: new Date(now - 2 * HOUR),
      endDate: new Date(now - HOUR),
      durationMinutes: 60,
      items: [
        {
          itemQ: 'Calculați $\\frac{1}{2} + \\frac{1}{3}$.',
          itemType: 'open',
          itemAnswers: [],
          itemCorrectAnswers: null,
          score: 10,
        },
        {
          itemQ: 'Demonstrați că $\\sqrt{2}$ este irațional.',
          itemType: 'open',
          itemAnswers: [],
          itemCorrectAnswers: null,
          score: 20,
        },
      ],
    });
    ids.exam = exam.id;
    ids.edition = edition.id;
    ids.phase = phase.id;
    ids.test = test.id;
    for (const q of qs) {
      await db.insert(questionReviewers).values([
        { questionId: q.id, teacherId: people.radu ?? '' },
        { questionId: q.id, teacherId: people.ana ?? '' },
      ]);
      await db
        .update(questions)
        .set({ mediatorTeacherId: people.mihai })
        .where(eq(questions.id, q.id));
    }
    const students = [
      ['maria', 'Maria', 'Ionescu', '1'],
      ['andrei', 'Andrei', 'Popa', '2'],
    ] as const;
    for (const [key, givenName, familyName, seat] of students) {
      const { id } = await podium.createUser({
        email: `${key}@elevi.example.ro`,
        password: PASSWORD,
        type: 'student',
        givenName,
        familyName,
        grade: 7,
      });
      people[key] = id;
      await makeEnrolment(db, {
        editionId: edition.id,
        studentId: id,
        grade: 7,
        phaseIds: [phase.id],
      });
      await db
        .insert(paperSeats)
        .values({ testId: test.id, studentId: id, code: CODES[key], room: ROOM, seat });
    }
  });
  let current: Page | undefined;
  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail' && current && !current.isClosed()) {
      await shot(current, `failed-${ctx.task.name.slice(0, 40).replace(/\W+/g, '-')}`);
    }
  });
  afterAll(async () => {
    await browser?.close();
    await podium?.close();
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  const signIn = async (email: string, lang: Lang) => {
    const context = await browser.newContext({
      viewport: DESKTOP,
      locale: lang === 'ro' ? 'ro-RO' : 'en-GB',
      acceptDownloads: true,
    });
    await context.addInitScript((l) => {
      if (!window.localStorage.getItem('podium.language')) {
        window.localStorage.setItem('podium.language', JSON.stringify(l));
      }
    }, lang);
    const page = await context.newPage();
    await page.goto(`${podium.baseUrl}/`);
    await page.getByLabel(lang === 'ro' ? 'Adresa de e-mail' : 'E-mail address').fill(email);
    await page.getByLabel(lang === 'ro' ? 'Parola' : 'Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: lang === 'ro' ? 'Intră în cont' : 'Sign in' }).click();
    await expect.poll(() => page.getByTestId('sidebar-name').count()).toBe(1);
    current = page;
    return page;
  };

  const toast = (page: Page, text: string | RegExp) =>
    expect
      .poll(() =>
        page.getByRole('alert', { includeHidden: true }).filter({ hasText: text }).count(),
      )
      .toBeGreaterThan(0);

  /**
   * Holds the `nth` chunk of the next scan upload until `release` is called, then lets it
   * through, or drops its connection (`drop`), as a train going into a tunnel would.
   */
  const holdChunk = async (page: Page, nth: number, drop: boolean) => {
    let seen = 0;
    let release: () => void = () => {};
    const held = new Promise<void>((r) => {
      release = r;
    });
    let arrived: () => void = () => {};
    const waiting = new Promise<void>((r) => {
      arrived = r;
    });
    const pattern = /\/paper\/scans\/[0-9a-f-]+$/;
    // A request the page gave up on (its tab closed) is handled already: nothing to do then.
    const handler = async (route: Route) => {
      const mine = route.request().method() === 'PUT' && ++seen === nth;
      if (!mine) return route.continue().catch(() => undefined);
      arrived();
      await held;
      return (drop ? route.abort('connectionreset') : route.continue()).catch(() => undefined);
    };
    await page.route(pattern, handler);
    return { arrived: waiting, release: () => release() };
  };

  it('the exam admin makes a room’s booklets and downloads them', async () => {
    const page = await signIn('ioana@profesori.example.ro', 'ro');
    await page.goto(`${podium.baseUrl}${phaseUrl()}/test/${ids.test}`);
    await page.getByRole('link', { name: 'Examen pe hârtie: caiete și scanări' }).click();
    await expect
      .poll(() => page.getByRole('heading', { level: 1, name: 'Examen pe hârtie' }).count())
      .toBe(1);
    const section = page.getByRole('region', { name: 'Caiete de răspuns' });
    await expect.poll(() => section.getByRole('combobox', { name: 'Sala' }).innerText()).toBe(ROOM);
    await section.getByRole('button', { name: 'Generează caietele' }).click();
    await toast(page, 'Caietele se generează');
    await podium.runPaperJobs();
    const download = section.getByRole('button', { name: `Descarcă PDF: caietele din ${ROOM}` });
    await expect.poll(() => download.count()).toBe(1);
    await expect.poll(() => section.innerText()).toMatch(/Gata: 2 elevi/);
    const [file] = await Promise.all([page.waitForEvent('download'), download.click()]);
    const pdfPath = path.join(scratch, 'caiete.pdf');
    await file.saveAs(pdfPath);
    booklets = readFileSync(pdfPath);
    // Two students × (cover + 2 questions × 2 pages) + 2 spare pages.
    const info = execFileSync('pdfinfo', [pdfPath], { encoding: 'utf8' });
    expect(info).toMatch(/Pages:\s+12/);
    // The cover and an answer page as printed, pictured by poppler.
    mkdirSync(SCREENSHOTS, { recursive: true });
    for (const [n, name] of [
      [1, 'paper-booklet-cover'],
      [2, 'paper-booklet-page'],
    ] as const) {
      execFileSync('pdftoppm', [
        '-r',
        '60',
        '-png',
        '-singlefile',
        '-f',
        String(n),
        '-l',
        String(n),
        pdfPath,
        path.join(SCREENSHOTS, name),
      ]);
    }
    await shot(page, 'paper-booklets-ro');
    await page.context().close();
  }, 240_000);

  it('uploads the scan of the stack in one go, the connection dropping halfway', async () => {
    // The stack as the scanner gives it back: page 3 (Maria's question 1, page 2) smudged,
    // the two spare pages left for a person; 300 dpi, so the file takes a few pieces.
    const stack = await scanPages(booklets, {
      seed: 21,
      upsideDown: 0.2,
      blotted: [3],
      dpi: [300, 300],
    });
    const scan = await scanPdf(stack);
    expect(scan.length).toBeGreaterThan(2 * 1024 * 1024);
    const scanPath = path.join(scratch, 'scan-sala-12.pdf');
    writeFileSync(scanPath, scan);

    const page = await signIn('ioana@profesori.example.ro', 'ro');
    await page.goto(`${podium.baseUrl}${paperUrl()}`);
    const section = page.getByRole('region', { name: 'Încarcă scanarea' });
    const hold = await holdChunk(page, 2, true);
    await page.getByLabel('Alege scanarea (PDF sau ZIP)').setInputFiles(scanPath);
    await hold.arrived;
    await expect
      .poll(() => section.getByRole('status').innerText())
      .toMatch(/Trimis [\d,]+ MB din [\d,]+ MB/);
    await shot(page, 'paper-upload-progress-ro');
    hold.release();
    // The dropped piece is sent again from the bytes the server has, by itself.
    await expect
      .poll(() => section.getByRole('status').first().innerText(), { timeout: 120_000 })
      .toMatch(/Paginile se citesc/);
    await podium.runPaperJobs();
    await expect.poll(() => section.innerText()).toMatch(/12 pagini citite/);
    const summary = page.getByRole('region', { name: 'Situația pe săli' });
    await expect.poll(() => summary.innerText()).toMatch(/3 pagini așteaptă să fie potrivite/);
    await expect.poll(() => summary.innerText()).toMatch(/K7P-2QX[\s\S]*Î1 p\.2/);
    expect(await page.locator('main').innerText()).not.toContain('Ionescu');
    await page.context().close();
  }, 300_000);

  /** The exam admin asks to start the review from the phase page; the toast says how it went. */
  const startReview = async (expected: string) => {
    const page = await signIn('ioana@profesori.example.ro', 'ro');
    await page.goto(`${podium.baseUrl}${phaseUrl()}`);
    const section = page.getByRole('region', { name: 'Corectare' });
    await section.getByRole('button', { name: 'Începe corectarea' }).click();
    await page
      .getByRole('dialog', { name: 'Începeți corectarea?' })
      .getByRole('button', { name: 'Începe corectarea' })
      .click();
    await toast(page, expected);
    await page.context().close();
  };

  it('the review does not start while pages wait', async () => {
    await startReview('Încă sunt pagini scanate care așteaptă');
  }, 120_000);

  it('matches the unread pages by hand: code, question, Enter; a blank one set aside', async () => {
    const page = await signIn('ioana@profesori.example.ro', 'ro');
    await page.goto(`${podium.baseUrl}${paperUrl()}`);
    const matching = page.getByRole('region', { name: 'Pagini de potrivit' });
    await expect.poll(() => matching.getByText('3 în așteptare').count()).toBe(1);
    const image = matching.getByRole('img', { name: 'Pagina scanată 3' });
    await expect
      .poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0))
      .toBe(true);
    await shot(page, 'paper-matching-ro');
    // A code nobody has is refused by name, and nothing is stored.
    const code = matching.getByLabel('Codul elevului');
    await code.fill('ZZZ-ZZZ');
    await matching.getByRole('textbox', { name: 'Întrebarea', exact: true }).fill('1');
    await page.keyboard.press('Enter');
    await expect
      .poll(() => matching.getByText('Niciun elev al acestui test nu are acest cod.').count())
      .toBe(1);
    // As a person types it: lower case, no dash; the question follows by itself.
    await code.fill('');
    await code.pressSequentially('k7p2qx');
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute('inputmode')))
      .toBe('numeric');
    await page.keyboard.press('Backspace');
    await page.keyboard.type('1');
    await page.keyboard.press('Enter');
    await toast(page, 'Păstrată: K7P-2QX, întrebarea 1, pagina 2.');
    await expect.poll(() => matching.getByText('2 în așteptare').count()).toBe(1);
    await page.context().close();

    // The spare pages, in English: one written for Andrei's question 2, one left blank.
    const en = await signIn('ioana@profesori.example.ro', 'en');
    await en.goto(`${podium.baseUrl}${paperUrl()}`);
    const m = en.getByRole('region', { name: 'Pages to match' });
    await expect.poll(() => m.getByText('2 waiting').count()).toBe(1);
    await expect
      .poll(() =>
        m
          .getByRole('img', { name: /Scanned page \d+/ })
          .evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0),
      )
      .toBe(true);
    await shot(en, 'paper-matching-en');
    await m.getByLabel('Student code').pressSequentially('M4R-8TA');
    await en.keyboard.type('2');
    await en.keyboard.press('Enter');
    await toast(en, 'Stored: M4R-8TA, question 2, page 3.');
    await expect.poll(() => m.getByText('1 waiting').count()).toBe(1);
    await m.getByRole('button', { name: 'Set aside' }).click();
    await toast(en, 'The page was set aside.');
    await expect.poll(() => m.getByText('Every scanned page was read or matched.').count()).toBe(1);
    const summary = en.getByRole('region', { name: 'Summary per room' });
    await expect.poll(() => summary.innerText()).toMatch(/No page waits to be matched/);
    await shot(en, 'paper-summary-en');
    await en.context().close();
  }, 240_000);

  it('shows the upload with its progress in English too', async () => {
    // Any large file: it is sent in pieces like a scan, and refused by name once read.
    const junk = Buffer.alloc(3 * 1024 * 1024, 7);
    const junkPath = path.join(scratch, 'not-a-scan.pdf');
    writeFileSync(junkPath, junk);
    const page = await signIn('ioana@profesori.example.ro', 'en');
    await page.goto(`${podium.baseUrl}${paperUrl()}`);
    const section = page.getByRole('region', { name: 'Upload the scan' });
    const hold = await holdChunk(page, 2, false);
    await page.getByLabel('Choose the scan (PDF or ZIP)').setInputFiles(junkPath);
    await hold.arrived;
    await expect
      .poll(() => section.getByRole('status').innerText())
      .toMatch(/Sent [\d.]+ MB of 3 MB/);
    await shot(page, 'paper-upload-progress-en');
    hold.release();
    await expect.poll(() => section.getByRole('status').first().innerText()).toMatch(/being read/);
    await podium.runPaperJobs();
    await expect.poll(() => section.innerText()).toMatch(/Failed: /);
    await page.context().close();
  }, 240_000);

  it('the review starts, and a reviewer marks a scanned page blind', async () => {
    await startReview('Corectarea a început');

    const radu = await signIn('radu@profesori.example.ro', 'ro');
    await radu.goto(`${podium.baseUrl}${phaseUrl()}/corectare`);
    await radu.getByRole('tab', { name: /De corectat/ }).click();
    const open = radu.getByRole('link', { name: /^Deschide Întrebarea 1, / });
    await expect.poll(() => open.count()).toBeGreaterThan(0);
    await open.first().click();
    await expect
      .poll(() => radu.getByRole('heading', { level: 1, name: /lucrarea/ }).count())
      .toBe(1);
    const body = await radu.locator('main').innerText();
    for (const secret of ['Maria', 'Ionescu', 'Andrei', 'Popa', 'K7P-2QX', 'M4R-8TA']) {
      expect(body).not.toContain(secret);
    }
    await expect
      .poll(() =>
        radu
          .getByRole('img', { name: 'Pagina 1 a răspunsului' })
          .evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0),
      )
      .toBe(true);
    await radu.getByLabel(/^Nota \(0/).fill('7');
    await shot(radu, 'paper-marking-ro');
    await radu.getByRole('button', { name: 'Salvează nota' }).click();
    await toast(radu, 'Nota a fost salvată');
    await radu.context().close();
  }, 240_000);
});
