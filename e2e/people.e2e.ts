import { readFile } from 'node:fs/promises';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { editionStudents, editions, exams, examTeachers } from '../server/db/schema.js';
import { uuidv7 } from '../server/lib/ids.js';
import { hasChromium, openBrowser, type Podium, shot, startPodium } from './harness.js';
import { type Lang, openSignedIn, PASSWORD } from './session.js';

// 16 students, sorted by family name: 10 on page 1 and 6 on page 2. Radu Matei (RADU-MATE)
// coordinates the first three; Ana Georgescu (ANA-IS) the rest.
const RADU_STUDENTS = [
  { familyName: 'Ștefănescu', givenName: 'Ștefan', county: 'Cluj', grade: 7 },
  { familyName: 'Ionescu', givenName: 'Maria', county: 'Cluj', grade: 8 },
  { familyName: 'Popa', givenName: 'Andrei', county: 'Cluj', grade: 99 },
];
const ANA_STUDENTS = [
  { familyName: 'Albu', givenName: 'Ana', state: 'inactive' as const },
  { familyName: 'Barbu', givenName: 'Bogdan', state: 'inactive' as const },
  { familyName: 'Constantin', givenName: 'Carmen' },
  { familyName: 'Dumitru', givenName: 'Dan' },
  { familyName: 'Enache', givenName: 'Elena' },
  { familyName: 'Florea', givenName: 'Florin' },
  { familyName: 'Grigore', givenName: 'Gabriela' },
  { familyName: 'Hagi', givenName: 'Horia', county: 'Vaslui', country: 'Republica Moldova' },
  { familyName: 'Iliescu', givenName: 'Irina', county: 'Vaslui' },
  { familyName: 'Jitaru', givenName: 'Jana' },
  { familyName: 'Lazăr', givenName: 'Luca' },
  { familyName: 'Munteanu', givenName: 'Mara' },
  { familyName: 'Neagu', givenName: 'Nicu' },
].map((s) => ({ county: 'Iași', grade: 10, ...s }));

const PAGE_ONE = [
  'Albu',
  'Barbu',
  'Constantin',
  'Dumitru',
  'Enache',
  'Florea',
  'Grigore',
  'Hagi',
  'Iliescu',
  'Ionescu',
];
const PAGE_TWO = ['Jitaru', 'Lazăr', 'Munteanu', 'Neagu', 'Popa', 'Ștefănescu'];

const emailOf = (familyName: string) =>
  `${familyName.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase()}@elevi.example.ro`;

// Students and teachers lists, bulk state changes, deletion, downloads and team codes.
describe.skipIf(!hasChromium)('people lists and team codes in the browser', () => {
  let podium: Podium;
  let browser: Browser;
  let raduId: string;

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
    raduId = (
      await podium.createUser({
        email: 'radu.matei@example.ro',
        password: PASSWORD,
        type: 'teacher',
        givenName: 'Radu',
        familyName: 'Matei',
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
    const danId = (
      await podium.createUser({
        email: 'dan.lupu@example.ro',
        password: PASSWORD,
        type: 'teacher',
        givenName: 'Dan',
        familyName: 'Lupu',
        county: 'Brașov',
        teacherCode: 'DAN-BV',
        discipline: 'Informatică',
      })
    ).id;
    const ids: Record<string, string> = {};
    for (const s of RADU_STUDENTS) {
      const email = emailOf(s.familyName);
      ids[s.familyName] = (
        await podium.createUser({ ...s, email, password: PASSWORD, teacherRef: raduId })
      ).id;
    }
    for (const s of ANA_STUDENTS) {
      const email = emailOf(s.familyName);
      ids[s.familyName] = (
        await podium.createUser({ ...s, email, password: PASSWORD, teacherRef: anaId })
      ).id;
    }

    // Radu sits on a competition's committee, Dan administers another one, in whose
    // edition Popa is enrolled (so Popa's account cannot simply be deleted).
    const [staffExam, adminExam] = [uuidv7(), uuidv7()];
    await podium.db.insert(exams).values([
      {
        id: staffExam,
        name: 'Olimpiada de Matematică',
        nameNormalized: 'olimpiada de matematica',
        subject: 'Matematică',
      },
      {
        id: adminExam,
        name: 'Concursul Gazeta',
        nameNormalized: 'concursul gazeta',
        subject: 'Matematică',
      },
    ]);
    await podium.db.insert(examTeachers).values([
      { examId: staffExam, teacherId: raduId, role: 'staff' },
      { examId: adminExam, teacherId: danId, role: 'admin' },
    ]);
    const [editionId, staffEdition] = [uuidv7(), uuidv7()];
    await podium.db.insert(editions).values([
      { id: editionId, examId: adminExam, name: '2025' },
      { id: staffEdition, examId: staffExam, name: '2025' },
    ]);
    // Munteanu (Ana's) takes part in the competition Radu is staff on: Radu sees her, read-only.
    await podium.db.insert(editionStudents).values([
      { editionId, studentId: ids.Popa as string, grade: 99 },
      { editionId: staffEdition, studentId: ids.Munteanu as string, grade: 10 },
    ]);
  });
  afterAll(async () => {
    await browser?.close();
    await podium?.close();
  });

  const signIn = (email: string, lang: Lang = 'ro') =>
    openSignedIn(browser, podium.baseUrl, email, lang, {
      viewport: { width: 1280, height: 860 },
      acceptDownloads: true,
      keepPickedLanguage: true,
    });

  /** The family names shown, top to bottom (the second cell; the first is the checkbox). */
  const familyNames = async (page: Page, table: string, column = 1) => {
    const rows = await page.getByRole('table', { name: table }).getByRole('row').all();
    const names: string[] = [];
    for (const row of rows.slice(1)) {
      const cells = row.getByRole('cell');
      if ((await cells.count()) > column) names.push((await cells.nth(column).innerText()).trim());
    }
    return names;
  };

  /** The row of a person, found by a text in it (their family name). */
  const rowOf = (page: Page, person: string, table: string) =>
    page.getByRole('table', { name: table }).getByRole('row').filter({ hasText: person });

  const choose = async (page: Page, combobox: string, option: string) => {
    await page.getByRole('combobox', { name: combobox }).click();
    await page.getByRole('option', { name: option, exact: true }).click();
  };

  it('lets an admin search, filter, sort, page, activate, delete and download students', async () => {
    const page = await signIn('admin@example.ro');
    await page.getByRole('navigation').getByRole('link', { name: 'Elevi' }).click();
    await page.waitForURL('**/elevi');
    await expect.poll(() => page.getByRole('heading', { name: 'Elevi' }).count()).toBe(1);
    const list = 'Lista elevilor';
    await expect.poll(() => familyNames(page, list)).toEqual(PAGE_ONE);
    await expect.poll(() => page.getByText('16 elevi').count()).toBe(1);
    await expect.poll(() => page.getByText('1–10 din 16').count()).toBe(1);
    // The coordinating teacher is shown by name and team code.
    await expect.poll(() => rowOf(page, 'Ionescu', list).getByText('RADU-MATE').count()).toBe(1);
    await shot(page, 'students-ro');

    await page.getByRole('button', { name: 'Mergi la pagina următoare' }).click();
    await expect.poll(() => familyNames(page, list)).toEqual(PAGE_TWO);
    await expect.poll(() => page.getByText('11–16 din 16').count()).toBe(1);

    // Any filter change goes back to the first page, even when the second still has rows.
    await choose(page, 'Stare', 'Activ');
    await expect.poll(() => page.getByText('1–10 din 14').count()).toBe(1);
    expect((await familyNames(page, list))[0]).toBe('Constantin');
    await choose(page, 'Stare', 'Toate');
    await choose(page, 'Județ', 'Vaslui');
    await expect.poll(() => familyNames(page, list)).toEqual(['Hagi', 'Iliescu']);
    await expect.poll(() => page.getByText('1–2 din 2').count()).toBe(1);
    await choose(page, 'Județ', 'Toate');
    await expect.poll(() => familyNames(page, list)).toEqual(PAGE_ONE);

    // Case- and diacritic-insensitive search on family or given name.
    const search = page.getByRole('searchbox', { name: 'Caută după nume' });
    await search.fill('stefan');
    await expect.poll(() => familyNames(page, list)).toEqual(['Ștefănescu']);
    await search.fill('LAZAR');
    await expect.poll(() => familyNames(page, list)).toEqual(['Lazăr']);
    // Partial match on given names too: Ana (Albu) and Jana (Jitaru).
    await search.fill('ana');
    await expect.poll(() => familyNames(page, list)).toEqual(['Albu', 'Jitaru']);
    await search.fill('');
    await expect.poll(() => familyNames(page, list)).toEqual(PAGE_ONE);

    // The teacher filter (admins only), fed by the teachers list.
    await page.getByRole('combobox', { name: 'Profesor coordonator' }).fill('mate');
    await page.getByRole('option', { name: 'Matei Radu (RADU-MATE)' }).click();
    await expect.poll(() => familyNames(page, list)).toEqual(['Ionescu', 'Popa', 'Ștefănescu']);
    await page.getByRole('combobox', { name: 'Profesor coordonator' }).clear();
    await page.getByRole('combobox', { name: 'Profesor coordonator' }).press('Escape');
    await expect.poll(() => familyNames(page, list)).toEqual(PAGE_ONE);

    // Sorting: the same header flips the direction.
    await page.getByRole('button', { name: 'Nume de familie' }).click();
    await expect
      .poll(async () => (await familyNames(page, list)).slice(0, 3))
      .toEqual(['Ștefănescu', 'Popa', 'Neagu']);
    await page.getByRole('button', { name: 'Nume de familie' }).click();
    await expect.poll(() => familyNames(page, list)).toEqual(PAGE_ONE);

    // Bulk activation of two inactive students: the plural message.
    await page.getByRole('checkbox', { name: 'Selectează: Albu Ana' }).check();
    await page.getByRole('checkbox', { name: 'Selectează: Barbu Bogdan' }).check();
    await expect.poll(() => page.getByText('2 rânduri selectate').count()).toBe(1);
    await shot(page, 'students-selected-ro');
    await page.getByRole('button', { name: 'Activează', exact: true }).click();
    await expect.poll(() => page.getByText('Elevii au fost activați').count()).toBe(1);
    await expect
      .poll(() => rowOf(page, 'Albu', list).getByText('Activ', { exact: true }).count())
      .toBe(1);
    await expect
      .poll(() => rowOf(page, 'Barbu', list).getByText('Activ', { exact: true }).count())
      .toBe(1);
    // One student inactivated: the singular message.
    await page.getByRole('checkbox', { name: 'Selectează: Barbu Bogdan' }).check();
    await page.getByRole('button', { name: 'Inactivează' }).click();
    await expect.poll(() => page.getByText('Elevul a fost inactivat').count()).toBe(1);
    await expect
      .poll(() => rowOf(page, 'Barbu', list).getByText('Inactiv', { exact: true }).count())
      .toBe(1);

    // Deletion asks first; the cancelled dialog deletes nothing.
    await page.getByRole('button', { name: 'Mergi la pagina următoare' }).click();
    await expect.poll(() => familyNames(page, list)).toEqual(PAGE_TWO);
    await page.getByRole('button', { name: 'Șterge: Neagu Nicu' }).click();
    const dialog = page.getByRole('dialog', { name: 'Ștergeți elevul?' });
    await dialog.getByRole('button', { name: 'Anulează' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByRole('button', { name: 'Șterge: Neagu Nicu' }).click();
    await dialog.getByRole('button', { name: 'Șterge', exact: true }).click();
    await expect.poll(() => page.getByText('Elevul a fost șters').count()).toBe(1);
    await expect
      .poll(() => familyNames(page, list))
      .toEqual(['Jitaru', 'Lazăr', 'Munteanu', 'Popa', 'Ștefănescu']);
    // A student with an enrolment keeps their account: the dialog says why.
    await page.getByRole('button', { name: 'Șterge: Popa Andrei' }).click();
    await dialog.getByRole('button', { name: 'Șterge', exact: true }).click();
    await expect.poll(() => dialog.getByText('Contul nu a putut fi șters').count()).toBe(1);
    await expect.poll(() => dialog.getByText(/rezultate la concursuri/).count()).toBe(1);
    await expect.poll(() => dialog.getByRole('button', { name: 'Anonimizează' }).count()).toBe(1);
    await shot(page, 'students-delete-refused-ro');
    await dialog.getByRole('button', { name: 'Închide' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(await familyNames(page, list)).toContain('Popa');

    // The spreadsheet of the current filter.
    await choose(page, 'Județ', 'Cluj');
    await expect.poll(() => familyNames(page, list)).toEqual(['Ionescu', 'Popa', 'Ștefănescu']);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Descarcă lista' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('elevi.xlsx');
    const bytes = await readFile(await download.path());
    expect(bytes.length).toBeGreaterThan(100);
    expect(bytes.subarray(0, 2).toString('latin1')).toBe('PK');
    await page.context().close();
  });

  it('shows a teacher only the students in their scope and no admin actions on teachers', async () => {
    const page = await signIn('radu.matei@example.ro');
    await page.goto(`${podium.baseUrl}/elevi`);
    const list = 'Lista elevilor';
    // Their own three, and Munteanu through the competition they are staff on.
    await expect
      .poll(() => familyNames(page, list))
      .toEqual(['Ionescu', 'Munteanu', 'Popa', 'Ștefănescu']);
    expect(await page.getByRole('combobox', { name: 'Profesor coordonator' }).count()).toBe(0);
    await expect.poll(() => page.getByText('4 elevi').count()).toBe(1);
    // Only the coordinating teacher acts on a student: Munteanu is read-only here.
    const munteanu = page.getByRole('checkbox', { name: 'Selectează: Munteanu Mara' });
    expect(await munteanu.isDisabled()).toBe(true);
    expect(await page.getByRole('button', { name: 'Șterge: Munteanu Mara' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Șterge: Popa Andrei' }).count()).toBe(1);
    // Narrowed to the competition Radu is staff on (`examAdmin`): only its student. The
    // competition he has no role on is not offered.
    await page.getByRole('combobox', { name: 'Concursul' }).click();
    expect(await page.getByRole('option', { name: 'Concursul Gazeta' }).count()).toBe(0);
    await page.getByRole('option', { name: 'Olimpiada de Matematică', exact: true }).click();
    await expect.poll(() => familyNames(page, list)).toEqual(['Munteanu']);
    await expect.poll(() => page.getByText('1 elev', { exact: true }).count()).toBe(1);
    await shot(page, 'students-competition-filter-ro');
    await choose(page, 'Concursul', 'Toate');
    await expect.poll(() => familyNames(page, list)).toHaveLength(4);
    // A teacher activates their own students.
    await page.getByRole('checkbox', { name: 'Selectează toate rândurile din pagină' }).check();
    await expect.poll(() => page.getByText('3 rânduri selectate').count()).toBe(1);
    await page.getByRole('button', { name: 'Activează', exact: true }).click();
    await expect.poll(() => page.getByText('Elevii au fost activați').count()).toBe(1);
    await shot(page, 'students-teacher-ro');

    await page.goto(`${podium.baseUrl}/profesori`);
    const teachers = 'Lista profesorilor';
    await expect.poll(() => familyNames(page, teachers, 0)).toEqual(['Georgescu', 'Lupu', 'Matei']);
    expect(await page.getByRole('checkbox').count()).toBe(0);
    expect(await page.getByRole('button', { name: /^Șterge: / }).count()).toBe(0);
    await shot(page, 'teachers-teacher-ro');
    await page.context().close();
  });

  it('filters teachers to committee members or competition admins, in English', async () => {
    const page = await signIn('admin@example.ro', 'en');
    await page.getByRole('navigation').getByRole('link', { name: 'Teachers' }).click();
    await page.waitForURL('**/profesori');
    const list = 'Teachers';
    await expect.poll(() => familyNames(page, list)).toEqual(['Georgescu', 'Lupu', 'Matei']);
    await expect.poll(() => page.getByText('3 teachers').count()).toBe(1);
    await page.getByRole('switch', { name: 'Committee members only' }).check();
    await expect.poll(() => familyNames(page, list)).toEqual(['Matei']);
    await page.getByRole('switch', { name: 'Committee members only' }).uncheck();
    await page.getByRole('switch', { name: 'Competition admins only' }).check();
    await expect.poll(() => familyNames(page, list)).toEqual(['Lupu']);
    await expect
      .poll(() => rowOf(page, 'Lupu', list).getByText('Competition admin').count())
      .toBe(1);
    await page.getByRole('switch', { name: 'Competition admins only' }).uncheck();
    await choose(page, 'County', 'Iași');
    await expect.poll(() => familyNames(page, list)).toEqual(['Georgescu']);
    await choose(page, 'County', 'All');
    await choose(page, 'Subject', 'Computer science');
    await expect.poll(() => familyNames(page, list)).toEqual(['Lupu']);
    await shot(page, 'teachers-discipline-en');
    await choose(page, 'Subject', 'All');
    await expect.poll(() => familyNames(page, list)).toEqual(['Georgescu', 'Lupu', 'Matei']);

    await page.getByRole('checkbox', { name: 'Select: Lupu Dan' }).check();
    await page.getByRole('button', { name: 'Deactivate' }).click();
    await expect.poll(() => page.getByText('The teacher has been deactivated').count()).toBe(1);
    await expect
      .poll(() => rowOf(page, 'Lupu', list).getByText('Inactive', { exact: true }).count())
      .toBe(1);
    await page.getByRole('checkbox', { name: 'Select every row on the page' }).check();
    await page.getByRole('button', { name: 'Activate', exact: true }).click();
    await expect.poll(() => page.getByText('The teachers have been activated').count()).toBe(1);
    await shot(page, 'teachers-en');

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download the list' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('profesori.xlsx');
    const bytes = await readFile(await download.path());
    expect(bytes.subarray(0, 2).toString('latin1')).toBe('PK');
    await page.context().close();
  });

  it('filters students by country and by competition, in English', async () => {
    const page = await signIn('admin@example.ro', 'en');
    await page.goto(`${podium.baseUrl}/elevi`);
    const students = 'Students';
    await page.getByLabel('Country').fill('moldova');
    await expect.poll(() => familyNames(page, students)).toEqual(['Hagi']);
    await page.getByLabel('Country').fill('');
    await choose(page, 'Competition', 'Concursul Gazeta');
    await expect.poll(() => familyNames(page, students)).toEqual(['Popa']);
    await shot(page, 'students-filters-en');
    await page.context().close();
  });

  it('changes team codes from the profile, with the server’s refusals on the field', async () => {
    const student = await signIn(emailOf('Ionescu'));
    await student.goto(`${podium.baseUrl}/profil`);
    // The header names the student's team: their coordinating teacher's code.
    const team = student.getByText(/^Codul echipei: /);
    await expect.poll(() => team.innerText()).toBe('Codul echipei: RADU-MATE');
    const code = student.getByLabel('Codul echipei');
    await code.fill('nope-1');
    await student.getByRole('button', { name: 'Salvează' }).click();
    await expect.poll(() => student.getByText('Cod profesor incorect').count()).toBe(1);
    await shot(student, 'profile-student-ro');
    await code.fill('ana-is');
    await student.getByRole('button', { name: 'Salvează' }).click();
    await expect.poll(() => student.getByText('Profilul a fost actualizat').count()).toBe(1);
    await expect.poll(() => team.innerText()).toBe('Codul echipei: ANA-IS');
    await student.context().close();

    const teacher = await signIn('radu.matei@example.ro');
    await teacher.goto(`${podium.baseUrl}/profil`);
    await expect.poll(() => teacher.getByTestId('team-code').innerText()).toBe('RADU-MATE');
    await teacher.getByLabel('Codul nou').fill('ana-is');
    await teacher.getByRole('button', { name: 'Schimbă codul' }).click();
    await expect.poll(() => teacher.getByText('Codul există deja').count()).toBe(1);
    // The error focused the field and scrolled; a full-page shot wants the top.
    await teacher.evaluate(() => window.scrollTo(0, 0));
    await shot(teacher, 'profile-teacher-ro');
    await teacher.getByLabel('Codul nou').fill('radu-nou');
    await teacher.getByRole('button', { name: 'Schimbă codul' }).click();
    await expect.poll(() => teacher.getByText('Codul echipei a fost schimbat').count()).toBe(1);
    await expect.poll(() => teacher.getByTestId('team-code').innerText()).toBe('RADU-NOU');
    // Ionescu moved to Ana's team; Radu's other students stay linked under the new code.
    await teacher.goto(`${podium.baseUrl}/elevi`);
    await expect
      .poll(() => familyNames(teacher, 'Lista elevilor'))
      .toEqual(['Munteanu', 'Popa', 'Ștefănescu']);
    await expect
      .poll(() => rowOf(teacher, 'Popa', 'Lista elevilor').getByText('RADU-NOU').count())
      .toBe(1);
    await teacher.context().close();
  });
});
