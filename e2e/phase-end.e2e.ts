import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  makeEdition,
  makeEnrolment,
  makeExam,
  makePhase,
  makeTestWithItems,
} from '../server/db/factories.js';
import {
  answers,
  phasePrizes,
  phaseResults,
  phaseStudents,
  phases,
  reviewEntries,
} from '../server/db/schema.js';
import { uuidv7 } from '../server/lib/ids.js';
import { hasChromium, openBrowser, type Podium, shot, startPodium } from './harness.js';
import { LAPTOP, openPage, PASSWORD, signInOn } from './session.js';

const DAY = 86_400_000;
const SCHOOL = 'Școala Gimnazială nr. 7';

/** Polls until the expectation holds: the app fetches and animates, the machine is shared. */
const eventually = <T>(fn: () => T | Promise<T>) =>
  expect.poll(fn, { timeout: 45_000, interval: 150 });
/** A journey's own time: a shared machine can make each step take seconds. */
const LONG = 400_000;

/** Whether poppler's tools are here (pdftotext reads the code, pdftoppm draws the page). */
const hasPoppler = (() => {
  try {
    execFileSync('pdftotext', ['-v'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

/**
 * The county phase's students (grade, county, phase total). With the county preset (at least
 * 14 points, one place per county and grade, then extra places; prizes from 25.5, 22.5, 19.5
 * and 14): all but Irina (12) are admitted; Ana wins Premiul I, Ion II, Elena III, Mihai a
 * mention.
 */
const STUDENTS = [
  { login: 'ana', given: 'Ana-Ștefania', family: 'Țurcanu', grade: 5, county: 'Iași', total: 27.5 },
  { login: 'ion', given: 'Ion', family: 'Bălan', grade: 5, county: 'Iași', total: 23 },
  { login: 'mihai', given: 'Mihai', family: 'Pop', grade: 5, county: 'Cluj', total: 15 },
  { login: 'irina', given: 'Irina', family: 'Șandru', grade: 5, county: 'Cluj', total: 12 },
  { login: 'elena', given: 'Elena', family: 'Stan', grade: 6, county: 'Timiș', total: 20 },
] as const;

// The end of a county phase, from the commission's rules to a diploma anyone can check: the
// exam admin loads the county preset, sees in a dry run who would go on and who would win,
// applies it and closes the phase (the admitted move to the national phase); the winner
// downloads her diploma, whose printed code and address (the QR code's) open the public page
// that confirms it and shows nothing else about her.
describe.skipIf(!hasChromium || !hasPoppler)(
  'a phase ends: rules, closing, a diploma checked',
  () => {
    let podium: Podium;
    let browser: Browser;
    let scratch: string;
    const ids = { exam: '', edition: '', county: '', national: '' };
    const people: Record<string, string> = {};
    const phaseUrl = () => `/examene/${ids.exam}/editii/${ids.edition}/phases/${ids.county}`;
    let pdf: Buffer | undefined;

    // A failed step leaves a picture of where it stopped.
    let current: Page | undefined;
    afterEach(async (ctx) => {
      if (ctx.task.result?.state === 'fail' && current && !current.isClosed()) {
        await shot(current, `failed-phase-end-${ctx.task.name.slice(0, 40).replace(/\W+/g, '-')}`);
      }
    });

    beforeAll(async () => {
      scratch = mkdtempSync(path.join(tmpdir(), 'phase-end-'));
      podium = await startPodium();
      browser = await openBrowser();
      const db = podium.db;
      const examAdmin = await podium.createUser({
        email: 'comisie@example.ro',
        password: PASSWORD,
        type: 'teacher',
        givenName: 'Mihaela',
        familyName: 'Stoica',
      });
      const teacher = await podium.createUser({
        email: 'radu.matei@example.ro',
        password: PASSWORD,
        type: 'teacher',
        givenName: 'Radu',
        familyName: 'Matei',
        teacherCode: 'RADU-MATEI',
      });
      const exam = await makeExam(db, {
        name: 'Olimpiada de Matematică',
        grades: [5, 6],
        adminTeacherIds: [examAdmin.id],
      });
      const edition = await makeEdition(db, { examId: exam.id, name: '2025–2026' });
      const now = Date.now();
      // Written last week, no appeal window: its results are complete and final to rank.
      const county = await makePhase(db, {
        editionId: edition.id,
        name: 'Etapa județeană',
        startDate: new Date(now - 8 * DAY),
        endDate: new Date(now - 7 * DAY),
      });
      const national = await makePhase(db, {
        editionId: edition.id,
        name: 'Etapa națională',
        startDate: new Date(now + 30 * DAY),
        endDate: new Date(now + 31 * DAY),
      });
      Object.assign(ids, {
        exam: exam.id,
        edition: edition.id,
        county: county.id,
        national: national.id,
      });
      for (const s of STUDENTS) {
        const { id } = await podium.createUser({
          email: `${s.login}@example.ro`,
          password: PASSWORD,
          type: 'student',
          givenName: s.given,
          familyName: s.family,
          grade: s.grade,
          county: s.county,
          school: SCHOOL,
          teacherRef: teacher.id,
        });
        people[s.login] = id;
        await makeEnrolment(db, {
          editionId: edition.id,
          studentId: id,
          grade: s.grade,
          phaseIds: [county.id],
        });
        // The phase total as the results module leaves it once every paper is marked.
        await db
          .insert(phaseResults)
          .values({ phaseId: county.id, studentId: id, points: s.total, tests: 1 });
      }
    }, LONG);
    afterAll(async () => {
      await browser?.close();
      await podium?.close();
      if (scratch) rmSync(scratch, { recursive: true, force: true });
    });

    const open = async (viewport = LAPTOP) => {
      current = await openPage(browser, 'ro', { viewport, acceptDownloads: true, timeout: 60_000 });
      return current;
    };

    const signIn = async (email: string) =>
      signInOn(await open(), podium.baseUrl, email, { timeout: 45_000 });

    const toast = (page: Page, text: string) =>
      eventually(() =>
        page.getByRole('alert', { includeHidden: true }).filter({ hasText: text }).count(),
      ).toBeGreaterThan(0);

    const rowTexts = (page: Page, name: RegExp) =>
      page.getByRole('table', { name }).locator('tbody tr').allInnerTexts();

    it(
      'the exam admin tries the county rules, applies them and closes the phase',
      async () => {
        const page = await signIn('comisie@example.ro');
        await page.goto(`${podium.baseUrl}${phaseUrl()}`);
        await page.getByRole('link', { name: 'Clasament' }).click();
        await page.waitForURL(/\/clasament$/);
        await page.getByRole('link', { name: 'Calificare și premii' }).click();
        await page.waitForURL(/\/reguli$/);

        await page
          .getByRole('region', { name: 'Porniți de la regulile olimpiadei' })
          .getByRole('button', { name: 'Folosește aceste reguli' })
          .first()
          .click();
        await page.getByRole('button', { name: 'Salvează regulile' }).click();
        await toast(page, 'Regulile au fost salvate.');
        await page.getByRole('button', { name: 'Simulează' }).click();
        const apply = page.getByRole('button', { name: 'Aplică regulile' });
        await eventually(() => apply.isEnabled()).toBe(true);

        // Who would go on: three of grade 5 (Irina is under the minimum) and Elena of grade 6.
        await page.getByRole('tab', { name: /^Admiși/ }).click();
        const admitted = () => rowTexts(page, /^Admiși \(/);
        await eventually(async () => (await admitted()).length).toBe(4);
        const admittedText = (await admitted()).join('\n');
        for (const name of ['Țurcanu Ana-Ștefania', 'Bălan Ion', 'Pop Mihai', 'Stan Elena']) {
          expect(admittedText).toContain(name);
        }
        expect(admittedText).not.toContain('Șandru');
        // Who would win, by the county's score bands.
        await page.getByRole('tab', { name: /^Premii/ }).click();
        const awarded = () => rowTexts(page, /^Premii \(/);
        await eventually(awarded).toContainEqual(
          expect.stringMatching(/Țurcanu Ana-Ștefania.*Premiul I$/s),
        );
        const prizes = await awarded();
        expect(prizes).toHaveLength(4);
        expect(prizes).toContainEqual(expect.stringMatching(/Bălan Ion.*Premiul al II-lea$/s));
        expect(prizes).toContainEqual(expect.stringMatching(/Stan Elena.*Premiul al III-lea$/s));
        expect(prizes).toContainEqual(expect.stringMatching(/Pop Mihai.*Mențiune$/s));
        await shot(page, 'phase-end-dry-run-ro');

        // Nothing was written by the dry run.
        const prizesNow = () =>
          podium.db.select().from(phasePrizes).where(eq(phasePrizes.phaseId, ids.county));
        expect(await prizesNow()).toHaveLength(0);

        await apply.click();
        const dialog = page.getByRole('dialog', { name: 'Aplicați regulile?' });
        await dialog.getByRole('button', { name: 'Aplică regulile' }).click();
        await toast(page, 'Regulile au fost aplicate.');
        await eventually(async () => (await prizesNow()).length).toBe(4);
        const [anaPrize] = await podium.db
          .select({ prize: phasePrizes.prize })
          .from(phasePrizes)
          .where(
            and(eq(phasePrizes.phaseId, ids.county), eq(phasePrizes.studentId, people.ana ?? '')),
          );
        expect(anaPrize?.prize).toBe('first');

        // One paper still waits for its marks: closing is refused and lists it.
        const {
          test,
          questions: [item],
        } = await makeTestWithItems(podium.db, {
          phaseId: ids.county,
          items: [{ itemType: 'open', itemAnswers: [], itemCorrectAnswers: null }],
        });
        // A student outside the ranking, so that the paper's 0 moves nobody's total.
        const late = await podium.createUser({
          email: 'lucrare.deschisa@example.ro',
          password: PASSWORD,
          type: 'student',
          grade: 5,
        });
        const answerId = uuidv7();
        await podium.db.insert(answers).values({
          id: answerId,
          testId: test.id,
          studentId: late.id,
          questionId: item?.id ?? '',
          scoreState: 'awaiting_marking',
        });
        const entryId = uuidv7();
        await podium.db.insert(reviewEntries).values({
          id: entryId,
          phaseId: ids.county,
          testId: test.id,
          itemId: item?.id ?? '',
          answerId,
          studentId: late.id,
          itemIndexInTest: 0,
          code: 'E2E-OPEN-1',
          maxScore: 10,
        });
        // Closed from the phase's own page, which lists what is open.
        const rulesUrl = page.url();
        await page.goto(`${podium.baseUrl}${phaseUrl()}`);
        await page.getByRole('button', { name: 'Închide etapa', exact: true }).click();
        const closing = page.getByRole('dialog', { name: 'Închideți etapa?' });
        await closing.getByRole('button', { name: 'Închide etapa', exact: true }).click();
        await eventually(() => closing.getByText('1 lucrare de corectat').count()).toBe(1);
        await shot(page, 'phase-end-open-scores-ro');
        // Dismissed, the phase is still open.
        await closing.getByRole('button', { name: 'Închide', exact: true }).click();
        expect(
          (await podium.db.select().from(phases).where(eq(phases.id, ids.county)))[0]?.state,
        ).toBe('open');

        // Closed anyway, accepting that paper: it ends at 0, and the county phase (not the
        // edition's last) closes and moves the admitted on.
        await page.getByRole('button', { name: 'Închide etapa', exact: true }).click();
        await closing.getByRole('button', { name: 'Închide etapa', exact: true }).click();
        await eventually(() => closing.getByText('1 lucrare de corectat').count()).toBe(1);
        const anyway = closing.getByRole('button', { name: 'Închide etapa oricum', exact: true });
        // Offered only once the organiser has said they accept what is open.
        expect(await anyway.count()).toBe(0);
        await closing.getByRole('checkbox', { name: /Închide oricum, acceptând acestea/ }).check();
        await shot(page, 'phase-end-close-anyway-ro');
        await anyway.click();
        await toast(page, 'Etapa a fost închisă');
        const [settled] = await podium.db
          .select()
          .from(reviewEntries)
          .where(eq(reviewEntries.id, entryId));
        expect(settled).toMatchObject({ status: 'final' });
        expect(Number(settled?.finalScore)).toBe(0);
        await page.goto(rulesUrl);
        await eventually(() =>
          page.getByText('Etapa este închisă: rezultatele și premiile sunt definitive.').count(),
        ).toBeGreaterThan(0);
        const [closed] = await podium.db
          .select({ state: phases.state })
          .from(phases)
          .where(eq(phases.id, ids.county));
        expect(closed?.state).toBe('closed');
        const movedOn = await podium.db
          .select({ studentId: phaseStudents.studentId })
          .from(phaseStudents)
          .where(eq(phaseStudents.phaseId, ids.national));
        expect(movedOn.map((r) => r.studentId).sort()).toEqual(
          [people.ana, people.ion, people.mihai, people.elena].sort(),
        );
        await shot(page, 'phase-end-closed-ro');
        await page.context().close();
      },
      LONG,
    );

    it(
      'the winner downloads her diploma; it prints the code and the address of its check',
      async () => {
        const page = await signIn('ana@example.ro');
        await page.goto(`${podium.baseUrl}/diploma`);
        await eventually(() => page.getByText('Rezultate finale').count()).toBeGreaterThan(0);
        await eventually(() =>
          page.getByText('Premiul I', { exact: true }).count(),
        ).toBeGreaterThan(0);
        // The PDF opens in a tab of its own; the test keeps the bytes the server sent.
        let sent: { status: number; type: string | undefined; body: Buffer } | undefined;
        await page.route('**/diploma-generator/diplomas', async (route) => {
          const response = await route.fetch();
          sent = {
            status: response.status(),
            type: response.headers()['content-type'],
            body: await response.body(),
          };
          await route.fulfill({ response });
        });
        const popup = page.context().waitForEvent('page', { timeout: 60_000 });
        await page
          .getByRole('button', { name: 'Descarcă diploma pentru Ana-Ștefania Țurcanu' })
          .click();
        await eventually(() => sent?.status).toBe(200);
        expect(sent?.type).toBe('application/pdf');
        pdf = sent?.body;
        if (!pdf) throw new Error('no PDF was sent');
        expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
        await (await popup).close();

        // The PDF drawn as a picture, to look at (e2e/screenshots).
        const file = path.join(scratch, 'diploma.pdf');
        writeFileSync(file, pdf);
        const shots = path.resolve('e2e/screenshots');
        await mkdir(shots, { recursive: true });
        execFileSync('pdftoppm', [
          '-png',
          '-r',
          '80',
          '-singlefile',
          file,
          path.join(shots, 'phase-end-diploma'),
        ]);
        const text = execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
        expect(text).toContain('Ana-Ștefania Țurcanu');
        expect(text).toContain('Premiul I');
        expect(text).toContain('Etapa județeană');
        await page.context().close();
      },
      LONG,
    );

    it(
      "the diploma's address confirms it to anyone, and shows nothing else about her",
      async () => {
        if (!pdf) throw new Error('no diploma downloaded');
        const file = path.join(scratch, 'diploma.pdf');
        const text = execFileSync('pdftotext', ['-raw', file, '-'], { encoding: 'utf8' });
        const code = /Cod de verificare: ([0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4})/.exec(text)?.[1];
        expect(code).toBeDefined();
        // The address the QR code carries is printed under the code, on this server.
        const url = new RegExp(`${podium.baseUrl}/diploma/verificare/${code}`).exec(text)?.[0];
        expect(url).toBe(`${podium.baseUrl}/diploma/verificare/${code}`);

        // Anyone: a phone without an account.
        const page = await open({ width: 390, height: 844 });
        const answer = page.waitForResponse((r) => r.url().includes('/diploma-generator/verify/'));
        await page.goto(url ?? '');
        const verified = await answer;
        expect(verified.status()).toBe(200);
        // The check's answer carries only what the diploma prints (and whether its holder's
        // data was erased since).
        expect(Object.keys(await verified.json()).sort()).toEqual(
          [
            'anonymised',
            'code',
            'editionName',
            'examName',
            'grade',
            'issuedAt',
            'kind',
            'name',
            'phaseName',
            'prize',
            'replacedAt',
            'school',
            'studentCount',
          ].sort(),
        );
        await eventually(() =>
          page.getByRole('heading', { name: 'Diplomă autentică' }).count(),
        ).toBe(1);
        const shown = await page.locator('dl').innerText();
        for (const printed of [
          'Ana-Ștefania Țurcanu',
          'Olimpiada de Matematică',
          '2025–2026',
          'Etapa județeană',
          SCHOOL,
          'Premiul I',
          code ?? '',
        ]) {
          expect(shown).toContain(printed);
        }
        // Nothing the diploma does not print: no address, county, score, rank, teacher or decision.
        const everything = await page.locator('body').innerText();
        for (const hidden of [
          'ana@example.ro',
          'Iași',
          '27,5',
          '27.5',
          'Matei',
          'admis',
          'Locul',
        ]) {
          expect(everything).not.toContain(hidden);
        }
        await shot(page, 'phase-end-verified-phone-ro');
        await page.context().close();
      },
      LONG,
    );
  },
);
