import { eq } from 'drizzle-orm';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  makeEdition,
  makeEnrolment,
  makeExam,
  makePhase,
  makeTestWithItems,
} from '../server/db/factories.js';
import { answers, phaseResults, phaseStudents, testResults, users } from '../server/db/schema.js';
import { uuidv7 } from '../server/lib/ids.js';
import { hasChromium, openBrowser, type Podium, shot, startPodium } from './harness.js';
import { type Lang, openSignedIn, PASSWORD } from './session.js';

const DAY = 24 * 3_600_000;
const LONG = 400_000;

const eventually = <T>(fn: () => T | Promise<T>) =>
  expect.poll(fn, { timeout: 45_000, interval: 150 });

/**
 * A county phase of grade 7, marked: each student's marks on the three problems (7 points
 * each). Ana and Bia live in Bucharest's sector 1, Cip in sector 2; Dan's sector was never
 * set. Eva and Fil (Cluj) tie on 15 and differ on the last problem.
 */
const STUDENTS = [
  { given: 'Ana', county: 'București', sector: 1, marks: [7, 7, 6] },
  { given: 'Bia', county: 'București', sector: 1, marks: [7, 7, 5] },
  { given: 'Cip', county: 'București', sector: 2, marks: [5, 5, 5] },
  { given: 'Dan', county: 'București', sector: null, marks: [7, 7, 4] },
  { given: 'Eva', county: 'Cluj', sector: null, marks: [7, 5, 3] },
  { given: 'Fil', county: 'Cluj', sector: null, marks: [5, 3, 7] },
] as const;

// The olympiad's rules on the rules page: the county preset read from the server, Bucharest's
// sectors counted as counties (the dry run names who has no sector and apply waits for an
// explicit yes), the tie-break by the last problem; the same page in English, and the
// students list showing whose sector is missing.
describe.skipIf(!hasChromium)("the olympiad's rules in the browser", () => {
  let podium: Podium;
  let browser: Browser;
  const ids = { examId: '', editionId: '', phaseId: '', testId: '' };
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
    const exam = await makeExam(podium.db, { name: 'Olimpiada de Matematică', grades: [7] });
    const edition = await makeEdition(podium.db, { examId: exam.id, name: 'Ediția 2026' });
    const now = Date.now();
    const phase = await makePhase(podium.db, {
      editionId: edition.id,
      name: 'Etapa județeană',
      startDate: new Date(now - 3 * DAY),
      endDate: new Date(now - DAY),
    });
    Object.assign(ids, { examId: exam.id, editionId: edition.id, phaseId: phase.id });
    const { test, questions } = await makeTestWithItems(podium.db, {
      phaseId: phase.id,
      grades: [7],
      name: 'Clasa a VII-a',
      items: [{ score: 7 }, { score: 7 }, { score: 7 }],
    });
    ids.testId = test.id;
    for (const s of STUDENTS) {
      const { id } = await podium.createUser({
        email: `${s.given.toLowerCase()}@example.ro`,
        password: PASSWORD,
        type: 'student',
        givenName: s.given,
        familyName: 'Elev',
        county: s.county,
        bucharestSector: s.sector,
        grade: 7,
      });
      await makeEnrolment(podium.db, {
        editionId: edition.id,
        studentId: id,
        grade: 7,
        phaseIds: [phase.id],
      });
      const total = s.marks.reduce((a, b) => a + b, 0);
      await podium.db
        .insert(testResults)
        .values({ testId: test.id, studentId: id, phaseId: phase.id, points: total });
      await podium.db
        .insert(phaseResults)
        .values({ phaseId: phase.id, studentId: id, points: total, awaitingItems: 0, tests: 1 });
      await podium.db.insert(answers).values(
        questions.map((q, i) => ({
          id: uuidv7(),
          testId: test.id,
          studentId: id,
          questionId: q.id,
          score: s.marks[i],
          scoreOrigin: 'auto' as const,
          scoreState: 'decided' as const,
        })),
      );
    }
  }, LONG);
  afterAll(async () => {
    await browser?.close();
    await podium?.close();
  });

  const signIn = (lang: Lang, email = 'admin@example.ro') =>
    openSignedIn(browser, podium.baseUrl, email, lang, {
      timeout: 60_000,
      until: 'form-gone',
    });

  const choose = async (page: Page, label: string, option: string) => {
    await page.getByRole('combobox', { name: label }).click();
    await page.getByRole('option', { name: option, exact: true }).click();
    await eventually(() => page.getByRole('listbox').count()).toBe(0);
  };
  const admittedRows = (page: Page) =>
    page
      .getByRole('table', { name: /^Admiși \(/ })
      .locator('tbody tr')
      .allInnerTexts();

  it(
    'loads the county preset from the server, counts the sectors and breaks ties by the last problem',
    async () => {
      const page = await signIn('ro');
      await page.goto(`${podium.baseUrl}${phaseUrl()}/reguli`);
      const presets = page.getByRole('region', { name: 'Porniți de la regulile olimpiadei' });
      await eventually(() =>
        presets.getByText('Etapa județeană, cu calificare la etapa națională').count(),
      ).toBe(1);
      await presets.getByRole('button', { name: 'Folosește aceste reguli' }).first().click();
      const sectors = page.getByLabel('Sectoarele Bucureștiului contează ca județe');
      await expect(sectors.isChecked()).resolves.toBe(true);
      await choose(
        page,
        'Punctaje egale',
        'Departajate după punctajul ultimei întrebări, apoi al celei dinainte…',
      );
      await page.getByRole('button', { name: 'Salvează regulile' }).click();

      // Saved and run: Dan has no sector, so he is named and apply waits for a yes.
      const missing = page.getByTestId('missing-sectors');
      await eventually(() => missing.innerText()).toContain('Elev Dan');
      await expect(missing.innerText()).resolves.toContain(
        'Un elev din București nu are sectorul completat',
      );
      const blocked = page.getByTestId('apply-blocked');
      await eventually(() => blocked.innerText()).toContain('Completați sectorul');
      const apply = page.getByRole('button', { name: 'Aplică regulile' });
      await expect(apply.isDisabled()).resolves.toBe(true);
      // Sector 1's best, sector 2's best and Cluj's best by the last problem (Fil, 7 on it)
      // take county places; the extra places go on down the ranking.
      await page.getByRole('tab', { name: /^Admiși/ }).click();
      await eventually(async () => (await admittedRows(page)).join('\n')).toContain(
        'București, sectorul 2',
      );
      const rows = await admittedRows(page);
      expect(rows.find((r) => r.includes('Elev Fil'))).toMatch(/Cluj/);
      expect(rows.find((r) => r.includes('Elev Dan'))).toMatch(/sector necompletat/);
      await shot(page, 'olympiad-rules-sectors-ro');

      await page.getByLabel('Aplică totuși: acești elevi nu ocupă locul niciunui sector').check();
      await eventually(() => apply.isEnabled()).toBe(true);
      await apply.click();
      const dialog = page.getByRole('dialog', { name: 'Aplicați regulile?' });
      await dialog.getByRole('button', { name: 'Aplică regulile' }).click();
      await eventually(() =>
        page
          .getByRole('alert', { includeHidden: true })
          .filter({ hasText: 'Regulile au fost aplicate.' })
          .count(),
      ).toBeGreaterThan(0);
      const admitted = await podium.db
        .select({ result: phaseStudents.result })
        .from(phaseStudents)
        .where(eq(phaseStudents.phaseId, ids.phaseId));
      expect(admitted.filter((r) => r.result === 'admitted')).toHaveLength(STUDENTS.length);
      await page.context().close();
    },
    LONG,
  );

  it(
    'offers the sector rule and the tie-break in English, and shows whose sector is missing',
    async () => {
      const page = await signIn('en');
      await page.goto(`${podium.baseUrl}${phaseUrl()}/reguli`);
      await eventually(() =>
        page.getByText('County phase, qualifying to the national one').count(),
      ).toBe(1);
      await expect(
        page.getByLabel("Bucharest's sectors count as counties").isChecked(),
      ).resolves.toBe(true);
      await expect(
        page.getByRole('combobox', { name: 'Equal totals' }).innerText(),
      ).resolves.toContain("Broken by the last problem's points");
      await page.getByRole('button', { name: 'Dry run' }).click();
      await eventually(() => page.getByTestId('missing-sectors').innerText()).toContain(
        "1 Bucharest student's sector is not set",
      );
      await shot(page, 'olympiad-rules-sectors-en');

      await page.goto(`${podium.baseUrl}/elevi`);
      await eventually(() => page.getByText('București, sector 2').count()).toBe(1);
      await expect(page.getByText('(sector not set)').count()).resolves.toBe(1);
      await shot(page, 'olympiad-rules-students-en');
      await page.context().close();
    },
    LONG,
  );

  it(
    'asks a Bucharest student without a sector for it on the profile, and keeps it',
    async () => {
      const page = await signIn('ro', 'dan@example.ro');
      await page.goto(`${podium.baseUrl}/profil`);
      const sector = page.getByRole('combobox', { name: 'Sector' });
      await eventually(() => sector.count()).toBe(1);
      await sector.click();
      await page.getByRole('option', { name: 'Sectorul 3', exact: true }).click();
      await shot(page, 'olympiad-rules-profile-sector-ro');
      await page.getByRole('button', { name: 'Salvează' }).click();
      await eventually(() =>
        page
          .getByRole('alert', { includeHidden: true })
          .filter({ hasText: 'Profilul a fost actualizat' })
          .count(),
      ).toBeGreaterThan(0);
      const [dan] = await podium.db
        .select({ sector: users.bucharestSector })
        .from(users)
        .where(eq(users.email, 'dan@example.ro'));
      expect(dan?.sector).toBe(3);
      await page.context().close();
    },
    LONG,
  );
  it(
    "lets an admin set a sector, filters the phase's students by it, shows it in the test's list",
    async () => {
      // After the profile test Dan is in sector 3; an admin moves him to sector 4.
      const page = await signIn('ro');
      await page.goto(`${podium.baseUrl}/elevi`);
      await page.getByRole('button', { name: 'Sectorul lui Elev Dan' }).click();
      const dialog = page.getByRole('dialog', { name: 'Sectorul elevului' });
      await dialog.getByRole('combobox', { name: 'Sector' }).click();
      await page.getByRole('option', { name: 'Sectorul 4', exact: true }).click();
      await shot(page, 'olympiad-rules-admin-sector-ro', { fullPage: false });
      await dialog.getByRole('button', { name: 'Salvează sectorul' }).click();
      await eventually(() => dialog.count()).toBe(0);
      await eventually(async () => {
        const [dan] = await podium.db
          .select({ sector: users.bucharestSector })
          .from(users)
          .where(eq(users.email, 'dan@example.ro'));
        return dan?.sector;
      }).toBe(4);
      // Only Bucharest students have the button.
      await expect(
        page.getByRole('button', { name: 'Sectorul lui Elev Eva' }).count(),
      ).resolves.toBe(0);

      await page.goto(`${podium.baseUrl}${phaseUrl()}`);
      const filters = page.getByRole('region', { name: 'Filtrele elevilor' });
      await eventually(() => page.getByText('București, sectorul 4').count()).toBe(1);
      await expect(filters.getByRole('combobox', { name: 'Sector' }).count()).resolves.toBe(0);
      const pick = async (label: string, option: string) => {
        await filters.getByRole('combobox', { name: label }).click();
        await page.getByRole('option', { name: option, exact: true }).click();
        await eventually(() => page.getByRole('listbox').count()).toBe(0);
      };
      await pick('Județ', 'București');
      await pick('Sector', 'Sectorul 1');
      const table = page.getByRole('table', { name: 'Elevii etapei' });
      const given = /\b(Ana|Bia|Cip|Dan|Eva|Fil)\b/;
      await eventually(async () =>
        (await table.locator('tbody tr').allInnerTexts()).map((r) => given.exec(r)?.[1]).sort(),
      ).toEqual(['Ana', 'Bia']);
      await shot(page, 'olympiad-rules-phase-sector-filter-ro');

      await page.goto(`${podium.baseUrl}${phaseUrl()}/test/${ids.testId}`);
      await eventually(() => page.getByText('București, sectorul 2').count()).toBe(1);
      await shot(page, 'olympiad-rules-test-students-ro');
      await page.context().close();
    },
    LONG,
  );

  for (const lang of ['ro', 'en'] as const) {
    it(
      `says on the help page what the presets do (${lang})`,
      async () => {
        const page = await signIn(lang);
        await page.goto(`${podium.baseUrl}/ajutor`);
        const question =
          lang === 'ro'
            ? 'Ce fac regulile olimpiadei din pagina „Calificare și premii”?'
            : 'What do the olympiad rule sets on the "Qualification and prizes" page do?';
        await page.getByRole('button', { name: question }).click();
        const answer = page.getByText(
          lang === 'ro' ? 'Modelele sunt fixe' : 'The rule sets are fixed',
          { exact: false },
        );
        await eventually(() => answer.isVisible()).toBe(true);
        const text = await answer.innerText();
        expect(text).toContain(
          lang === 'ro' ? 'sectoare ale Bucureștiului' : "Bucharest's six sectors",
        );
        expect(text).toContain(lang === 'ro' ? 'lista „Elevi”' : 'the Students list');
        await shot(page, `olympiad-rules-help-${lang}`);
        await page.context().close();
      },
      LONG,
    );
  }
});
