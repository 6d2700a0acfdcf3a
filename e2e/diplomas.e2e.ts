import { eq } from 'drizzle-orm';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeEdition, makeEnrolment, makeExam, makePhase } from '../server/db/factories.js';
import { diplomas, phasePrizes, phaseResults } from '../server/db/schema.js';
import { hasChromium, openBrowser, type Podium, shot, startPodium } from './harness.js';
import { LAPTOP, type Lang, openPage, PASSWORD, signInOn } from './session.js';

// Diplomas: a student downloads hers under My tests, its QR page confirms it to anyone (on a
// phone too), her teacher gets his students' diplomas as a ZIP, staff a whole phase's.
describe.skipIf(!hasChromium)('diplomas in the browser', () => {
  let podium: Podium;
  let browser: Browser;
  const ids = { exam: '', edition: '', phase: '' };

  beforeAll(async () => {
    podium = await startPodium();
    browser = await openBrowser();
    const db = podium.db;
    const staff = await podium.createUser({
      email: 'comisie@example.ro',
      password: PASSWORD,
      type: 'teacher',
      givenName: 'Mihaela',
      familyName: 'Stoica',
    });
    const radu = await podium.createUser({
      email: 'radu.matei@example.ro',
      password: PASSWORD,
      type: 'teacher',
      givenName: 'Radu',
      familyName: 'Matei',
      teacherCode: 'RADU-MATE',
    });
    const exam = await makeExam(db, {
      name: 'Olimpiada de Matematică',
      grades: [5, 6],
      staffTeacherIds: [staff.id],
    });
    const edition = await makeEdition(db, {
      examId: exam.id,
      name: '2025–2026',
      coordinatorIds: [radu.id],
    });
    const phase = await makePhase(db, {
      editionId: edition.id,
      name: 'Etapa județeană',
      startDate: new Date('2026-03-07T07:00:00Z'),
      endDate: new Date('2026-03-07T12:00:00Z'),
      state: 'closed',
    });
    Object.assign(ids, { exam: exam.id, edition: edition.id, phase: phase.id });
    const students = [
      ['ana.turcanu', 'Ana-Ștefania', 'Țurcanu', 5, 27, 'first'],
      ['ion.balan', 'Ion', 'Bălan', 5, 21, 'mention'],
      ['irina.sandu', 'Irina', 'Șandru', 6, 15, null],
    ] as const;
    for (const [login, givenName, familyName, grade, points, prize] of students) {
      const s = await podium.createUser({
        email: `${login}@example.ro`,
        password: PASSWORD,
        type: 'student',
        givenName,
        familyName,
        grade,
        county: 'Iași',
        school: 'Școala Gimnazială „Ștefan cel Mare” Iași',
        teacherRef: radu.id,
      });
      await makeEnrolment(db, {
        editionId: edition.id,
        studentId: s.id,
        grade,
        phaseIds: [phase.id],
      });
      // Totals and prizes as the results and rankings modules leave them after closing.
      await db
        .insert(phaseResults)
        .values({ phaseId: phase.id, studentId: s.id, points, tests: 1 });
      if (prize) await db.insert(phasePrizes).values({ phaseId: phase.id, studentId: s.id, prize });
    }
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await podium?.close();
  });

  const open = (lang: Lang, viewport = LAPTOP) =>
    openPage(browser, lang, { viewport, acceptDownloads: true });

  const signIn = async (email: string, lang: Lang = 'ro') =>
    signInOn(await open(lang), podium.baseUrl, email, { lang });

  /** Clicks the download of a diploma; the server sends the PDF. */
  const downloadFrom = async (page: Page, name: RegExp) => {
    const response = page.waitForResponse(
      (r) => r.url().endsWith('/diploma-generator/diplomas') && r.request().method() === 'POST',
    );
    await page.getByRole('button', { name }).first().click();
    const res = await response;
    expect(res.status()).toBe(200);
    expect(res.headers()['content-type']).toBe('application/pdf');
  };

  it('a student downloads her diploma from My tests, in Romanian and English', async () => {
    const page = await signIn('ana.turcanu@example.ro');
    await page.goto(`${podium.baseUrl}/tests`);
    await page.getByRole('link', { name: 'Diplomele mele' }).click();
    await expect.poll(() => page.getByText('Premiul I').count()).toBeGreaterThan(0);
    await expect.poll(() => page.getByText('Rezultate finale').count()).toBe(1);
    await shot(page, 'diplomas-student-ro');
    await downloadFrom(page, /Descarcă diploma/);

    const en = await signIn('ana.turcanu@example.ro', 'en');
    await en.goto(`${podium.baseUrl}/diploma`);
    await expect
      .poll(() => en.getByText('First prize', { exact: true }).count(), { timeout: 20_000 })
      .toBe(1);
    await shot(en, 'diplomas-student-en');
  });

  it("the diploma's QR page confirms it to anyone, on a phone too; an unknown code is not found", async () => {
    const [issued] = await podium.db.select().from(diplomas).where(eq(diplomas.phaseId, ids.phase));
    expect(issued).toBeDefined();
    const code = `${issued?.code.slice(0, 4)}-${issued?.code.slice(4, 8)}-${issued?.code.slice(8)}`;
    for (const lang of ['ro', 'en'] as const) {
      const page = await open(lang);
      await page.goto(`${podium.baseUrl}/diploma/verificare/${code}`);
      const title = lang === 'ro' ? 'Diplomă autentică' : 'Genuine diploma';
      await expect.poll(() => page.getByRole('heading', { name: title }).count()).toBe(1);
      await expect.poll(() => page.getByText('Ana-Ștefania Țurcanu').count()).toBe(1);
      expect(await page.getByText('ana.turcanu@example.ro').count()).toBe(0);
      await shot(page, `diplomas-verify-${lang}`);
    }
    const phone = await open('ro', { width: 390, height: 844 });
    await phone.goto(`${podium.baseUrl}/diploma/verificare/${code.toLowerCase()}`);
    await expect.poll(() => phone.getByText('Premiul I').count(), { timeout: 20_000 }).toBe(1);
    await shot(phone, 'diplomas-verify-phone-ro');
    await phone.goto(`${podium.baseUrl}/diploma/verificare/0000-0000-0000`);
    await expect
      .poll(() => phone.getByRole('heading', { name: 'Diplomă negăsită' }).count())
      .toBe(1);
    await shot(phone, 'diplomas-verify-unknown-ro');
  });

  it("the teacher downloads his diploma and gets his students' as a ZIP with progress", async () => {
    const page = await signIn('radu.matei@example.ro');
    // The page is in the teacher's menu.
    await page.getByRole('navigation').getByRole('link', { name: 'Diplome' }).click();
    await page.waitForURL(/\/diploma\/teacher$/);
    await expect.poll(() => page.getByText('Diplomă de profesor coordonator').count()).toBe(1);
    await downloadFrom(page, /Descarcă diploma pentru Radu Matei/);
    await page.getByRole('button', { name: 'Generează arhiva' }).click();
    await expect.poll(() => page.getByRole('status').textContent()).toContain('În așteptare');
    await shot(page, 'diplomas-teacher-queued-ro');
    expect(await podium.runDiplomaJobs()).toBe(1);
    const download = page.getByRole('button', { name: /Descarcă arhiva \(4 diplome\)/ });
    await expect.poll(() => download.count(), { timeout: 10_000 }).toBe(1);
    await shot(page, 'diplomas-teacher-ro');
    const file = page.waitForEvent('download');
    await download.click();
    expect((await file).suggestedFilename()).toBe('diplome-etapa-judeteana-matei-radu.zip');
  });

  it("staff make a whole phase's ZIP from the phase page, in English", async () => {
    const page = await signIn('comisie@example.ro', 'en');
    await page.goto(
      `${podium.baseUrl}/examene/${ids.exam}/editii/${ids.edition}/phases/${ids.phase}`,
    );
    await page.getByRole('button', { name: 'Make the archive' }).click();
    await expect.poll(() => page.getByRole('status').count()).toBe(1);
    expect(await podium.runDiplomaJobs()).toBe(1);
    const download = page.getByRole('button', { name: /Download the archive \(4 diplomas\)/ });
    await expect.poll(() => download.count(), { timeout: 10_000 }).toBe(1);
    await shot(page, 'diplomas-phase-en');
  });
  it('once the holder was anonymised, the QR page confirms the diploma and names nobody', async () => {
    const rows = await podium.db.select().from(diplomas).where(eq(diplomas.phaseId, ids.phase));
    const ana = rows.find((r) => r.name === 'Ana-Ștefania Țurcanu');
    expect(ana?.kind).toBe('student');
    const raw = ana?.code ?? '';
    // What anonymising leaves on the diploma (server/modules/diplomas/personal-data.ts).
    await podium.db
      .update(diplomas)
      .set({ name: '', school: null, grade: null, anonymisedAt: new Date() })
      .where(eq(diplomas.code, raw));
    const code = `${raw.slice(0, 4)}-${raw.slice(4, 8)}-${raw.slice(8)}`;
    const expected = {
      ro: [
        'Diplomă validă. Datele titularului au fost șterse la cererea sa',
        'Șters la cererea titularului',
      ],
      en: [
        "Valid diploma. The holder's data was erased at their request",
        "Erased at the holder's request",
      ],
    } as const;
    for (const lang of ['ro', 'en'] as const) {
      const page = await open(lang);
      await page.goto(`${podium.baseUrl}/diploma/verificare/${code}`);
      await expect.poll(() => page.getByText(expected[lang][1]).count()).toBe(1);
      expect(await page.getByText(expected[lang][0]).count()).toBe(1);
      // The prize stays: "Premiul I", in English "First prize".
      expect(
        await page.getByText(lang === 'ro' ? 'Premiul I' : 'First prize', { exact: true }).count(),
      ).toBe(1);
      expect(await page.getByText('Țurcanu').count()).toBe(0);
      await shot(page, `diplomas-verify-anonymised-${lang}`);
    }
  });
});
