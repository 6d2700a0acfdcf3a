import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  makeEdition,
  makeEnrolment,
  makeExam,
  makePhase,
  makeTestWithItems,
} from '../server/db/factories.js';
import { questionReviewers } from '../server/db/schema.js';
import { hasChromium, openBrowser, type Podium, shot, startPodium } from './harness.js';
import { type Lang, openSignedIn, PASSWORD } from './session.js';

// Issue 34's homes, bell, account and search, as each role meets them, in Romanian and
// English: a student sees their next test (with the connection check) and the bell says it
// opens soon; a teacher sees their own students and finds them, never another teacher's; an
// organiser sees what blocks their phase, each with a link to where it is fixed; a plain
// marker's menu has no empty "Competitions"; anyone changes their password and ends sessions.

const HOUR = 3_600_000;

describe.skipIf(!hasChromium)('homes, notifications, account and search', () => {
  let podium: Podium;
  let browser: Browser;
  const names = { test: 'Proba de algebră', exam: 'Olimpiada de Matematică Test' };

  const person = async (email: string, seed: Record<string, unknown>) =>
    podium.createUser({ email, password: PASSWORD, ...seed });

  beforeAll(async () => {
    podium = await startPodium();
    browser = await openBrowser();
    const db = podium.db;
    const organiser = await person('org@example.ro', {
      type: 'teacher',
      givenName: 'Oana',
      familyName: 'Organizatoare',
    });
    const teacher = await person('prof@example.ro', {
      type: 'teacher',
      givenName: 'Petru',
      familyName: 'Profesorul',
    });
    const other = await person('alt@example.ro', {
      type: 'teacher',
      givenName: 'Alin',
      familyName: 'Altul',
    });
    const marker = await person('corector@example.ro', {
      type: 'teacher',
      givenName: 'Corina',
      familyName: 'Corectoare',
    });
    for (const [lang, email] of [
      ['ro', 'elev.ro@example.ro'],
      ['en', 'elev.en@example.ro'],
    ] as const) {
      await person(email, {
        type: 'student',
        grade: 5,
        teacherRef: teacher.id,
        givenName: lang === 'ro' ? 'Ioana' : 'Irina',
        familyName: 'Elevescu',
      });
    }
    const hidden = await person('ascuns@example.ro', {
      type: 'student',
      grade: 5,
      teacherRef: other.id,
      givenName: 'Horia',
      familyName: 'Ascunsescu',
    });
    const exam = await makeExam(db, {
      name: names.exam,
      grades: [5],
      adminTeacherIds: [organiser.id],
    });
    const edition = await makeEdition(db, { examId: exam.id, coordinatorIds: [teacher.id] });
    const now = Date.now();
    const phase = await makePhase(db, {
      editionId: edition.id,
      name: 'Etapa județeană',
      startDate: new Date(now - 24 * HOUR),
      endDate: new Date(now + 6 * 24 * HOUR),
    });
    const { questions } = await makeTestWithItems(db, {
      phaseId: phase.id,
      name: names.test,
      startDate: new Date(now + 20 * HOUR),
      endDate: new Date(now + 22 * HOUR),
      durationMinutes: 45,
      grades: [5],
      items: [{}, { itemType: 'open', itemAnswers: [], itemCorrectAnswers: null }],
    });
    // The marker grades the open question: "To mark" for them, no competition role.
    await db.insert(questionReviewers).values({
      questionId: questions[1]?.id ?? '',
      teacherId: marker.id,
    });
    const students = await Promise.all(
      ['elev.ro@example.ro', 'elev.en@example.ro', 'ascuns@example.ro'].map(async (email) => {
        const { users } = await import('../server/db/schema.js');
        const { eq } = await import('drizzle-orm');
        const [row] = await db.select().from(users).where(eq(users.email, email));
        return row?.id ?? '';
      }),
    );
    for (const studentId of students.filter((id) => id !== hidden.id).concat(hidden.id)) {
      await makeEnrolment(db, {
        editionId: edition.id,
        studentId,
        grade: 5,
        phaseIds: [phase.id],
      });
    }
  });
  afterAll(async () => {
    await browser?.close();
    await podium?.close();
  });

  const signIn = (email: string, lang: Lang, width = 1280): Promise<Page> =>
    openSignedIn(browser, podium.baseUrl, email, lang, { viewport: { width, height: 900 } });
  const text = (scope: Page | Locator, s: string | RegExp) =>
    scope.getByText(s).first().isVisible();

  for (const lang of ['ro', 'en'] as const) {
    const ro = lang === 'ro';

    it(`${lang}: a student's home and bell say what comes next`, async () => {
      const page = await signIn(`elev.${lang}@example.ro`, lang);
      const next = page.getByRole('region', { name: ro ? 'Următorul test' : 'Your next test' });
      await expect.poll(() => next.getByText(names.test).count()).toBe(1);
      expect(await text(next, ro ? 'Durata: 45 de minute' : 'Length: 45 minutes')).toBe(true);
      const check = next.getByRole('link', {
        name: ro ? 'Verifică conexiunea' : 'Check your connection',
      });
      expect(await check.getAttribute('href')).toBe('/verificare-conexiune');
      await shot(page, `home-student-${lang}`);

      const bell = page.getByRole('button', {
        name: ro ? 'Notificări: 1 necitită' : 'Notifications: 1 unread',
      });
      await expect.poll(() => bell.count()).toBe(1);
      await bell.click();
      const panel = page.getByRole('dialog', { name: ro ? 'Notificări' : 'Notifications' });
      await expect
        .poll(() =>
          panel
            .getByText(ro ? /Testul Proba de algebră începe/ : /The test Proba de algebră starts/)
            .count(),
        )
        .toBe(1);
      await shot(page, `bell-${lang}`, { fullPage: false });
      await panel
        .getByRole('button', { name: ro ? 'Marchează toate ca citite' : 'Mark all as read' })
        .click();
      await expect
        .poll(() => panel.getByText(ro ? 'Toate sunt citite.' : 'All read.').count())
        .toBe(1);
      await panel.getByRole('button', { name: ro ? 'Închide' : 'Close' }).click();
      await expect
        .poll(() =>
          page
            .getByRole('button', { name: ro ? 'Notificări' : 'Notifications', exact: true })
            .count(),
        )
        .toBe(1);
      await page.context().close();
    });

    it(`${lang}: a teacher sees and finds their own students only`, async () => {
      const page = await signIn('prof@example.ro', lang);
      const students = page.getByRole('region', {
        name: ro ? 'Elevii dumneavoastră' : 'Your students',
      });
      await expect
        .poll(() => students.getByText(ro ? 'Aveți 2 elevi.' : 'You have 2 students.').count())
        .toBe(1);
      expect(await text(students, ro ? '2 elevi' : '2 students')).toBe(true);
      await shot(page, `home-teacher-${lang}`);

      const search = page.getByLabel(ro ? 'Caută' : 'Search', { exact: true });
      await search.fill('Ascunsescu');
      await expect.poll(() => page.getByText(ro ? 'Nimic găsit' : 'Nothing found').count()).toBe(1);
      await search.fill('Elevescu');
      await expect.poll(() => page.getByRole('option', { name: /Ioana Elevescu/ }).count()).toBe(1);
      expect(await page.getByText(ro ? 'Persoane' : 'People').count()).toBe(1);
      await shot(page, `search-${lang}`, { fullPage: false });
      // Keyboard alone: down to the first person, Enter opens the students list.
      await search.press('ArrowDown');
      await search.press('Enter');
      await page.waitForURL('**/elevi?persoana=*');
      await page.context().close();
    });

    it(`${lang}: an organiser sees what blocks the phase, with a link to fix it`, async () => {
      const page = await signIn('org@example.ro', lang);
      const phases = page.getByRole('region', {
        name: ro ? 'Etape în desfășurare' : 'Phases in progress',
      });
      const fix = phases.getByRole('link', {
        name: ro ? 'O întrebare fără corectori' : 'One question without markers',
      });
      await expect.poll(() => fix.count()).toBe(1);
      await shot(page, `home-organiser-${lang}`);
      await fix.click();
      await page.waitForURL('**/questions');
      await page.context().close();
    });

    it(`${lang}: a plain marker's menu has no empty "Competitions"`, async () => {
      const page = await signIn('corector@example.ro', lang);
      const menu = page.getByRole('navigation');
      await expect
        .poll(() => menu.getByRole('link', { name: ro ? 'De corectat' : 'To mark' }).count())
        .toBe(1);
      // Once the home has said the marker sees no competition.
      await expect
        .poll(() => menu.getByRole('link', { name: ro ? 'Concursuri' : 'Competitions' }).count())
        .toBe(0);
      await shot(page, `home-marker-${lang}`);
      await page.context().close();
    });

    it(`${lang}: the password changes and other sessions end`, async () => {
      const email = `elev.${lang}@example.ro`;
      const elsewhere = await signIn(email, lang);
      const page = await signIn(email, lang);
      await page.getByRole('button', { name: ro ? 'Contul meu' : 'My account' }).click();
      await page
        .getByRole('menuitem', { name: ro ? 'Parolă și sesiuni' : 'Password and sessions' })
        .click();
      await page.waitForURL('**/cont/securitate');
      await expect
        .poll(() => page.getByText(ro ? 'Sesiunea aceasta' : 'This session').count())
        .toBe(1);
      await page.getByLabel(ro ? 'Parola actuală' : 'Current password').fill('nu-e-parola-mea');
      await page.getByLabel(ro ? 'Parola nouă' : 'New password').fill('o-parola-noua-2026');
      await page
        .getByRole('button', { name: ro ? 'Schimbă parola' : 'Change the password' })
        .click();
      await expect
        .poll(() =>
          page
            .getByText(
              ro ? 'Parola actuală nu este corectă.' : 'The current password is not right.',
            )
            .count(),
        )
        .toBe(1);
      await shot(page, `security-${lang}`);
      await page.getByLabel(ro ? 'Parola actuală' : 'Current password').fill(PASSWORD);
      await page
        .getByRole('button', { name: ro ? 'Schimbă parola' : 'Change the password' })
        .click();
      await expect
        .poll(() =>
          page.getByText(ro ? /Parola a fost schimbată/ : /Your password has been changed/).count(),
        )
        .toBe(1);
      await expect
        .poll(() =>
          page
            .getByText(
              ro
                ? 'Contul este deschis doar în această sesiune.'
                : 'Your account is open in this session only.',
            )
            .count(),
        )
        .toBe(1);
      // The other browser is signed out on its next request.
      await elsewhere.reload();
      await expect
        .poll(() =>
          elsewhere.getByRole('button', { name: ro ? 'Intră în cont' : 'Sign in' }).count(),
        )
        .toBe(1);
      await elsewhere.context().close();
      await page.context().close();
    });
  }
});
