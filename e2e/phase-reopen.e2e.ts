import { execFileSync } from 'node:child_process';
import { and, eq, isNull } from 'drizzle-orm';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { makeEdition, makeEnrolment, makeExam, makePhase } from '../server/db/factories.js';
import {
  auditEvents,
  diplomas,
  phasePrizes,
  phaseResults,
  phaseRules,
  phases,
} from '../server/db/schema.js';
import { RULE_PRESETS } from '../server/modules/rankings/rule-presets.js';
import { hasChromium, openBrowser, type Podium, shot, startPodium } from './harness.js';
import { type Lang, openPage, PASSWORD, signInOn } from './session.js';

const DAY = 86_400_000;

const eventually = <T>(fn: () => T | Promise<T>) =>
  expect.poll(fn, { timeout: 45_000, interval: 150 });
const LONG = 400_000;

/** The national phase's students, with the prizes its rules gave them at the first close. */
const STUDENTS = [
  { login: 'ana', given: 'Ana', family: 'Țurcanu', total: 20, prize: 'first' },
  { login: 'ion', given: 'Ion', family: 'Bălan', total: 15, prize: 'second' },
  { login: 'elena', given: 'Elena', family: 'Stan', total: 10, prize: 'third' },
] as const;

// A correction after the last phase closed: the exam admin reopens it from the phase page
// (a written reason is required), a total is corrected, and closing it again from its rules
// lists who changes; done once in Romanian, then once in English.
describe.skipIf(!hasChromium)('a closed phase reopened for a correction', () => {
  let podium: Podium;
  let browser: Browser;
  const ids = { exam: '', edition: '', phase: '' };
  const people: Record<string, string> = {};
  const phaseUrl = () => `/examene/${ids.exam}/editii/${ids.edition}/phases/${ids.phase}`;

  let current: Page | undefined;
  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail' && current && !current.isClosed()) {
      await shot(current, `failed-phase-reopen-${ctx.task.name.slice(0, 40).replace(/\W+/g, '-')}`);
    }
  });

  beforeAll(async () => {
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
    const exam = await makeExam(db, {
      name: 'Olimpiada de Matematică',
      grades: [5],
      adminTeacherIds: [examAdmin.id],
    });
    const edition = await makeEdition(db, { examId: exam.id, name: '2025–2026' });
    const now = Date.now();
    // The edition's only (so last) phase, written last week, awarded by the national rules.
    const phase = await makePhase(db, {
      editionId: edition.id,
      name: 'Etapa națională',
      startDate: new Date(now - 8 * DAY),
      endDate: new Date(now - 7 * DAY),
    });
    Object.assign(ids, { exam: exam.id, edition: edition.id, phase: phase.id });
    await db.insert(phaseRules).values({
      phaseId: phase.id,
      rules: RULE_PRESETS.national_prizes.rules,
      updatedBy: examAdmin.id,
    });
    for (const s of STUDENTS) {
      const { id } = await podium.createUser({
        email: `${s.login}@example.ro`,
        password: PASSWORD,
        type: 'student',
        givenName: s.given,
        familyName: s.family,
        grade: 5,
      });
      people[s.login] = id;
      await makeEnrolment(db, {
        editionId: edition.id,
        studentId: id,
        grade: 5,
        phaseIds: [phase.id],
      });
      await db
        .insert(phaseResults)
        .values({ phaseId: phase.id, studentId: id, points: s.total, tests: 1 });
      await db.insert(phasePrizes).values({ phaseId: phase.id, studentId: id, prize: s.prize });
    }
  }, LONG);
  afterAll(async () => {
    await browser?.close();
    await podium?.close();
  });

  const signIn = async (lang: Lang) => {
    current = await openPage(browser, lang, { timeout: 60_000 });
    return signInOn(current, podium.baseUrl, 'comisie@example.ro', { lang, timeout: 45_000 });
  };

  const toast = (page: Page, text: string) =>
    eventually(() =>
      page.getByRole('alert', { includeHidden: true }).filter({ hasText: text }).count(),
    ).toBeGreaterThan(0);
  const phaseState = async () =>
    (await podium.db.select().from(phases).where(eq(phases.id, ids.phase)))[0]?.state;
  const setTotal = (login: string, points: number) =>
    podium.db
      .update(phaseResults)
      .set({ points })
      .where(
        and(eq(phaseResults.phaseId, ids.phase), eq(phaseResults.studentId, people[login] ?? '')),
      );

  /** A diploma printed for the student while the phase was closed, with their prize then. */
  const printDiploma = (
    login: string,
    name: string,
    code: string,
    prize: 'first' | 'second' | 'third',
  ) =>
    podium.db.insert(diplomas).values({
      code,
      phaseId: ids.phase,
      userId: people[login] ?? '',
      kind: 'student',
      name,
      examName: 'Olimpiada de Matematică',
      editionName: '2025–2026',
      phaseName: 'Etapa națională',
      grade: 5,
      school: null,
      prize,
    });

  /** The organisers' list of diplomas to reissue, on the phase page: `name`'s is reissued. */
  const reissueFromPhasePage = async (
    page: Page,
    o: {
      section: string;
      table: string;
      rows: number;
      name: string;
      row: RegExp;
      flag: string;
      button: string;
      toast: string;
      shot: string;
      /** What the reissued diploma prints (documents are in Romanian whatever the screen). */
      printed: string;
      /** The code the diploma had before. */
      oldCode: string;
    },
  ) => {
    await page.goto(`${podium.baseUrl}${phaseUrl()}`);
    const section = page.getByRole('region', { name: o.section });
    const table = section.getByRole('table', { name: o.table });
    await eventually(() => table.locator('tbody tr').count()).toBe(o.rows);
    const row = table.locator('tbody tr').filter({ hasText: o.name });
    expect(await row.innerText()).toMatch(o.row);
    expect(await row.getByText(o.flag, { exact: true }).count()).toBe(1);
    await shot(page, o.shot);
    // The reissued diploma is downloaded at once, under its new code.
    const [download] = await Promise.all([
      page.waitForEvent('download', { timeout: 45_000 }),
      row.getByRole('button', { name: o.button }).click(),
    ]);
    await toast(page, o.toast);
    const fileName = download.suggestedFilename();
    expect(fileName).toMatch(/^diploma-[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}\.pdf$/);
    const code = fileName.slice('diploma-'.length, -'.pdf'.length);
    expect(code).not.toBe(o.oldCode);
    const said = page.getByRole('alert', { includeHidden: true }).filter({ hasText: o.toast });
    expect(await said.filter({ hasText: code }).count()).toBeGreaterThan(0);
    const text = execFileSync('pdftotext', [await download.path(), '-'], { encoding: 'utf8' });
    expect(text).toContain(o.name);
    expect(text).toContain(o.printed);
    expect(text).toContain(`Cod de verificare: ${code}`);
    // Reissued, it is no longer flagged.
    await eventually(() =>
      page
        .getByRole('region', { name: o.section })
        .locator('tbody tr')
        .filter({ hasText: o.name })
        .count(),
    ).toBe(0);
  };

  /** Closes the last phase from its rules page (the button and dialog in `lang`). */
  const closeFromRules = async (page: Page, close: string, title: string) => {
    await page.goto(`${podium.baseUrl}${phaseUrl()}/reguli`);
    await page.getByRole('button', { name: close, exact: true }).click();
    const dialog = page.getByRole('dialog', { name: title });
    await dialog.getByRole('button', { name: close, exact: true }).click();
    await eventually(phaseState).toBe('closed');
  };

  it(
    'in Romanian: closes, reopens with a required reason, closes again and lists who changes',
    async () => {
      const page = await signIn('ro');
      await closeFromRules(page, 'Închide ultima etapă', 'Închideți etapa?');
      // A first close changes nobody: no list.
      expect(await page.getByRole('dialog', { name: /Cine se schimbă/ }).count()).toBe(0);
      // Elena's diploma (Premiul al III-lea) is printed while the phase is closed.
      await printDiploma('elena', 'Elena Stan', 'K7M2P9QR4T5V', 'third');

      await page.goto(`${podium.baseUrl}${phaseUrl()}`);
      await page.getByRole('button', { name: 'Redeschide etapa' }).click();
      const dialog = page.getByRole('dialog', { name: 'Redeschizi etapa „Etapa națională”?' });
      await eventually(() => dialog.getByText(/se aplică iar regulile/).count()).toBe(1);
      // No reason: refused on the field, nothing sent.
      await dialog.getByRole('button', { name: 'Redeschide etapa' }).click();
      await eventually(() => dialog.getByText('Câmpul este obligatoriu').count()).toBe(1);
      expect(await phaseState()).toBe('closed');
      await shot(page, 'phase-reopen-reason-required-ro', { fullPage: false });
      await dialog
        .getByLabel(/Motivul redeschiderii/)
        .fill('Punctajul Elenei a fost adunat greșit (contestație admisă de comisie).');
      await shot(page, 'phase-reopen-dialog-ro', { fullPage: false });
      await dialog.getByRole('button', { name: 'Redeschide etapa' }).click();
      await toast(page, 'Etapa „Etapa națională” a fost redeschisă.');
      await eventually(phaseState).toBe('open');
      const [audit] = await podium.db
        .select()
        .from(auditEvents)
        .where(and(eq(auditEvents.entityId, ids.phase), eq(auditEvents.action, 'phase.reopen')));
      expect(audit?.reason).toBe(
        'Punctajul Elenei a fost adunat greșit (contestație admisă de comisie).',
      );

      // The correction: Elena's total goes from 10 to 25, above both others.
      await setTotal('elena', 25);
      await closeFromRules(page, 'Închide ultima etapă', 'Închideți etapa?');
      const changes = page.getByRole('dialog', { name: 'Cine se schimbă după închiderea din nou' });
      const rows = () =>
        changes
          .getByRole('table', { name: 'Elevii ale căror rezultate s-au schimbat' })
          .locator('tbody tr')
          .allInnerTexts();
      await eventually(async () => (await rows()).length).toBe(3);
      const text = (await rows()).join('\n');
      expect(text).toMatch(/Stan Elena\s+10 → 25\s+3 → 1\s+—\s+Premiul al III-lea → Premiul I/);
      expect(text).toMatch(/Țurcanu Ana\s+20\s+1 → 2\s+—\s+Premiul I → Premiul al II-lea/);
      expect(text).toMatch(/Bălan Ion\s+15\s+2 → 3/);
      await shot(page, 'phase-reopen-changes-ro', { fullPage: false });
      await changes.getByRole('button', { name: 'Închide', exact: true }).click();
      const [prize] = await podium.db
        .select()
        .from(phasePrizes)
        .where(
          and(eq(phasePrizes.phaseId, ids.phase), eq(phasePrizes.studentId, people.elena ?? '')),
        );
      expect(prize?.prize).toBe('first');
      await podium.deliverMail();
      expect((await podium.lastMail('elena@example.ro')).subject).toContain('Etapa națională');

      // Her printed diploma says Premiul al III-lea: flagged on the phase page, reissued.
      await reissueFromPhasePage(page, {
        section: 'Diplome de reemis',
        table: 'Diplome tipărite cu rezultate schimbate',
        rows: 1,
        name: 'Elena Stan',
        row: /Elena Stan\s+Premiul al III-lea\s+K7M2-P9QR-4T5V/,
        flag: 'Neactualizată',
        button: 'Reemite diploma',
        toast: 'Diploma pentru Elena Stan a fost reemisă cu codul',
        shot: 'phase-reopen-stale-diplomas-ro',
        printed: 'Premiul I\n',
        oldCode: 'K7M2-P9QR-4T5V',
      });
      const [fresh] = await podium.db
        .select()
        .from(diplomas)
        .where(and(eq(diplomas.userId, people.elena ?? ''), isNull(diplomas.replacedAt)));
      expect(fresh?.prize).toBe('first');
      // The old code's check says it was replaced, and what it printed.
      await page.goto(`${podium.baseUrl}/diploma/verificare/K7M2-P9QR-4T5V`);
      await eventually(() =>
        page.getByRole('heading', { name: 'Diplomă înlocuită', level: 1 }).count(),
      ).toBe(1);
      expect(await page.getByText(/a fost înlocuită pe/).count()).toBe(1);
      expect(await page.getByText('Premiul al III-lea').count()).toBe(1);
      await shot(page, 'diploma-verify-replaced-ro', { fullPage: false });
      await page.context().close();
    },
    LONG,
  );

  it(
    'in English: the same reopening and the list of who changes',
    async () => {
      const page = await signIn('en');
      await page.goto(`${podium.baseUrl}${phaseUrl()}`);
      await page.getByRole('button', { name: 'Reopen phase' }).click();
      const dialog = page.getByRole('dialog', { name: 'Reopen the phase “Etapa națională”?' });
      await dialog.getByRole('button', { name: 'Reopen phase' }).click();
      await eventually(() => dialog.getByText('The field is required').count()).toBe(1);
      await dialog.getByLabel(/Reason for reopening/).fill('Ion’s second paper was left out.');
      await shot(page, 'phase-reopen-dialog-en', { fullPage: false });
      await dialog.getByRole('button', { name: 'Reopen phase' }).click();
      await toast(page, 'The phase “Etapa națională” has been reopened.');
      await eventually(phaseState).toBe('open');

      // Ion's diploma was printed before (Premiul al III-lea, after the first correction).
      await printDiploma('ion', 'Ion Bălan', 'M3N4P5Q6R7S8', 'third');
      await setTotal('ion', 30);
      await closeFromRules(page, 'Close the last phase', 'Close the phase?');
      const changes = page.getByRole('dialog', { name: 'Who changes after closing again' });
      const rows = () =>
        changes
          .getByRole('table', { name: 'Students whose results changed' })
          .locator('tbody tr')
          .allInnerTexts();
      await eventually(async () => (await rows()).length).toBe(3);
      const text = (await rows()).join('\n');
      expect(text).toMatch(/Bălan Ion\s+15 → 30\s+3 → 1\s+—\s+Third prize → First prize/);
      await shot(page, 'phase-reopen-changes-en', { fullPage: false });
      await changes.getByRole('button', { name: 'Close', exact: true }).click();

      await reissueFromPhasePage(page, {
        section: 'Diplomas to reissue',
        table: 'Printed diplomas whose results changed',
        // Elena's reissued diploma (Premiul I) is out of date again: Ion passes her.
        rows: 2,
        name: 'Ion Bălan',
        row: /Ion Bălan\s+Third prize\s+M3N4-P5Q6-R7S8/,
        flag: 'Out of date',
        button: 'Reissue diploma',
        toast: 'The diploma of Ion Bălan was reissued with the code',
        shot: 'phase-reopen-stale-diplomas-en',
        printed: 'Premiul I\n',
        oldCode: 'M3N4-P5Q6-R7S8',
      });
      await page.goto(`${podium.baseUrl}/diploma/verificare/M3N4-P5Q6-R7S8`);
      await eventually(() =>
        page.getByRole('heading', { name: 'Diploma replaced', level: 1 }).count(),
      ).toBe(1);
      expect(await page.getByText(/was replaced on/).count()).toBe(1);
      await shot(page, 'diploma-verify-replaced-en', { fullPage: false });
      await page.context().close();
    },
    LONG,
  );
});
