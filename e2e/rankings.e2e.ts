import { readFile } from 'node:fs/promises';
import { and, eq } from 'drizzle-orm';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  makeEdition,
  makeEnrolment,
  makeExam,
  makePhase,
  makeTestWithItems,
  type QuestionRow,
} from '../server/db/factories.js';
import {
  answers,
  attempts,
  phasePrizes,
  phaseResults,
  phases,
  questions,
  rankingState,
} from '../server/db/schema.js';
import { systemClock } from '../server/lib/clock.js';
import { uuidv7 } from '../server/lib/ids.js';
import { rankingsService } from '../server/modules/rankings/index.js';
import { rescoreTest, scoreEndedAttempts } from '../server/modules/results/index.js';
import { hasChromium, openBrowser, type Podium, shot, startPodium } from './harness.js';
import { LAPTOP, type Lang, openSignedIn, PASSWORD } from './session.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** Polls until the expectation holds: the app fetches and animates, the machine is shared. */
const eventually = <T>(fn: () => T | Promise<T>) =>
  expect.poll(fn, { timeout: 45_000, interval: 150 });
/** A journey's own time: a shared machine can make each step take seconds. */
const LONG = 400_000;

/**
 * Each student's answers to the four problems of their grade's paper (7 points each, the
 * key is option 0): `0` right, anything else wrong. Ioana is still writing when the journey
 * starts; Radu starts later.
 */
const GRADE_5 = [
  { given: 'Andrei', family: 'Pop', county: 'Iași', picks: [0, 0, 0, 0] },
  { given: 'Maria', family: 'Ionescu', county: 'Cluj', picks: [0, 0, 0, 1] },
  { given: 'Ștefan', family: 'Dumitrescu', county: 'Cluj', picks: [0, 0, 0, 2] },
  { given: 'Elena', family: 'Stan', county: 'Timiș', picks: [0, 0, 3, 2] },
  { given: 'Ioana', family: 'Marin', county: 'Cluj', picks: [0, 1, 1, 2], running: true },
  { given: 'Vlad', family: 'Rusu', county: 'Brașov', picks: [1, 1, 2, 1] },
] as const;
const GRADE_6 = [
  { given: 'Ana', family: 'Georgescu', county: 'Dolj', picks: [0, 0, 0, 0] },
  { given: 'Mihai', family: 'Tudor', county: 'Cluj', picks: [0, 0, 1, 1] },
] as const;

// The end of a phase: its ranking for the commission and a coordinator, the national preset's
// prizes tried in a dry run and applied (refused while someone writes and after the results
// moved, in words), the edition's last phase closed, and a student's own place and the
// published ranking on a phone.
describe.skipIf(!hasChromium)('rankings, prizes and closing in the browser', () => {
  let podium: Podium;
  let browser: Browser;
  const ids = { examId: '', editionId: '', phaseId: '' };
  const papers: Record<number, { testId: string; questions: QuestionRow[] }> = {};
  const people: Record<string, string> = {};
  const phaseUrl = () => `/examene/${ids.examId}/editii/${ids.editionId}/phases/${ids.phaseId}`;

  /** A student's attempt with their answers; a finished one is scored as the server does. */
  async function writePaper(
    studentId: string,
    grade: number,
    picks: readonly number[],
    running = false,
  ) {
    const paper = papers[grade];
    if (!paper) throw new Error(`no paper for grade ${grade}`);
    const attemptId = uuidv7();
    const now = Date.now();
    await podium.db.insert(attempts).values({
      id: attemptId,
      testId: paper.testId,
      studentId,
      state: running ? 'in_progress' : 'finished',
      startedAt: new Date(now - HOUR),
      deadlineAt: new Date(now + (running ? HOUR : -60_000)),
      itemOrder: paper.questions.map((q) => q.id),
      finishedAt: running ? null : new Date(now - 120_000),
      finishedBy: running ? null : 'student',
    });
    await podium.db.insert(answers).values(
      paper.questions.map((q, i) => ({
        id: uuidv7(),
        testId: paper.testId,
        studentId,
        questionId: q.id,
        attemptId,
        submittedAnswer: [picks[i] ?? 1],
        seq: i + 1,
      })),
    );
    if (!running) await finishPaper(attemptId, studentId, grade);
    return attemptId;
  }

  /** Ends an attempt and scores it, as the player's "finish" does. */
  async function finishPaper(attemptId: string, studentId: string, grade: number) {
    const testId = papers[grade]?.testId ?? '';
    const at = new Date();
    await podium.db.transaction(async (tx) => {
      await tx
        .update(attempts)
        .set({ state: 'finished', finishedAt: at, finishedBy: 'student' })
        .where(eq(attempts.id, attemptId));
      await scoreEndedAttempts(tx, [{ attemptId, testId, studentId }], at);
    });
  }

  async function student(
    s: { given: string; family: string; county: string },
    grade: number,
    teacherRef?: string,
  ) {
    const email = `${s.given.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase()}@example.ro`;
    const { id } = await podium.createUser({
      email,
      password: PASSWORD,
      type: 'student',
      givenName: s.given,
      familyName: s.family,
      county: s.county,
      grade,
      ...(teacherRef ? { teacherRef } : {}),
    });
    await makeEnrolment(podium.db, {
      editionId: ids.editionId,
      studentId: id,
      grade,
      phaseIds: [ids.phaseId],
    });
    people[s.given] = id;
    return id;
  }

  const attemptOf: Record<string, string> = {};

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
    const coordinator = await podium.createUser({
      email: 'radu.matei@example.ro',
      password: PASSWORD,
      type: 'teacher',
      givenName: 'Radu',
      familyName: 'Matei',
      county: 'Cluj',
      teacherCode: 'RADU-MATEI',
    });
    const exam = await makeExam(podium.db, { name: 'Olimpiada de Matematică', grades: [5, 6] });
    const edition = await makeEdition(podium.db, {
      examId: exam.id,
      name: 'Ediția 2026',
      coordinatorIds: [coordinator.id],
    });
    const now = Date.now();
    // The national phase, the edition's last: written, now in its appeal window.
    const phase = await makePhase(podium.db, {
      editionId: edition.id,
      name: 'Etapa națională',
      startDate: new Date(now - 2 * DAY),
      endDate: new Date(now + DAY),
      appealStartDate: new Date(now - HOUR),
      appealEndDate: new Date(now + 2 * DAY),
    });
    Object.assign(ids, { examId: exam.id, editionId: edition.id, phaseId: phase.id });
    for (const grade of [5, 6]) {
      const { test, questions: qs } = await makeTestWithItems(podium.db, {
        phaseId: phase.id,
        grades: [grade],
        name: `Clasa ${grade}`,
        items: [{ score: 7 }, { score: 7 }, { score: 7 }, { score: 7 }],
      });
      papers[grade] = { testId: test.id, questions: qs };
    }
    for (const s of GRADE_5) {
      const id = await student(s, 5, s.given === 'Maria' ? coordinator.id : undefined);
      attemptOf[s.given] = await writePaper(id, 5, s.picks, 'running' in s);
    }
    for (const s of GRADE_6) {
      const id = await student(s, 6);
      attemptOf[s.given] = await writePaper(id, 6, s.picks);
    }
  }, LONG);
  afterAll(async () => {
    await browser?.close();
    await podium?.close();
  });

  // Signed in once the form is gone (a phone keeps the menu that names the user in a drawer).
  const signIn = (email: string, lang: Lang = 'ro', phone = false) =>
    openSignedIn(browser, podium.baseUrl, email, lang, {
      viewport: phone ? { width: 390, height: 844 } : LAPTOP,
      phone,
      acceptDownloads: true,
      keepPickedLanguage: true,
      timeout: 60_000,
      until: 'form-gone',
    });

  const toast = (page: Page, text: string) =>
    eventually(() =>
      page.getByRole('alert', { includeHidden: true }).filter({ hasText: text }).count(),
    ).toBeGreaterThan(0);

  const rows = (page: Page, name: string | RegExp = 'Clasament') =>
    page.getByRole('table', { name }).locator('tbody tr');
  const rowTexts = (page: Page, name?: string | RegExp) => rows(page, name).allInnerTexts();

  const choose = async (page: Page, label: string, option: string) => {
    await page.getByRole('combobox', { name: label }).click();
    await page.getByRole('option', { name: option, exact: true }).click();
    await eventually(() => page.getByRole('listbox').count()).toBe(0);
  };

  it(
    'shows the commission the ranking: state, filters, sorting and elevi.csv',
    async () => {
      const page = await signIn('admin@example.ro');
      await page.goto(`${podium.baseUrl}${phaseUrl()}`);
      await page.getByRole('link', { name: 'Clasament' }).click();
      await page.waitForURL(/\/clasament$/);
      // Ioana is still writing: the ranking says it may still move.
      const state = page.getByTestId('ranking-state');
      await eventually(() => state.getAttribute('data-state')).toBe('awaiting_marking');
      await expect(state.innerText()).resolves.toContain('Un elev încă lucrează.');
      // Grade 5 first (the exam's first grade): five ranked while Ioana writes.
      await eventually(() => page.getByRole('heading', { level: 1 }).innerText()).toContain(
        '5 elevi clasați',
      );
      // It opens in place order; the whole page, not only its first row.
      await eventually(async () => (await rowTexts(page)).map((t) => t.split(/\s+/)[0])).toEqual([
        '1',
        '2',
        '2',
        '4',
        '5',
      ]);
      // Ties share the place: Maria and Ștefan are both second, Elena fourth.
      const texts = await rowTexts(page);
      expect(texts[0]).toMatch(/^1\s+Pop\s+Andrei/);
      expect(texts.filter((t) => /^2\s/.test(t))).toHaveLength(2);
      expect(texts[3]).toMatch(/^4\s+Stan\s+Elena/);
      await shot(page, 'rankings-staff-ro');

      await page.getByLabel('Caută după nume').fill('stefan');
      await eventually(() => rowTexts(page)).toEqual([expect.stringContaining('Dumitrescu')]);
      await page.getByLabel('Caută după nume').fill('');
      await choose(page, 'Județ', 'Cluj');
      await eventually(() => rows(page).count()).toBe(2);
      await choose(page, 'Clasa', 'Toate');
      await eventually(() => rows(page).count()).toBe(3);
      await eventually(() => page.getByRole('heading', { level: 1 }).innerText()).toContain(
        '3 elevi clasați',
      );

      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('button', { name: 'Descarcă (elevi.csv)' }).click(),
      ]);
      expect(download.suggestedFilename()).toBe('elevi.csv');
      const csv = await readFile(await download.path(), 'utf8');
      expect(csv.startsWith('\uFEFFLoc;Nume;Prenume;Clasa;Județ')).toBe(true);
      const lines = csv.trim().split('\r\n');
      expect(lines).toHaveLength(4);
      expect(lines.some((l) => l.startsWith('2;Dumitrescu;Ștefan;5;Cluj'))).toBe(true);
      expect(lines.some((l) => l.startsWith('2;Tudor;Mihai;6;Cluj'))).toBe(true);
      await page.context().close();
    },
    LONG,
  );

  it(
    'shows a coordinator only their own students, ranked among everyone',
    async () => {
      const page = await signIn('radu.matei@example.ro');
      await page.goto(`${podium.baseUrl}${phaseUrl()}/clasament`);
      await eventually(() => rowTexts(page)).toEqual([
        expect.stringMatching(/^2\s+Ionescu\s+Maria/),
      ]);
      await expect(page.getByText('Vedeți elevii dumneavoastră').count()).resolves.toBe(1);
      // The rules are the commission's: no way to them from here.
      await expect(page.getByRole('link', { name: 'Calificare și premii' }).count()).resolves.toBe(
        0,
      );
      await page.context().close();
    },
    LONG,
  );

  it(
    'says when a large ranking is being updated in the background, and refreshes itself after',
    async () => {
      const job = rankingsService({ db: podium.db, clock: systemClock });
      for (const lang of ['ro', 'en'] as const) {
        const page = await signIn('admin@example.ro', lang);
        await page.goto(`${podium.baseUrl}${phaseUrl()}/clasament`);
        const notice = page.getByTestId('ranking-updating');
        const download = page.getByRole('button', { name: /elevi\.csv/ });
        await eventually(() => rows(page, /Clasament|Ranking/).count()).toBeGreaterThan(0);
        await expect(notice.count()).resolves.toBe(0);
        // The phase's last rebuild took an hour (longer than any request may wait), and a total
        // is written again.
        await podium.db
          .update(rankingState)
          .set({ rebuildMs: HOUR })
          .where(eq(rankingState.phaseId, ids.phaseId));
        await podium.db
          .update(phaseResults)
          .set({ updatedAt: new Date() })
          .where(eq(phaseResults.phaseId, ids.phaseId));
        await page.reload();
        await eventually(() => notice.count()).toBe(1);
        await expect(notice.innerText()).resolves.toContain(
          lang === 'ro' ? 'Clasamentul se actualizează' : 'The ranking is being updated',
        );
        await expect(download.isDisabled()).resolves.toBe(true);
        await shot(page, `rankings-updating-${lang}`);
        // The background job ranks it; the page notices on its own.
        expect(await job.rebuildWanted()).toBe(1);
        await eventually(() => notice.count()).toBe(0);
        await expect(download.isDisabled()).resolves.toBe(false);
        await page.context().close();
      }
    },
    LONG,
  );

  it(
    'tries the national prizes, applies them and closes the last phase',
    async () => {
      const page = await signIn('admin@example.ro');
      await page.goto(`${podium.baseUrl}${phaseUrl()}/clasament`);
      await page.getByRole('link', { name: 'Calificare și premii' }).click();
      await page.waitForURL(/\/reguli$/);
      const blocked = page.getByTestId('apply-blocked');
      const apply = page.getByRole('button', { name: 'Aplică regulile' });

      // No rules yet: the dry run has nothing to apply, and says so.
      await page.getByRole('button', { name: 'Simulează' }).click();
      await eventually(() => blocked.innerText()).toContain('Activați calificarea sau premiile');

      // A wrong number is refused on its field, before anything is sent.
      await page.getByLabel('Calificare după reguli').check();
      await page.getByLabel('Locuri pe județ și clasă').fill('1,5');
      await page.getByRole('button', { name: 'Salvează regulile' }).click();
      await eventually(() => page.getByText('Valoare incorectă').count()).toBeGreaterThan(0);
      await page.getByLabel('Calificare după reguli').uncheck();

      // The national preset, shown to students with initials.
      await page
        .getByRole('region', { name: 'Porniți de la regulile olimpiadei' })
        .getByRole('button', { name: 'Folosește aceste reguli' })
        .nth(1)
        .click();
      await choose(page, 'Clasamentul arătat elevilor', 'Inițiale');
      await page.getByRole('button', { name: 'Salvează regulile' }).click();
      await toast(page, 'Regulile au fost salvate.');
      // Saved, run at once: Ioana is still writing, so nothing can be applied yet.
      await eventually(() => blocked.innerText()).toContain('nimeni nu mai lucrează');
      await expect(apply.isDisabled()).resolves.toBe(true);
      await shot(page, 'rankings-rules-incomplete-ro');

      // Ioana hands in her paper: the dry run can now be applied.
      await finishPaper(attemptOf.Ioana ?? '', people.Ioana ?? '', 5);
      await page.getByRole('button', { name: 'Simulează' }).click();
      await eventually(() => apply.isEnabled()).toBe(true);
      await page.getByRole('tab', { name: /^Premii/ }).click();
      const awarded = () => rowTexts(page, /^Premii \(/);
      await eventually(awarded).toContainEqual(expect.stringMatching(/Pop Andrei.*Premiul I$/s));

      // Meanwhile a late student starts writing: applying is refused, in words.
      const late = await student({ given: 'Radu', family: 'Enache', county: 'Cluj' }, 6);
      attemptOf.Radu = await writePaper(late, 6, [0, 1, 1, 1], true);
      await apply.click();
      const dialog = page.getByRole('dialog', { name: 'Aplicați regulile?' });
      await dialog.getByRole('button', { name: 'Aplică regulile' }).click();
      await eventually(() => dialog.innerText()).toContain(
        'Rezultatele nu sunt încă complete, așa că nu s-a scris nimic. Un elev încă lucrează.',
      );
      await dialog.getByRole('button', { name: 'Închide', exact: true }).click();

      // He finishes, and an erratum to problem 4's key is re-scored: the outcome moved.
      await finishPaper(attemptOf.Radu, late, 6);
      const four = papers[5]?.questions[3];
      if (!four) throw new Error('no problem 4');
      await podium.db.transaction(async (tx) => {
        await tx
          .update(questions)
          .set({ itemCorrectAnswers: [1] })
          .where(eq(questions.id, four.id));
        await rescoreTest(tx, papers[5]?.testId ?? '', new Date());
      });
      await apply.click();
      await dialog.getByRole('button', { name: 'Aplică regulile' }).click();
      await eventually(() => dialog.innerText()).toContain(
        'Rezultatele s-au schimbat de la simulare',
      );
      await dialog.getByRole('button', { name: 'Simulează din nou' }).click();
      await eventually(() => dialog.count()).toBe(0);
      // Now Maria is first (28), Andrei and Ștefan share the second prize.
      await page.getByRole('tab', { name: /^Premii/ }).click();
      await eventually(() => rowTexts(page, 'Premii (9)')).toContainEqual(
        expect.stringMatching(/Ionescu Maria.*Premiul I$/s),
      );
      await shot(page, 'rankings-dry-run-ro');
      await apply.click();
      await dialog.getByRole('button', { name: 'Aplică regulile' }).click();
      await toast(page, 'Regulile au fost aplicate.');
      await eventually(() => blocked.innerText()).toContain('Deja aplicate');
      const prizeOf = async (name: string) =>
        (
          await podium.db
            .select({ prize: phasePrizes.prize })
            .from(phasePrizes)
            .where(
              and(
                eq(phasePrizes.phaseId, ids.phaseId),
                eq(phasePrizes.studentId, people[name] ?? ''),
              ),
            )
        )[0]?.prize;
      expect(await prizeOf('Maria')).toBe('first');
      expect(await prizeOf('Andrei')).toBe('second');
      expect(await prizeOf('Ștefan')).toBe('second');

      // Before the phase closes, the student reads her prize as provisional, in both languages.
      for (const lang of ['ro', 'en'] as const) {
        const maria = await signIn('maria@example.ro', lang, true);
        await maria.goto(`${podium.baseUrl}/tests`);
        const card = maria.getByTestId('my-rank');
        await eventually(() => card.innerText()).toContain(
          lang === 'ro' ? 'Premiul I · provizoriu' : 'First prize · provisional',
        );
        await expect(card.innerText()).resolves.toContain(
          lang === 'ro'
            ? 'Premiile și calificarea sunt provizorii: devin definitive abia la închiderea etapei.'
            : 'Prizes and qualification are provisional: they become final only when the phase closes.',
        );
        await card.scrollIntoViewIfNeeded();
        await shot(maria, `rankings-my-tests-provisional-phone-${lang}`);
        await maria.context().close();
      }

      // The same screen in English, before the phase closes.
      const en = await signIn('admin@example.ro', 'en');
      await en.goto(`${podium.baseUrl}${phaseUrl()}/reguli`);
      await en.getByRole('button', { name: 'Dry run' }).click();
      await eventually(() => en.getByTestId('apply-blocked').innerText()).toContain(
        'Already applied',
      );
      await shot(en, 'rankings-rules-en');
      await en.context().close();

      // The edition's last phase closes: results and prizes become final.
      await page.getByRole('button', { name: 'Închide ultima etapă' }).click();
      const closing = page.getByRole('dialog', { name: 'Închideți etapa?' });
      await closing.getByRole('button', { name: 'Închide ultima etapă' }).click();
      await toast(page, 'Etapa a fost închisă');
      await eventually(() => page.getByText('Etapa este închisă: regulile rămân').count()).toBe(1);
      const [closed] = await podium.db
        .select({ state: phases.state })
        .from(phases)
        .where(eq(phases.id, ids.phaseId));
      expect(closed?.state).toBe('closed');

      await page.goto(`${podium.baseUrl}${phaseUrl()}/clasament`);
      await eventually(() => page.getByTestId('ranking-state').getAttribute('data-state')).toBe(
        'final',
      );
      await eventually(async () => (await rowTexts(page))[0]).toMatch(
        /^1\s+Ionescu\s+Maria.*Premiul I$/s,
      );
      await shot(page, 'rankings-final-ro');
      await page.context().close();
    },
    LONG,
  );

  for (const lang of ['ro', 'en'] as const) {
    it(
      `shows a student her place and the published ranking on a phone (${lang})`,
      async () => {
        const page = await signIn('maria@example.ro', lang, true);
        await page.goto(`${podium.baseUrl}/tests`);
        const card = page.getByTestId('my-rank');
        await eventually(() => card.getByTestId('my-rank-place').innerText()).toBe(
          lang === 'ro' ? 'Locul 1 din 6' : 'Place 1 of 6',
        );
        await expect(card.innerText()).resolves.toContain(
          lang === 'ro' ? 'Premiul I' : 'First prize',
        );
        await expect(card.innerText()).resolves.not.toMatch(/provizori|provisional/);
        await card.scrollIntoViewIfNeeded();
        await shot(page, `rankings-my-tests-phone-${lang}`);
        await card
          .getByRole('link', { name: lang === 'ro' ? 'Vezi clasamentul' : 'See the ranking' })
          .click();
        const name = lang === 'ro' ? 'Clasament' : 'Ranking';
        // Initials only; her own row is marked.
        await eventually(async () => (await rowTexts(page, name))[0]).toMatch(
          new RegExp(`^1\\s+I\\. M\\.\\s+${lang === 'ro' ? 'Dvs\\.' : 'You'}\\s+Cluj`),
        );
        const all = (await rowTexts(page, name)).join('\n');
        expect(all).not.toContain('Ionescu');
        expect(all).not.toContain('Andrei');
        await shot(page, `rankings-published-phone-${lang}`);
        await page.context().close();
      },
      LONG,
    );
  }
});
