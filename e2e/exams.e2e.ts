import { eq } from 'drizzle-orm';
import type { Browser, Page, Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestWithItems } from '../server/db/factories.js';
import { answers, attempts, exams, phases, users } from '../server/db/schema.js';
import { uuidv7 } from '../server/lib/ids.js';
import { recordMarkedScore, scoreEndedAttempts } from '../server/modules/results/index.js';
import { fillDate, hasChromium, openBrowser, type Podium, shot, startPodium } from './harness.js';
import { type Lang, openSignedIn, PASSWORD } from './session.js';

const EXAM = 'Olimpiada de Matematică';
const EDITION = 'Ediția 2026';
const PHASE_ONE = 'Etapa pe școală';
const PHASE_TWO = 'Etapa județeană';
/** The phase students' grade filter, not the "Clasa (opțional)" of the admission rules. */
const GRADE_FILTER = /^Clasa(?! \()/;

// Radu Matei coordinates three students; Ana Georgescu two. Elena Stan signs up herself.
const RADU_STUDENTS = [
  { familyName: 'Ionescu', givenName: 'Maria', grade: 9 },
  { familyName: 'Ștefănescu', givenName: 'Ștefan', grade: 9 },
  { familyName: 'Popa', givenName: 'Andrei', grade: 10 },
];
const ANA_STUDENTS = [
  { familyName: 'Albu', givenName: 'Ana', grade: 9 },
  { familyName: 'Barbu', givenName: 'Bogdan', grade: 10 },
];

const emailOf = (familyName: string) =>
  `${familyName.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase()}@elevi.example.ro`;

const pad = (n: number) => String(n).padStart(2, '0');
/** A date field's value `days` from now at `hour`:00, in the browser's (= this) time zone. */
const localAt = (days: number, hour: number) => {
  const d = new Date(Date.now() + days * 86_400_000);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(hour)}:00`;
};

// Competitions: exam → edition → phases, teachers' roles, enrolment, sign-up, results, closing.
describe.skipIf(!hasChromium)('competitions in the browser', () => {
  let podium: Podium;
  let browser: Browser;
  /** Filled as the journey goes: the pages the later steps open directly. */
  const urls = { exam: '', edition: '', phaseOne: '', phaseTwo: '' };

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
    const raduId = (
      await podium.createUser({
        email: 'radu.matei@example.ro',
        password: PASSWORD,
        type: 'teacher',
        givenName: 'Radu',
        familyName: 'Matei',
        county: 'Cluj',
        teacherCode: 'RADU-MATE',
      })
    ).id;
    const anaId = (
      await podium.createUser({
        email: 'ana.georgescu@example.ro',
        password: PASSWORD,
        type: 'teacher',
        givenName: 'Ana',
        familyName: 'Georgescu',
        county: 'Iași',
        teacherCode: 'ANA-IS',
      })
    ).id;
    for (const [teacherRef, list, county] of [
      [raduId, RADU_STUDENTS, 'Cluj'],
      [anaId, ANA_STUDENTS, 'Iași'],
    ] as const) {
      for (const s of list) {
        await podium.createUser({
          ...s,
          county,
          email: emailOf(s.familyName),
          password: PASSWORD,
          type: 'student',
          teacherRef,
        });
      }
    }
    await podium.createUser({
      email: 'elena.stan@example.ro',
      password: PASSWORD,
      type: 'student',
      givenName: 'Elena',
      familyName: 'Stan',
      county: 'Cluj',
      grade: 10,
      teacherRef: raduId,
    });
  });
  afterAll(async () => {
    await browser?.close();
    await podium?.close();
  });

  const signIn = (email: string, lang: Lang = 'ro') =>
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

  /** MUI names a select by its label and its value ("Clasa Toate"): match the label's start. */
  const choose = async (page: Page, combobox: string | RegExp, option: string) => {
    await page.getByRole('combobox', { name: combobox }).click();
    await page.getByRole('option', { name: option, exact: true }).click();
  };

  /** The text of one column of a table, top to bottom. */
  const column = async (page: Page, table: string, index: number) => {
    const rows = await page.getByRole('table', { name: table }).getByRole('row').all();
    const out: string[] = [];
    for (const row of rows.slice(1)) {
      const cells = row.getByRole('cell');
      if ((await cells.count()) > index) out.push((await cells.nth(index).innerText()).trim());
    }
    return out;
  };

  /** Calls the API as the signed-in user of the page (what a forced request would do). */
  const callApi = (page: Page, method: string, path: string, body?: unknown) =>
    page.evaluate(
      async ({ method, path, body }) => {
        const s = JSON.parse(window.localStorage.getItem('podium.session') ?? '{}');
        const res = await fetch(`/api/v1${path}`, {
          method,
          headers: {
            authorization: `Bearer ${s.token}`,
            userid: s.userId,
            ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        const json = await res.json().catch(() => null);
        return { status: res.status, code: json?.error?.code as string | undefined };
      },
      { method, path, body },
    );

  /** Checks or unchecks a teacher in a role's picker and waits for the saved message. */
  const pickTeacher = async (
    page: Page,
    card: string,
    teacher: string,
    message: string,
    picture?: string,
  ) => {
    await page
      .getByRole('region', { name: card })
      .getByRole('button', { name: 'Alege profesorii' })
      .click();
    const dialog = page.getByRole('dialog', { name: card });
    await dialog.getByLabel('Caută profesor').fill(teacher.split(' ')[0] ?? teacher);
    await dialog.getByRole('checkbox', { name: new RegExp(teacher) }).click();
    await toast(page, message);
    if (picture) await shot(page, picture);
    await dialog.getByRole('button', { name: 'Închide' }).click();
    await dialog.waitFor({ state: 'hidden' });
  };

  it('lets an admin create a competition, its staff, an edition and two phases', async () => {
    const page = await signIn('admin@example.ro');
    await page.getByRole('navigation').getByRole('link', { name: 'Concursuri' }).click();
    await page.waitForURL('**/examene');
    await expect.poll(() => page.getByText('Niciun concurs.').count()).toBe(1);

    await page.getByRole('button', { name: 'Adaugă concurs' }).click();
    const form = page.getByRole('dialog', { name: 'Adaugă concurs' });
    await form.getByRole('button', { name: 'Creează concursul' }).click();
    await expect.poll(() => form.getByText('Câmpul este obligatoriu').count()).toBe(3);
    await form.getByLabel('Numele concursului').fill(EXAM);
    await choose(page, 'Disciplina', 'Matematică');
    await page.getByRole('combobox', { name: 'Clasele' }).click();
    // Chosen out of order, shown sorted.
    await page.getByRole('option', { name: 'Clasa 10' }).click();
    await page.getByRole('option', { name: 'Clasa 9' }).click();
    await page.keyboard.press('Escape');
    await expect
      .poll(() => form.getByRole('combobox', { name: 'Clasele' }).innerText())
      .toBe('Clasa 9, Clasa 10');
    await form.getByLabel('Descriere').fill('Olimpiada pentru liceu.');
    await shot(page, 'exam-form-ro');
    await form.getByRole('button', { name: 'Creează concursul' }).click();
    await toast(page, 'Concursul a fost creat');
    await page.waitForURL(/\/examene\/[0-9a-f-]{36}$/);
    urls.exam = new URL(page.url()).pathname;
    await expect.poll(() => page.getByRole('heading', { name: EXAM }).count()).toBe(1);

    // Edit: the description changes.
    await page.getByRole('button', { name: 'Modifică concursul' }).click();
    const edit = page.getByRole('dialog', { name: 'Modifică concursul' });
    await edit.getByLabel('Descriere').fill('Olimpiada de matematică pentru liceu.');
    await edit.getByRole('button', { name: 'Salvează' }).click();
    await toast(page, 'Concursul a fost modificat');
    await expect
      .poll(() => page.getByText('Olimpiada de matematică pentru liceu.').count())
      .toBe(1);

    // Staff and admin teachers: checked, unchecked, each saved at once.
    await pickTeacher(
      page,
      'Membrii comisiei',
      'Georgescu Ana',
      'Profesorul a fost adăugat',
      'team-picker-ro',
    );
    await pickTeacher(page, 'Administratori concurs', 'Matei Radu', 'Profesorul a fost adăugat');
    await pickTeacher(page, 'Administratori concurs', 'Matei Radu', 'Profesorul a fost eliminat');
    const staffCard = page.getByRole('region', { name: 'Membrii comisiei' });
    await expect.poll(() => staffCard.getByText('Georgescu Ana').count()).toBe(1);
    // The competition admins are its question managers too (SPEC.md §6), and say so.
    const adminsCard = page.getByRole('region', { name: 'Administratori concurs' });
    expect(await adminsCard.getByText('Gestionarii întrebărilor', { exact: true }).count()).toBe(1);
    await shot(page, 'exam-detail-ro');

    await page.getByRole('button', { name: 'Adaugă ediție' }).click();
    const editionForm = page.getByRole('dialog', { name: 'Adaugă ediție' });
    await editionForm.getByLabel('Numele ediției').fill(EDITION);
    await editionForm.getByLabel('Anul').fill('2026');
    await editionForm.getByLabel('Termeni și condiții').fill('ftp://nu-merge');
    await editionForm.getByRole('button', { name: 'Creează ediția' }).click();
    await expect.poll(() => editionForm.getByText('Valoare incorectă').count()).toBe(1);
    await editionForm.getByLabel('Termeni și condiții').fill('https://example.ro/termeni');
    await editionForm.getByRole('button', { name: 'Creează ediția' }).click();
    await toast(page, 'Ediția a fost creată');
    await page.getByRole('link', { name: EDITION }).click();
    await page.waitForURL(/\/editii\/[0-9a-f-]{36}$/);
    urls.edition = new URL(page.url()).pathname;

    // The coordinator picker lists teachers by given name, given name first (SPEC.md §9).
    await pickTeacher(
      page,
      'Profesori coordonatori ai ediției',
      'Radu Matei',
      'Profesorul a fost adăugat',
    );

    // The first phase, with its end before its start: the server marks both dates.
    await page.getByRole('button', { name: 'Adaugă etapă' }).click();
    const phaseForm = page.getByRole('dialog', { name: 'Adaugă etapă' });
    await phaseForm.getByLabel('Numele etapei').fill(PHASE_ONE);
    await fillDate(phaseForm, 'Început', localAt(2, 9));
    await fillDate(phaseForm, 'Sfârșit', localAt(1, 9));
    await phaseForm.getByRole('button', { name: 'Creează etapa' }).click();
    await expect.poll(() => phaseForm.getByText('Dată invalidă').count()).toBe(2);
    await toast(page, 'Datele etapei nu sunt corecte.');
    await shot(page, 'phase-dates-ro');
    await fillDate(phaseForm, 'Sfârșit', localAt(2, 13));
    await phaseForm.getByRole('button', { name: 'Creează etapa' }).click();
    await toast(page, 'Etapa a fost creată');
    await phaseForm.waitFor({ state: 'hidden' });

    // The second phase overlapping the first, then after it.
    await page.getByRole('button', { name: 'Adaugă etapă' }).click();
    await phaseForm.getByLabel('Numele etapei').fill(PHASE_TWO);
    await choose(page, 'Tipul', 'Hibrid');
    await fillDate(phaseForm, 'Început', localAt(2, 12));
    await fillDate(phaseForm, 'Sfârșit', localAt(2, 15));
    await phaseForm.getByRole('button', { name: 'Creează etapa' }).click();
    await expect.poll(() => phaseForm.getByText('Dată invalidă').count()).toBe(2);
    await fillDate(phaseForm, 'Început', localAt(20, 9));
    await fillDate(phaseForm, 'Sfârșit', localAt(20, 13));
    // The marking settings, explained, start on the defaults and take a decimal comma.
    const threshold = phaseForm.getByLabel('Pragul de mediere (% din punctajul întrebării)');
    expect(await threshold.inputValue()).toBe('10');
    await expect(
      phaseForm.getByText('Când notele celor doi corectori diferă cu mai mult de atât').count(),
    ).resolves.toBe(1);
    await threshold.fill('150');
    await phaseForm.getByLabel('Pasul notelor (puncte)').fill('0,25');
    await phaseForm.getByLabel('Diferența minimă la contestație (puncte)').fill('1');
    await phaseForm.getByRole('button', { name: 'Creează etapa' }).click();
    await expect.poll(() => phaseForm.getByText('Valoare incorectă').count()).toBe(1);
    await threshold.fill('12,5');
    await shot(page, 'phase-marking-settings-ro', { fullPage: false });
    await phaseForm.getByRole('button', { name: 'Creează etapa' }).click();
    await toast(page, 'Etapa a fost creată');
    await expect.poll(() => column(page, 'Etape', 0)).toEqual([PHASE_ONE, PHASE_TWO]);
    const [hybridPhase] = await podium.db.select().from(phases).where(eq(phases.name, PHASE_TWO));
    expect([
      hybridPhase?.mediationThreshold,
      hybridPhase?.markStep,
      hybridPhase?.appealMinPoints,
    ]).toEqual([0.125, 0.25, 1]);
    // The same settings in English, with the decimal point.
    const en = await signIn('admin@example.ro', 'en');
    await en.goto(page.url());
    await en.getByRole('button', { name: 'Add phase' }).click();
    const enForm = en.getByRole('dialog', { name: 'Add phase' });
    expect(
      await enForm.getByLabel("Mediation threshold (% of the question's points)").inputValue(),
    ).toBe('10');
    expect(await enForm.getByLabel('Mark step (points)').inputValue()).toBe('0.5');
    await shot(en, 'phase-marking-settings-en', { fullPage: false });
    await en.context().close();

    // Enrol Ana's two students and Elena by hand; Elena is taken out again.
    await page.getByRole('button', { name: 'Adaugă elevi' }).click();
    const picker = page.getByRole('dialog', { name: 'Adaugă elevi în ediție' });
    await picker.getByRole('checkbox', { name: 'Selectează: Albu Ana' }).check();
    await picker.getByRole('checkbox', { name: 'Selectează: Barbu Bogdan' }).check();
    await picker.getByRole('checkbox', { name: 'Selectează: Stan Elena' }).check();
    await shot(page, 'add-students-ro');
    await picker.getByRole('button', { name: 'Adaugă 3 elevi' }).click();
    await toast(page, 'Elevul a fost adăugat în ediție');
    const students = 'Elevii ediției';
    await expect.poll(() => column(page, students, 1)).toEqual(['Albu', 'Barbu', 'Stan']);
    await page.getByRole('button', { name: 'Scoate din ediție: Stan Elena' }).click();
    await page
      .getByRole('dialog', { name: 'Scoateți elevii din ediție?' })
      .getByRole('button', { name: 'Scoate' })
      .click();
    await toast(page, 'Elevul a fost scos din ediție');
    await expect.poll(() => column(page, students, 1)).toEqual(['Albu', 'Barbu']);

    // Albu's grade (IX → X) and Barbu's exam location change.
    await page.getByRole('button', { name: 'Schimbă clasa: Albu Ana' }).click();
    await choose(page, 'Clasa', 'Clasa 10');
    await page.getByRole('button', { name: 'Salvează' }).click();
    await toast(page, 'Clasa elevului a fost schimbată');
    await expect.poll(() => column(page, students, 4)).toEqual(['Clasa 10', 'Clasa 10']);
    await page.getByRole('button', { name: 'Schimbă centrul de examen: Barbu Bogdan' }).click();
    await page.getByLabel('Centru de examen').fill('Colegiul Național Iași');
    await page.getByRole('button', { name: 'Salvează' }).click();
    await toast(page, 'Centrul de examen al elevului a fost schimbat');
    await expect
      .poll(() => page.getByRole('cell', { name: 'Colegiul Național Iași' }).count())
      .toBe(1);
    await shot(page, 'edition-ro');

    // The judge credentials, as download-cms-DD-MM-YYYY.xlsx.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Descarcă datele de acces' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^download-cms-\d{2}-\d{2}-\d{4}\.xlsx$/);

    const phaseLinks = page.getByRole('table', { name: 'Etape' }).getByRole('link');
    urls.phaseTwo = (await phaseLinks.nth(1).getAttribute('href')) ?? '';
    await phaseLinks.first().click();
    await page.waitForURL(/\/phases\/[0-9a-f-]{36}$/);
    urls.phaseOne = new URL(page.url()).pathname;
    // Nothing for teachers to mark yet (no test with an open question): no marking to start,
    // only the appeals.
    const panel = page.getByRole('region', { name: 'Contestații' });
    await expect
      .poll(() => panel.innerText())
      .toContain('Nicio întrebare din testele acestei etape nu se corectează de profesori');
    expect(await page.getByRole('button', { name: 'Începe corectarea' }).count()).toBe(0);
    expect(await page.getByText('Fiecare întrebare are nevoie de 2 corectori').count()).toBe(0);
    await shot(page, 'phase-nothing-to-mark-ro');
    // The switch shows the saved state, so it turns on once the server has answered.
    // Off, the switch reads as what it does, not as a fact ("sign-up is open") that is false.
    expect(await page.getByText('Înscrierile elevilor sunt deschise').count()).toBe(0);
    const registration = page.getByRole('switch', { name: 'Primește înscrieri de la elevi' });
    expect(await registration.isChecked()).toBe(false);
    await registration.click();
    await toast(page, 'Înscrierile au fost deschise');
    await expect.poll(() => registration.isChecked()).toBe(true);
    await page.context().close();
  }, 240_000);

  it('lets a coordinating teacher enrol all their students but change nothing else', async () => {
    const page = await signIn('radu.matei@example.ro');
    await page.getByRole('navigation').getByRole('link', { name: 'Concursuri' }).click();
    await page.getByRole('link', { name: EXAM }).click();
    await page.getByRole('link', { name: EDITION }).click();
    await page.waitForURL(`**${urls.edition}`);
    await expect.poll(() => page.getByRole('heading', { name: EDITION }).count()).toBe(1);
    expect(await page.getByRole('button', { name: 'Modifică ediția' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Adaugă etapă' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Toți elevii mei' }).click();
    await toast(page, 'elevi au fost înscriși în ediție');
    // A coordinator sees only their own students.
    await expect
      .poll(() => column(page, 'Elevii ediției', 1))
      .toEqual(['Ionescu', 'Popa', 'Stan', 'Ștefănescu']);
    await page.context().close();
  });

  it('lets a student sign up and withdraw while the phase takes sign-ups', async () => {
    const page = await signIn('elena.stan@example.ro');
    await page
      .getByRole('navigation')
      .getByRole('link', { name: 'Înscriere la concursuri' })
      .click();
    await page.waitForURL('**/test/inscriere');
    const card = page.getByRole('article', { name: `${EXAM} — ${EDITION}` });
    // Radu enrolled her with all his students: she is signed up already.
    await card.getByRole('button', { name: 'Mă retrag' }).click();
    await toast(page, 'V-ați retras de la concurs');
    await card.getByRole('button', { name: 'Mă înscriu' }).waitFor();
    await shot(page, 'sign-up-student-ro');
    await card.getByRole('button', { name: 'Mă înscriu' }).click();
    await toast(page, 'V-ați înscris la concurs');
    await expect.poll(() => card.getByText('Înscris', { exact: true }).count()).toBe(1);

    await page.getByRole('button', { name: 'Datele mele de acces' }).click();
    const dialog = page.getByRole('dialog', { name: 'Datele de acces la platforma de evaluare' });
    await dialog.getByRole('cell', { name: `${EXAM} — ${EDITION}` }).waitFor();
    await shot(page, 'credentials-student-ro');
    await dialog.getByRole('button', { name: 'Închide' }).click();

    // /examene shows a student their own enrolments, with withdrawal while sign-ups are open.
    await page.goto(`${podium.baseUrl}/examene`);
    await expect
      .poll(() => page.getByRole('heading', { name: 'Concursurile mele' }).count())
      .toBe(1);
    await expect.poll(() => column(page, 'Concursurile mele', 0)).toEqual([EXAM]);
    expect(await column(page, 'Concursurile mele', 1)).toEqual([EDITION]);
    await shot(page, 'my-competitions-student-ro');
    await page.getByRole('button', { name: `Mă retrag din ${EXAM}` }).click();
    await toast(page, 'V-ați retras de la concurs');
    await expect.poll(() => page.getByText('Nu ești înscris la niciun concurs.').count()).toBe(1);
    await page.getByRole('link', { name: 'Înscrie-te la alte concursuri' }).click();
    await page.waitForURL('**/test/inscriere');
    await card.getByRole('button', { name: 'Mă înscriu' }).click();
    await toast(page, 'V-ați înscris la concurs');
    await page.goto(`${podium.baseUrl}/examene`);
    await expect.poll(() => column(page, 'Concursurile mele', 0)).toEqual([EXAM]);
    await page.context().close();

    const en = await signIn('elena.stan@example.ro', 'en');
    await en.goto(`${podium.baseUrl}/examene`);
    await expect.poll(() => column(en, 'My competitions', 0)).toEqual([EXAM]);
    expect(await en.getByRole('button', { name: `Withdraw from ${EXAM}` }).count()).toBe(1);
    await shot(en, 'my-competitions-student-en');
    await en.context().close();
  });

  it('shows the phase totals, sorts and filters on them, and refuses admission by rule while marking waits', async () => {
    // An online test of the first phase, sat before this step: choices and a number scored
    // from the key, a written answer waiting for marking, one student still writing.
    const phaseId = urls.phaseOne.split('/').at(-1) ?? '';
    const made = await makeTestWithItems(podium.db, {
      phaseId,
      grades: [9, 10],
      name: 'Proba scrisă',
      items: [
        { itemType: 'single', itemAnswers: ['da', 'nu'], itemCorrectAnswers: [0], score: 10 },
        { itemType: 'numeric', itemAnswers: [], itemCorrectAnswers: '6', score: 20 },
        { itemType: 'open', itemAnswers: [], itemCorrectAnswers: null, score: 30 },
      ],
    });
    const [single, numeric, open] = made.questions.map((q) => q.id);
    const sat: [string, Record<string, unknown>][] = [
      ['Ionescu', { [single ?? '']: [0], [numeric ?? '']: '6' }], // 30
      ['Ștefănescu', { [single ?? '']: [0], [open ?? '']: 'Fie n = 2k.' }], // 10 + open
      ['Popa', { [numeric ?? '']: '6' }], // 20
      ['Albu', { [open ?? '']: 'Din ipoteză rezultă…' }], // 0 + open
      ['Barbu', {}], // 0
    ];
    const now = Date.now();
    const ended: { attemptId: string; testId: string; studentId: string }[] = [];
    const idOf = async (email: string) => {
      const [row] = await podium.db
        .select({ id: users.id })
        .from(users)
        .where(eq(users.email, email));
      if (!row) throw new Error(`no ${email}`);
      return row.id;
    };
    for (const [familyName, given] of sat) {
      const studentId = await idOf(emailOf(familyName));
      const attemptId = uuidv7();
      await podium.db.insert(attempts).values({
        id: attemptId,
        testId: made.test.id,
        studentId,
        state: 'finished',
        startedAt: new Date(now - 3_600_000),
        deadlineAt: new Date(now - 60_000),
        itemOrder: made.questions.map((q) => q.id),
        finishedAt: new Date(now - 120_000),
        finishedBy: 'student',
      });
      let seq = 0;
      for (const [questionId, submittedAnswer] of Object.entries(given)) {
        seq += 1;
        await podium.db.insert(answers).values({
          id: uuidv7(),
          testId: made.test.id,
          studentId,
          questionId,
          attemptId,
          submittedAnswer,
          seq,
        });
      }
      ended.push({ attemptId, testId: made.test.id, studentId });
    }
    await podium.db.transaction((tx) => scoreEndedAttempts(tx, ended, new Date(now - 120_000)));
    await podium.db.insert(attempts).values({
      id: uuidv7(),
      testId: made.test.id,
      studentId: await idOf('elena.stan@example.ro'),
      startedAt: new Date(now - 600_000),
      deadlineAt: new Date(now + 3_600_000),
      itemOrder: made.questions.map((q) => q.id),
    });

    const page = await signIn('admin@example.ro');
    await page.goto(`${podium.baseUrl}${urls.phaseOne}`);

    // The appeal window: both ends, the end after the start; the server's refusal lands on
    // the same fields (forced here: the form does not send what it knows is wrong).
    await page.getByRole('button', { name: 'Modifică etapa' }).click();
    const phaseForm = page.getByRole('dialog', { name: 'Modifică etapa' });
    await fillDate(phaseForm, 'Contestații de la', localAt(4, 9));
    await phaseForm.getByRole('button', { name: 'Salvează' }).click();
    await expect.poll(() => phaseForm.getByText('Câmpul este obligatoriu').count()).toBe(1);
    await fillDate(phaseForm, 'Contestații până la', localAt(3, 9));
    await phaseForm.getByRole('button', { name: 'Salvează' }).click();
    await expect.poll(() => phaseForm.getByText('Dată invalidă').count()).toBe(2);
    await fillDate(phaseForm, 'Contestații până la', localAt(5, 20));
    const refuse = (route: Route) =>
      route.request().method() === 'PATCH'
        ? route.fulfill({
            status: 400,
            json: {
              error: {
                statusCode: 400,
                code: 'INVALID_PHASE_DATES',
                message: 'INVALID_PHASE_DATES',
                details: { appealStartDate: ['invalid_date'], appealEndDate: ['invalid_date'] },
              },
            },
          })
        : route.fallback();
    await page.route(`**/phases/${phaseId}`, refuse);
    await phaseForm.getByRole('button', { name: 'Salvează' }).click();
    await toast(page, 'Datele etapei nu sunt corecte.');
    await expect.poll(() => phaseForm.getByText('Dată invalidă').count()).toBe(2);
    await shot(page, 'phase-appeals-form-ro', { fullPage: false });
    await page.unroute(`**/phases/${phaseId}`, refuse);
    await phaseForm.getByRole('button', { name: 'Salvează' }).click();
    await toast(page, 'Etapa a fost modificată');
    await page
      .getByRole('alert')
      .filter({ hasText: 'Etapa a fost modificată' })
      .getByRole('button')
      .click();
    const details = page.getByRole('region', { name: 'Detaliile etapei' });
    await expect.poll(() => details.innerText()).toMatch(/Contestații\s+\d+ \S+ \d{4}, 09:00 – /);

    const table = 'Elevii etapei';
    await choose(page, GRADE_FILTER, 'Toate');
    await expect.poll(() => column(page, table, 1)).toHaveLength(6);
    // Family name → total and questions to mark (columns after the student's own).
    const totals = async () => {
      const [names, total, awaiting] = await Promise.all([
        column(page, table, 1),
        column(page, table, 7),
        column(page, table, 8),
      ]);
      return names.map((n, i) => [n, total[i], awaiting[i]]);
    };
    const byName = (rows: (string | undefined)[][]) =>
      [...rows].sort((a, b) => String(a[0]).localeCompare(String(b[0]), 'ro'));
    await expect
      .poll(async () => byName(await totals()))
      .toEqual([
        ['Albu', '0', '1'],
        ['Barbu', '0', '0'],
        ['Ionescu', '30', '0'],
        ['Popa', '20', '0'],
        ['Stan', '—', '—'],
        ['Ștefănescu', '10', '1'],
      ]);
    await page.getByRole('button', { name: 'Punctaj total' }).click();
    await expect.poll(() => column(page, table, 7)).toEqual(['0', '0', '10', '20', '30', '—']);
    await shot(page, 'phase-totals-ro');

    await choose(page, /^Rezultate/, 'În corectare');
    await expect.poll(() => column(page, table, 1)).toEqual(['Albu', 'Ștefănescu']);
    await choose(page, /^Rezultate/, 'Complete');
    await expect.poll(() => column(page, table, 1)).toEqual(['Barbu', 'Popa', 'Ionescu']);
    await choose(page, /^Rezultate/, 'Toate');
    await expect.poll(() => column(page, table, 1)).toHaveLength(6);

    // Admission by rule would rank on incomplete totals: refused, with the numbers.
    await page.getByLabel('Primii N').fill('2');
    await page.getByRole('button', { name: 'Admite primii N' }).click();
    const refusal = page.getByRole('region', { name: 'Admitere după o regulă' }).getByRole('alert');
    await expect
      .poll(() => refusal.innerText())
      .toBe(
        'Admiterea după o regulă are nevoie de rezultate complete: 2 întrebări de la 2 elevi încă așteaptă corectarea; un elev încă scrie.',
      );
    await shot(page, 'phase-admit-incomplete-ro');
    // Nobody was admitted.
    expect(await column(page, table, 9)).toEqual(['—', '—', '—', '—', '—', '—']);
    await page.context().close();

    const en = await signIn('admin@example.ro', 'en');
    await en.goto(`${podium.baseUrl}${urls.phaseOne}`);
    await choose(en, /^Grade(?! \()/, 'All');
    await en.getByRole('button', { name: 'Total score' }).click();
    await expect
      .poll(() => column(en, 'Students of the phase', 7))
      .toEqual(['0', '0', '10', '20', '30', '—']);
    await en.getByLabel('Minimum score').fill('10');
    await en.getByRole('button', { name: 'Admit score ≥ X' }).click();
    await expect
      .poll(() =>
        en.getByRole('region', { name: 'Admit by a rule' }).getByRole('alert').innerText(),
      )
      .toBe(
        'Admission by a rule needs complete results: 2 questions of 2 students still wait for marking; 1 student is still writing.',
      );
    await shot(en, 'phase-totals-en');
    await en.context().close();
  });

  it('lets the admin mark results, close the first phase and see the admitted in the second', async () => {
    const page = await signIn('admin@example.ro');
    await page.goto(`${podium.baseUrl}${urls.phaseOne}`);
    const table = 'Elevii etapei';
    // The grade filter starts on the exam's first grade (IX).
    await expect
      .poll(() => page.getByRole('combobox', { name: GRADE_FILTER }).innerText())
      .toBe('Clasa 9');
    await expect.poll(() => column(page, table, 1)).toEqual(['Ionescu', 'Ștefănescu']);
    await page.getByRole('checkbox', { name: 'Selectează toate rândurile din pagină' }).check();
    await page.getByRole('button', { name: 'Admis', exact: true }).click();
    await toast(page, '2 elevi au fost marcați admiși');

    await choose(page, GRADE_FILTER, 'Toate');
    await expect.poll(() => column(page, table, 1)).toHaveLength(6);
    await page.getByRole('checkbox', { name: 'Selectează: Albu Ana' }).check();
    await page.getByRole('checkbox', { name: 'Selectează: Stan Elena' }).check();
    await page.getByRole('button', { name: 'Respins', exact: true }).click();
    await toast(page, '2 elevi au fost marcați respinși');
    // Elena has no result in the phase: she reads as absent, not as failed; Ana as rejected.
    const rowOf = (name: string) => page.getByRole('row').filter({ hasText: name });
    await expect.poll(() => rowOf('Elena').innerText()).toMatch(/Absent\s*$/);
    await expect.poll(() => rowOf('Albu').innerText()).toMatch(/Respins\s*$/);
    await page.getByRole('checkbox', { name: 'Selectează: Barbu Bogdan' }).check();
    await page.getByRole('checkbox', { name: 'Selectează: Popa Andrei' }).check();
    await page.getByRole('button', { name: 'Admis', exact: true }).click();
    await toast(page, '2 elevi au fost marcați admiși');
    // Sorted by given name by default.
    await expect
      .poll(() => column(page, table, 2))
      .toEqual(['Ana', 'Andrei', 'Bogdan', 'Elena', 'Maria', 'Ștefan']);
    await expect.poll(() => page.getByText('Admis', { exact: true }).count()).toBeGreaterThan(3);
    await shot(page, 'phase-students-ro');

    // Two open answers still wait for their marks: the phase does not close, and says why.
    await page.getByRole('button', { name: 'Închide etapa' }).click();
    const confirm = page.getByRole('dialog', { name: 'Închideți etapa?' });
    await confirm.getByRole('button', { name: 'Închide etapa' }).click();
    await expect
      .poll(() => confirm.getByText('2 răspunsuri încă nedate la corectat').count())
      .toBe(1);
    await confirm.getByRole('button', { name: 'Închide', exact: true }).click();
    await confirm.waitFor({ state: 'hidden' });
    // Marked (as the markers would, here straight through the results module), it closes.
    const waiting = await podium.db
      .select()
      .from(answers)
      .where(eq(answers.scoreState, 'awaiting_marking'));
    expect(waiting).toHaveLength(2);
    await podium.db.transaction(async (tx) => {
      for (const a of waiting) {
        const answer = {
          answerId: a.id,
          testId: a.testId,
          studentId: a.studentId,
          itemId: a.questionId,
        };
        await recordMarkedScore(tx, answer, 0, 'marked', new Date());
      }
    });
    await page.getByRole('button', { name: 'Închide etapa' }).click();
    await confirm.getByRole('button', { name: 'Închide etapa' }).click();
    await toast(page, '4 elevi admiși au trecut în etapa următoare');
    await expect.poll(() => page.getByText('Închisă', { exact: true }).count()).toBeGreaterThan(0);
    // Closed, its marking no longer reads as under way.
    await expect
      .poll(() => page.getByRole('region', { name: 'Corectare' }).innerText())
      .toContain('Etapa este închisă: corectarea și contestațiile s-au încheiat.');
    expect(await page.getByText('Răspunsurile sunt în corectare').count()).toBe(0);

    await page.goto(`${podium.baseUrl}${urls.phaseTwo}`);
    await choose(page, GRADE_FILTER, 'Toate');
    await expect
      .poll(() => column(page, table, 1))
      .toEqual(['Popa', 'Barbu', 'Ionescu', 'Ștefănescu']);
    // Search folds case and diacritics.
    await page.getByLabel('Caută elev').fill('STEF');
    await expect.poll(() => column(page, table, 1)).toEqual(['Ștefănescu']);
    await page.getByLabel('Caută elev').fill('');
    await expect.poll(() => column(page, table, 1)).toHaveLength(4);

    // The last phase has no next one: closing it fails and says why.
    await page.getByRole('button', { name: 'Închide etapa' }).click();
    await confirm.getByRole('button', { name: 'Închide etapa' }).click();
    await expect
      .poll(() => confirm.getByText('Adăugați mai întâi etapa următoare', { exact: false }).count())
      .toBe(1);
    await shot(page, 'phase-close-error-ro');
    await page.context().close();
  });

  it('shows a staff member the competition in English without edit buttons', async () => {
    const page = await signIn('ana.georgescu@example.ro', 'en');
    await page.getByRole('navigation').getByRole('link', { name: 'Competitions' }).click();
    await expect.poll(() => column(page, 'Competitions', 3)).toEqual(['Commission member']);
    await shot(page, 'exams-list-en');
    await page.getByRole('link', { name: EXAM }).click();
    await expect.poll(() => page.getByRole('heading', { name: EXAM }).count()).toBe(1);
    await expect.poll(() => page.getByRole('link', { name: EDITION }).count()).toBe(1);
    for (const button of [
      'Edit the competition',
      'Add edition',
      'Choose teachers',
      'Delete the competition',
    ]) {
      expect(await page.getByRole('button', { name: button }).count(), button).toBe(0);
    }
    expect(
      await page
        .getByRole('region', { name: 'Competition admins' })
        .getByText('Question managers', { exact: true })
        .count(),
    ).toBe(1);
    await shot(page, 'exam-detail-en');
    // Forced anyway, the server refuses.
    const examId = urls.exam.split('/').at(-1) ?? '';
    expect(
      await callApi(page, 'PATCH', `/exam-mgmt/exams/${examId}`, { name: 'Alt nume' }),
    ).toEqual({ status: 403, code: 'OPERATION_NOT_PERMITTED' });

    await page.goto(`${podium.baseUrl}${urls.edition}`);
    await expect.poll(() => page.getByRole('heading', { name: EDITION }).count()).toBe(1);
    expect(await page.getByRole('button', { name: 'Edit the edition' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Add phase' }).count()).toBe(0);
    await page.goto(`${podium.baseUrl}${urls.phaseTwo}`);
    await expect.poll(() => page.getByRole('heading', { name: PHASE_TWO }).count()).toBe(1);
    expect(await page.getByRole('button', { name: 'Close the phase' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Edit the phase' }).count()).toBe(0);
    // Staff decide admissions: the rule helpers answer (nobody has a score before marking).
    await page.getByLabel('Best N').fill('1');
    await page.getByRole('button', { name: 'Admit the best N' }).click();
    await toast(page, '0 students have been admitted');
    await expect
      .poll(() => page.getByRole('region', { name: 'Appeals' }).innerText())
      .toContain("No question in this phase's tests is marked by teachers");
    expect(await page.getByRole('link', { name: 'Marking', exact: true }).count()).toBe(0);
    await shot(page, 'phase-staff-en');
    await page.context().close();
  });

  it('lists competitions in Romanian for the admin with search and subject filter', async () => {
    const page = await signIn('admin@example.ro');
    await page.goto(`${podium.baseUrl}/examene`);
    await expect.poll(() => column(page, 'Lista concursurilor', 0)).toEqual([EXAM]);
    await page.getByLabel('Caută după nume').fill('matematica');
    await expect.poll(() => column(page, 'Lista concursurilor', 0)).toEqual([EXAM]);
    await choose(page, 'Disciplina', 'Informatică');
    await expect.poll(() => page.getByText('Niciun concurs.').count()).toBe(1);
    await choose(page, 'Disciplina', 'Toate');
    await expect.poll(() => column(page, 'Lista concursurilor', 0)).toEqual([EXAM]);
    await shot(page, 'exams-list-ro');
    await page.context().close();
  });

  it('opens and closes sign-ups for a whole edition (SPEC.md §4)', async () => {
    const admin = await signIn('admin@example.ro', 'en');
    await admin.goto(`${podium.baseUrl}${urls.edition}`);
    const toggle = admin.getByRole('switch', { name: 'Sign-ups open for the edition' });
    await expect.poll(() => toggle.isChecked()).toBe(true);
    // The switch shows the saved state: it turns once the server has answered.
    await toggle.click();
    await toast(admin, 'The change has been saved');
    await expect.poll(() => toggle.isChecked()).toBe(false);
    await expect.poll(() => admin.getByText('Closed for every phase').count()).toBe(1);
    await shot(admin, 'edition-registration-closed-en');

    // The student no longer finds it among the competitions taking sign-ups.
    const student = await signIn('elena.stan@example.ro');
    await student.goto(`${podium.baseUrl}/test/inscriere`);
    await expect
      .poll(() => student.getByRole('article', { name: `${EXAM} — ${EDITION}` }).count())
      .toBe(0);
    await student.context().close();

    await toggle.click();
    await toast(admin, 'The change has been saved');
    await expect.poll(() => toggle.isChecked()).toBe(true);
    await admin.context().close();
    const ro = await signIn('admin@example.ro');
    await ro.goto(`${podium.baseUrl}${urls.edition}`);
    await expect
      .poll(() => ro.getByRole('switch', { name: 'Înscrieri deschise pe ediție' }).isChecked())
      .toBe(true);
    await shot(ro, 'edition-registration-ro');
    await ro.context().close();
  });

  it('orders the coordinator picker by given name', async () => {
    // Bucur Zoe comes before Georgescu Ana by family name, after her by given name.
    await podium.createUser({
      email: 'zoe.bucur@example.ro',
      password: PASSWORD,
      type: 'teacher',
      givenName: 'Zoe',
      familyName: 'Bucur',
      county: 'Cluj',
    });
    const page = await signIn('admin@example.ro');
    await page.goto(`${podium.baseUrl}${urls.edition}`);
    const card = 'Profesori coordonatori ai ediției';
    await page
      .getByRole('region', { name: card })
      .getByRole('button', { name: 'Alege profesorii' })
      .click();
    const dialog = page.getByRole('dialog', { name: card });
    const unchecked = () =>
      dialog
        .getByRole('checkbox', { checked: false })
        .allInnerTexts()
        .then((names) => names.map((n) => n.split('\n')[0]?.trim()));
    await expect.poll(unchecked).toContain('Zoe Bucur');
    const names = await unchecked();
    expect(names.indexOf('Ana Georgescu')).toBeGreaterThanOrEqual(0);
    expect(names.indexOf('Ana Georgescu')).toBeLessThan(names.indexOf('Zoe Bucur'));
    await shot(page, 'coordinator-picker-ro');
    // The competition's own pickers keep the family-name order.
    await dialog.getByRole('button', { name: 'Închide' }).click();
    await page.goto(`${podium.baseUrl}${urls.exam}`);
    await page
      .getByRole('region', { name: 'Membrii comisiei' })
      .getByRole('button', { name: 'Alege profesorii' })
      .click();
    const staff = page.getByRole('dialog', { name: 'Membrii comisiei' });
    const staffNames = () =>
      staff
        .getByRole('checkbox', { checked: false })
        .allInnerTexts()
        .then((n) => n.map((x) => x.split('\n')[0]?.trim()));
    await expect.poll(staffNames).toContain('Bucur Zoe');
    expect((await staffNames())[0]).toBe('Bucur Zoe');
    await page.context().close();
  });

  it('pages editions 25 at a time and deletes a competition only while it has no edition', async () => {
    const page = await signIn('admin@example.ro');
    const spare = 'Concurs de probă';
    const big = 'Concurs cu multe ediții';
    for (const name of [spare, big]) {
      const made = await callApi(page, 'POST', '/exam-mgmt/exams', {
        name,
        subject: 'Informatică',
        grades: [9],
      });
      expect(made.status).toBe(201);
    }
    const [bigRow] = await podium.db
      .select({ id: exams.id })
      .from(exams)
      .where(eq(exams.name, big));
    const bigId = bigRow?.id ?? '';
    for (let i = 1; i <= 26; i++) {
      const made = await callApi(page, 'POST', `/exam-mgmt/exams/${bigId}/editions`, {
        name: `Ediția ${String(i).padStart(2, '0')}`,
        year: 2000 + i,
      });
      expect(made.status).toBe(201);
    }

    // SPEC.md §9: editions 25 a page, by name.
    await page.goto(`${podium.baseUrl}/examene/${bigId}`);
    await expect.poll(() => column(page, 'Ediții', 0).then((c) => c.length)).toBe(25);
    expect((await column(page, 'Ediții', 0))[0]).toBe('Ediția 01');
    await page.getByRole('button', { name: 'Mergi la pagina următoare' }).click();
    await expect.poll(() => column(page, 'Ediții', 0)).toEqual(['Ediția 26']);
    await shot(page, 'exam-editions-page-two-ro');

    await page.goto(`${podium.baseUrl}/examene`);
    await expect.poll(() => column(page, 'Lista concursurilor', 0)).toEqual([big, spare, EXAM]);
    await page.getByRole('button', { name: `Șterge concursul ${spare}` }).click();
    const confirm = page.getByRole('dialog', { name: 'Ștergeți concursul?' });
    await expect
      .poll(() => confirm.getByText(`Concursul „${spare}” va fi șters.`, { exact: false }).count())
      .toBe(1);
    await shot(page, 'exam-delete-ro');
    await confirm.getByRole('button', { name: 'Șterge', exact: true }).click();
    await toast(page, `Concursul „${spare}” a fost șters`);
    await expect.poll(() => column(page, 'Lista concursurilor', 0)).toEqual([big, EXAM]);

    // A competition with editions: refused, and the dialog says why; nothing changes.
    await page.getByRole('button', { name: `Șterge concursul ${EXAM}` }).click();
    await confirm.getByRole('button', { name: 'Șterge', exact: true }).click();
    await expect
      .poll(() => confirm.getByText('Concursul are ediții și nu poate fi șters.').count())
      .toBe(1);
    await expect
      .poll(() => confirm.getByText('doar cât timp nu are nicio ediție', { exact: false }).count())
      .toBe(1);
    await shot(page, 'exam-delete-refused-ro');
    await confirm.getByRole('button', { name: 'Închide' }).click();
    await expect.poll(() => column(page, 'Lista concursurilor', 0)).toEqual([big, EXAM]);
    await page.context().close();

    // The same from the competition's page, in English.
    const en = await signIn('admin@example.ro', 'en');
    await en.goto(`${podium.baseUrl}/examene/${bigId}`);
    await expect.poll(() => column(en, 'Editions', 0).then((c) => c.length)).toBe(25);
    await shot(en, 'exam-editions-en');
    await en.getByRole('button', { name: 'Delete the competition' }).click();
    const dialog = en.getByRole('dialog', { name: 'Delete the competition?' });
    await dialog.getByRole('button', { name: 'Delete', exact: true }).click();
    await expect
      .poll(() => dialog.getByText('The competition has editions and cannot be deleted.').count())
      .toBe(1);
    await expect
      .poll(() =>
        dialog.getByText('only be deleted while it has no edition', { exact: false }).count(),
      )
      .toBe(1);
    await shot(en, 'exam-delete-refused-en');
    await dialog.getByRole('button', { name: 'Close' }).click();
    await expect.poll(() => en.getByRole('heading', { name: big }).count()).toBe(1);
    await en.context().close();
  });
});
