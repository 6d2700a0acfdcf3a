import { readFileSync } from 'node:fs';
import { and, eq, sql } from 'drizzle-orm';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  makeEdition,
  makeEnrolment,
  makeExam,
  makePhase,
  makeTestWithItems,
  type TestItemSeed,
} from '../server/db/factories.js';
import { answers, attempts } from '../server/db/schema.js';
import { hasChromium, openBrowser, type Podium, shot, startPodium } from './harness.js';
import { tabTo } from './keyboard.js';
import { apiSession, LAPTOP, type Lang, openDevice, PASSWORD, PHONE } from './session.js';

const MINUTE = 60_000;

/**
 * The test's questions, each known by a word of its statement (every student sees them in
 * an order of their own, and the options of choice questions too).
 */
const QUESTIONS = {
  fraction: {
    word: 'fracții',
    seed: {
      itemQ: 'Adunați fracțiile: cât face $\\frac{1}{2} + \\frac{1}{4}$?',
      itemType: 'single',
      itemAnswers: ['trei sferturi', 'două șesimi', 'un întreg', 'o optime'],
      itemCorrectAnswers: [0],
      score: 10,
    },
  },
  prime: {
    word: 'prime',
    seed: {
      itemQ: 'Care dintre numerele următoare sunt **prime**?',
      itemType: 'multiple',
      itemAnswers: ['2', '9', '11', '15'],
      itemCorrectAnswers: [0, 2],
      score: 20,
    },
  },
  area: {
    word: 'triunghiul',
    seed: { itemType: 'numeric', itemAnswers: [], itemCorrectAnswers: '7.5', score: 30 },
  },
  hexagon: {
    word: 'hexagon',
    seed: {
      itemQ: 'Câte laturi are un hexagon?',
      itemType: 'single',
      itemAnswers: ['4', '5', '6', '8'],
      itemCorrectAnswers: [2],
      score: 10,
    },
  },
  power: {
    word: 'puterea',
    seed: {
      itemQ: 'Calculați puterea $2^{10}$.',
      itemType: 'numeric',
      itemAnswers: [],
      itemCorrectAnswers: '1024',
      score: 30,
    },
  },
} satisfies Record<string, { word: string; seed: TestItemSeed }>;
type QuestionKey = keyof typeof QUESTIONS;

const TEXT = {
  ro: {
    start: 'Începe testul',
    finish: 'Încheie testul',
    confirm: 'Da, încheie testul',
    question: 'Întrebarea',
    saved: 'Salvat',
    local: 'Salvat pe acest dispozitiv',
    numeric: 'Răspunsul dumneavoastră',
    terms: [
      /singur sau singură/,
      /materiale, site-uri sau programe nepermise/,
      /nu voi ajuta alți participanți/,
      /am citit regulamentul/,
    ],
  },
  en: {
    start: 'Start the test',
    finish: 'Finish the test',
    confirm: 'Yes, finish the test',
    question: 'Question',
    saved: 'Saved',
    local: 'Saved on this device',
    numeric: 'Your answer',
    terms: [
      /on my own/,
      /forbidden materials/,
      /not help other participants/,
      /read the competition/,
    ],
  },
} as const;

/** A right triangle with legs of 3 and 5 cm, drawn by the browser as a PNG. */
async function trianglePng(browser: Browser): Promise<Buffer> {
  const page = await browser.newPage({ viewport: { width: 360, height: 220 } });
  await page.setContent(`<body style="margin:0;background:#fff">
    <svg xmlns="http://www.w3.org/2000/svg" width="360" height="220" font-family="sans-serif" font-size="18">
      <polygon points="60,190 300,190 60,46" fill="#e3f2fd" stroke="#1565c0" stroke-width="3"/>
      <rect x="60" y="172" width="18" height="18" fill="none" stroke="#1565c0" stroke-width="2"/>
      <text x="160" y="212">5 cm</text><text x="8" y="124">3 cm</text>
    </svg></body>`);
  const png = await page.screenshot({ clip: { x: 0, y: 0, width: 360, height: 220 } });
  await page.close();
  return png;
}

describe.skipIf(!hasChromium)('taking an online test in the browser', () => {
  let podium: Podium;
  let browser: Browser;
  let testId = '';
  let phaseId = '';
  let editionId = '';
  /** Options of each question in the question's own order (the stored indices refer to it). */
  const ownOptions = new Map<string, string[]>();
  const questionIds = new Map<QuestionKey, string>();
  const students = new Map<string, string>();

  const apiLogin = (email: string) => apiSession(podium.baseUrl, email);

  beforeAll(async () => {
    podium = await startPodium();
    browser = await openBrowser();
    const now = Date.now();
    await podium.createUser({
      email: 'profesor@example.ro',
      password: PASSWORD,
      type: 'admin',
      givenName: 'Radu',
      familyName: 'Matei',
    });
    const exam = await makeExam(podium.db, {
      name: 'Olimpiada de Matematică',
      grades: [5, 6, 7, 8],
    });
    const edition = await makeEdition(podium.db, { examId: exam.id, name: 'Ediția 2026' });
    const phase = await makePhase(podium.db, {
      editionId: edition.id,
      name: 'Etapa pe școală',
      startDate: new Date(now - 60 * MINUTE),
      endDate: new Date(now + 24 * 60 * MINUTE),
    });

    // The figure of the area question, uploaded the way a teacher does.
    const admin = await apiLogin('profesor@example.ro');
    const form = new FormData();
    form.append(
      'file',
      new Blob([new Uint8Array(await trianglePng(browser))], { type: 'image/png' }),
      'triunghi.png',
    );
    const upload = await fetch(`${podium.baseUrl}/api/v1/resource-mgmt/files`, {
      method: 'POST',
      headers: { authorization: `Bearer ${admin.token}`, userid: admin.userId },
      body: form,
    });
    if (!upload.ok) throw new Error(`upload: ${upload.status} ${await upload.text()}`);
    const figure = ((await upload.json()) as { _id: string })._id;
    QUESTIONS.area.seed = {
      ...QUESTIONS.area.seed,
      itemQ: `Triunghiul dreptunghic din figură are catetele de 3 cm și 5 cm. Cât este aria lui, în cm²?\n\n![Triunghiul din enunț](/api/v1/resource-mgmt/files/${figure})`,
    } as typeof QUESTIONS.area.seed;

    const keys = Object.keys(QUESTIONS) as QuestionKey[];
    const made = await makeTestWithItems(podium.db, {
      phaseId: phase.id,
      grades: [6],
      name: 'Proba online',
      subject: 'Matematică',
      startDate: new Date(now - 5 * MINUTE),
      endDate: new Date(now + 180 * MINUTE),
      durationMinutes: 60,
      items: keys.map((k) => QUESTIONS[k].seed),
    });
    testId = made.test.id;
    phaseId = phase.id;
    editionId = edition.id;
    made.questions.forEach((q, i) => {
      const key = keys[i] as QuestionKey;
      questionIds.set(key, q.id);
      ownOptions.set(q.id, q.itemAnswers);
    });

    const people = [
      ['maria.ionescu@elevi.example.ro', 'Maria', 'Ionescu'],
      ['john.smith@elevi.example.ro', 'John', 'Smith'],
      ['ion.popa@elevi.example.ro', 'Ion', 'Popa'],
      ['elena.stan@elevi.example.ro', 'Elena', 'Stan'],
      ['andrei.dinu@elevi.example.ro', 'Andrei', 'Dinu', 7],
    ] as const;
    for (const [email, givenName, familyName, grade = 6] of people) {
      const { id } = await podium.createUser({
        email,
        password: PASSWORD,
        type: 'student',
        givenName,
        familyName,
        grade,
      });
      await makeEnrolment(podium.db, {
        editionId: edition.id,
        studentId: id,
        grade,
        phaseIds: [phase.id],
      });
      students.set(email, id);
    }
  });
  afterAll(async () => {
    await browser?.close();
    await podium?.close();
  });

  type OpenOptions = { lang: Lang; phone?: boolean; clockOffsetMs?: number };

  /** A signed-in student's page (session put on the device as the sign-in form does). */
  const openAs = async (email: string, { lang, phone = false, clockOffsetMs }: OpenOptions) =>
    openDevice(browser, lang, {
      viewport: phone ? PHONE : LAPTOP,
      phone,
      session: await apiLogin(email),
      // The computer's clock is wrong: every Date the page makes is shifted.
      script: clockOffsetMs
        ? `(() => {
          const Real = Date;
          const offset = ${clockOffsetMs};
          class Shifted extends Real {
            constructor(...args) { if (args.length === 0) super(Real.now() + offset); else super(...args); }
            static now() { return Real.now() + offset; }
          }
          globalThis.Date = Shifted;
        })();`
        : undefined,
    });

  const navButton = (page: Page, lang: Lang, n: number) =>
    page
      .getByRole('navigation', { name: lang === 'ro' ? 'Întrebări' : 'Questions' })
      .getByRole('button', { name: new RegExp(`^${TEXT[lang].question} ${n}:`) });

  /** The question on screen (its section is named by its heading). */
  const currentQuestion = (page: Page, lang: Lang) =>
    page.getByRole('region', { name: new RegExp(`^${TEXT[lang].question} \\d+ (din|of) \\d+`) });

  /** Which question sits at which position for this student: visits each one. */
  const mapQuestions = async (page: Page, lang: Lang) => {
    const positions = new Map<QuestionKey, number>();
    for (let n = 1; n <= 5; n++) {
      await navButton(page, lang, n).click();
      await expect
        .poll(() => currentQuestion(page, lang).getByRole('heading').innerText())
        .toMatch(new RegExp(`^${TEXT[lang].question} ${n} `));
      // The statement is drawn by a renderer fetched with the first question, a moment after
      // the heading: read it until one of the known statements shows.
      let key: QuestionKey | undefined;
      await expect
        .poll(
          async () => {
            const text = (await currentQuestion(page, lang).innerText()).toLowerCase();
            key = (Object.keys(QUESTIONS) as QuestionKey[]).find((k) =>
              text.includes(QUESTIONS[k].word),
            );
            return key;
          },
          { message: `question ${n} not recognised` },
        )
        .toBeDefined();
      if (key) positions.set(key, n);
    }
    return positions;
  };

  const goTo = async (
    page: Page,
    lang: Lang,
    positions: Map<QuestionKey, number>,
    key: QuestionKey,
  ) => {
    const n = positions.get(key) ?? 0;
    await navButton(page, lang, n).click();
    await expect
      .poll(() => currentQuestion(page, lang).getByRole('heading').innerText())
      .toMatch(new RegExp(`^${TEXT[lang].question} ${n} `));
    return currentQuestion(page, lang);
  };

  /** An option of a choice question, by its text (the letter in front depends on the student). */
  const option = (page: Page, lang: Lang, role: 'radio' | 'checkbox', text: string) =>
    currentQuestion(page, lang).getByRole(role, { name: new RegExp(`^[A-Z]\\.\\s*${text}$`) });

  const statusOf = (page: Page, lang: Lang) =>
    currentQuestion(page, lang).getByTestId('save-status').getAttribute('data-status');

  const waitSaved = (page: Page, lang: Lang) =>
    expect.poll(() => statusOf(page, lang)).toBe('saved');

  const acceptTermsAndStart = async (page: Page, lang: Lang) => {
    const start = page.getByRole('button', { name: TEXT[lang].start });
    await start.waitFor();
    expect(await start.isDisabled()).toBe(true);
    for (const term of TEXT[lang].terms) await page.getByRole('checkbox', { name: term }).check();
    expect(await start.isEnabled()).toBe(true);
  };

  /** What the screen shows for each question, as the server should store it. */
  const answersOnScreen = async (page: Page, lang: Lang, positions: Map<QuestionKey, number>) => {
    const out = new Map<string, unknown>();
    for (const key of Object.keys(QUESTIONS) as QuestionKey[]) {
      const section = await goTo(page, lang, positions, key);
      const questionId = questionIds.get(key) ?? '';
      const seed = QUESTIONS[key].seed;
      if (seed.itemType === 'numeric') {
        const value = await section.getByLabel(TEXT[lang].numeric).inputValue();
        out.set(questionId, value === '' ? null : value);
      } else {
        const role = seed.itemType === 'multiple' ? 'checkbox' : 'radio';
        const checked = await section.getByRole(role, { checked: true }).all();
        const labels = await Promise.all(
          checked.map(
            async (c) =>
              (await c.getAttribute('aria-label')) ??
              (await c.evaluate((el) => el.closest('label')?.innerText ?? '')),
          ),
        );
        const indices = labels
          .map((l) => l.replace(/^[A-Z]\.\s*/, '').trim())
          .map((l) => (ownOptions.get(questionId) ?? []).indexOf(l))
          .sort((a, b) => a - b);
        out.set(questionId, indices.length ? indices : null);
      }
    }
    return out;
  };

  const storedAnswers = async (email: string) => {
    // Read as JSON text: a driver decoding jsonb twice would turn the typed "1024" into 1024.
    const rows = await podium.db
      .select({
        questionId: answers.questionId,
        json: sql<string | null>`${answers.submittedAnswer}::text`,
      })
      .from(answers)
      .where(and(eq(answers.testId, testId), eq(answers.studentId, students.get(email) ?? '')));
    return new Map(
      rows.map((r) => [r.questionId, r.json === null ? null : (JSON.parse(r.json) as unknown)]),
    );
  };

  /** Answers with a value only (a cleared answer and no answer are the same to the server). */
  const withValue = (m: Map<string, unknown>) =>
    new Map([...m].filter(([, v]) => v !== null && !(Array.isArray(v) && v.length === 0)));

  it('a student takes the test end to end, in Romanian, and sees the score in My tests', async () => {
    const lang = 'ro';
    const email = 'maria.ionescu@elevi.example.ro';
    const { page, context } = await openAs(email, { lang });
    const fetched: string[] = [];
    page.on('request', (r) => fetched.push(new URL(r.url()).pathname));
    await page.goto(`${podium.baseUrl}/tests`);
    const card = page.getByRole('article', { name: /Proba online/ });
    await expect.poll(() => card.getByTestId('my-test-state').innerText()).toBe('Deschis');
    await card.getByRole('link', { name: 'Începe testul' }).click();
    await page.waitForURL(`**/test/${testId}`);

    await acceptTermsAndStart(page, lang);
    await shot(page, 'player-terms-ro');
    // Up to here no statement showed: neither KaTeX nor its fonts were fetched.
    expect(fetched.filter((p) => /\/assets\/(renderer|statement-renderer|KaTeX_)/.test(p))).toEqual(
      [],
    );
    await page.getByRole('button', { name: 'Începe testul' }).click();
    await expect
      .poll(() => page.getByRole('heading', { level: 1 }).innerText())
      .toBe('Matematică - Clasa 6');
    // Toolbar only: no menu, no footer.
    expect(await page.getByRole('link', { name: 'Concursuri' }).count()).toBe(0);
    expect(await page.getByRole('contentinfo').count()).toBe(0);
    const timer = await page.getByRole('timer').innerText();
    expect(timer).toMatch(/^(1:00:00|59:\d\d)$/);

    const positions = await mapQuestions(page, lang);
    let section = await goTo(page, lang, positions, 'fraction');
    // The formula is typeset by KaTeX, with its fonts in woff2 only.
    await expect.poll(() => section.locator('.katex').count()).toBeGreaterThan(0);
    await expect
      .poll(() => fetched.filter((p) => p.includes('/assets/KaTeX_')).length)
      .toBeGreaterThan(0);
    expect(fetched.filter((p) => /\.(woff|ttf)$/.test(p))).toEqual([]);
    // No staff screen reached the student's device.
    const manifest = JSON.parse(readFileSync('web/dist/.vite/manifest.json', 'utf8'));
    const staff = ['questions', 'reviews', 'tests', 'uploads', 'users', 'mail', 'diplomas', 'exams']
      .map((f) => `src/features/${f}/index.ts`)
      .concat(
        ['rankings/RankingPage', 'rankings/RulesPage', 'auth/ThrottlesPage'].map(
          (f) => `src/features/${f}.tsx`,
        ),
      )
      .map((key) => `/${manifest[key].file}`);
    expect(fetched.filter((p) => staff.includes(p))).toEqual([]);
    await option(page, lang, 'radio', 'două șesimi').check();
    await waitSaved(page, lang);
    // Changing one's mind: the newer answer wins.
    await option(page, lang, 'radio', 'trei sferturi').check();
    await waitSaved(page, lang);

    section = await goTo(page, lang, positions, 'prime');
    await option(page, lang, 'checkbox', '2').check();
    await option(page, lang, 'checkbox', '9').check();
    // The keyboard checks an option as well as the mouse does.
    await tabTo(page, option(page, lang, 'checkbox', '11'));
    await page.keyboard.press('Space');
    await option(page, lang, 'checkbox', '9').uncheck();
    await waitSaved(page, lang);

    section = await goTo(page, lang, positions, 'area');
    const figure = section.getByRole('img', { name: 'Triunghiul din enunț' });
    await expect
      .poll(() => figure.evaluate((img) => (img as HTMLImageElement).naturalWidth))
      .toBeGreaterThan(0);
    await section.getByLabel('Răspunsul dumneavoastră').fill('7,');
    await expect.poll(() => section.getByText('Scrieți un număr întreg').count()).toBe(1);
    await section.getByLabel('Răspunsul dumneavoastră').fill('7,5');
    await waitSaved(page, lang);
    await shot(page, 'player-desktop-ro');

    // With the keyboard alone: Tab to the next (or previous) question's button until the power
    // question shows, then Tab to its field and type the answer.
    const from = positions.get('area') ?? 0;
    const to = positions.get('power') ?? 0;
    const step = to > from ? 1 : -1;
    const move = page.getByRole('button', {
      name: step > 0 ? 'Următoarea' : 'Înapoi',
      exact: true,
    });
    for (let n = from; n !== to; n += step) {
      await tabTo(page, move);
      await page.keyboard.press('Enter');
      await expect
        .poll(() => currentQuestion(page, lang).getByRole('heading').innerText())
        .toMatch(new RegExp(`^${TEXT[lang].question} ${n + step} `));
    }
    await tabTo(page, currentQuestion(page, lang).getByLabel('Răspunsul dumneavoastră'));
    await page.keyboard.type('1024');
    await waitSaved(page, lang);

    // A reload brings back every answer from the server.
    await page.reload();
    await page.getByRole('timer').waitFor();
    const onScreen = await answersOnScreen(page, lang, positions);
    expect(onScreen.get(questionIds.get('area') ?? '')).toBe('7,5');
    expect(onScreen.get(questionIds.get('prime') ?? '')).toEqual([0, 2]);
    expect(withValue(onScreen)).toEqual(withValue(await storedAnswers(email)));

    await page.getByRole('button', { name: 'Încheie testul' }).click();
    const dialog = page.getByRole('dialog', { name: 'Încheiați testul?' });
    await expect
      .poll(() => dialog.innerText())
      .toContain(`O întrebare nu are răspuns: ${positions.get('hexagon')}.`);
    await shot(page, 'player-finish-ro');
    await dialog.getByRole('button', { name: 'Da, încheie testul' }).click();
    await expect.poll(() => page.getByTestId('player-score').count()).toBe(1);
    expect(await page.getByTestId('player-score').innerText()).toBe('Punctaj: 90 din 100');

    await page.getByRole('link', { name: 'Înapoi la testele mele' }).click();
    await page.waitForURL('**/tests');
    await expect
      .poll(() => card.getByTestId('my-test-state').innerText())
      .toBe('Rezultat disponibil');
    expect(await card.getByTestId('my-test-score').innerText()).toBe('Punctaj: 90 din 100');
    await shot(page, 'my-tests-ro');

    // Finished is final: opening the test again says so, with the way back.
    await page.goto(`${podium.baseUrl}/test/${testId}`);
    const again = page.getByRole('dialog', { name: 'Testul a fost încheiat' });
    await again.waitFor();
    await again.getByRole('link', { name: 'Înapoi la testele mele' }).click();
    await page.waitForURL('**/tests');
    await context.close();
  });

  it('works on a phone, in English', async () => {
    const lang = 'en';
    const email = 'john.smith@elevi.example.ro';
    const { page, context } = await openAs(email, { lang, phone: true });
    await page.goto(`${podium.baseUrl}/tests`);
    const card = page.getByRole('article', { name: /Proba online/ });
    await expect.poll(() => card.getByTestId('my-test-state').innerText()).toBe('Open');
    await shot(page, 'my-tests-phone-en');
    await card.getByRole('link', { name: 'Start the test' }).click();
    await acceptTermsAndStart(page, lang);
    await page.getByRole('button', { name: 'Start the test' }).click();
    await expect
      .poll(() => page.getByRole('heading', { level: 1 }).innerText())
      .toBe('Mathematics - Grade 6');

    const positions = await mapQuestions(page, lang);
    await goTo(page, lang, positions, 'hexagon');
    await option(page, lang, 'radio', '6').check();
    await waitSaved(page, lang);
    await goTo(page, lang, positions, 'prime');
    await option(page, lang, 'checkbox', '2').check();
    await waitSaved(page, lang);
    await goTo(page, lang, positions, 'fraction');
    await option(page, lang, 'radio', 'un întreg').check();
    await waitSaved(page, lang);
    // Nothing sticks out sideways on a narrow screen.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      375,
    );
    await shot(page, 'player-phone-en');

    await page.getByRole('button', { name: 'Finish the test' }).click();
    const dialog = page.getByRole('dialog', { name: 'Finish the test?' });
    await expect.poll(() => dialog.innerText()).toContain('2 questions have no answer');
    await dialog.getByRole('button', { name: 'Yes, finish the test' }).click();
    // hexagon 10 + fraction wrong 0 + prime only one of two (not exact) 0.
    await expect.poll(() => page.getByTestId('player-score').innerText()).toBe('Score: 10 of 100');
    await shot(page, 'player-finished-phone-en');
    await context.close();
  });

  it('keeps answering through a 60 s network cut and a reload, and the server ends with the answers on screen', async () => {
    const lang = 'ro';
    const email = 'ion.popa@elevi.example.ro';
    const { page, context } = await openAs(email, { lang });
    await page.goto(`${podium.baseUrl}/test/${testId}`);
    await acceptTermsAndStart(page, lang);
    await page.getByRole('button', { name: 'Începe testul' }).click();
    await page.getByRole('timer').waitFor();
    const positions = await mapQuestions(page, lang);
    await goTo(page, lang, positions, 'fraction');
    await option(page, lang, 'radio', 'trei sferturi').check();
    await waitSaved(page, lang);
    await goTo(page, lang, positions, 'prime');
    await option(page, lang, 'checkbox', '11').check();
    await waitSaved(page, lang);

    // The network goes: every call to the API fails as if the cable were pulled.
    const cutAt = Date.now();
    const cut = (route: { abort(code: string): Promise<void> }) =>
      route.abort('internetdisconnected');
    await context.route('**/api/**', cut);

    await goTo(page, lang, positions, 'fraction');
    await option(page, lang, 'radio', 'o optime').check();
    await expect.poll(() => statusOf(page, lang)).toBe('local');
    await goTo(page, lang, positions, 'area');
    await currentQuestion(page, lang).getByLabel('Răspunsul dumneavoastră').fill('7.5');
    await expect.poll(() => statusOf(page, lang)).toBe('local');
    await page.getByTestId('offline-banner').waitFor();
    await goTo(page, lang, positions, 'prime');
    await option(page, lang, 'checkbox', '2').check();
    await expect.poll(() => statusOf(page, lang)).toBe('local');
    await shot(page, 'player-offline-ro');

    // A reload while the network is still gone: the test comes back from the device.
    await page.reload();
    await page.getByRole('timer').waitFor();
    await page.getByTestId('offline-banner').waitFor();
    await goTo(page, lang, positions, 'fraction');
    expect(await option(page, lang, 'radio', 'o optime').isChecked()).toBe(true);
    expect(await statusOf(page, lang)).toBe('local');
    await goTo(page, lang, positions, 'area');
    expect(
      await currentQuestion(page, lang).getByLabel('Răspunsul dumneavoastră').inputValue(),
    ).toBe('7.5');
    await goTo(page, lang, positions, 'power');
    await currentQuestion(page, lang).getByLabel('Răspunsul dumneavoastră').fill('1000');
    await expect.poll(() => statusOf(page, lang)).toBe('local');
    await currentQuestion(page, lang).getByLabel('Răspunsul dumneavoastră').fill('1024');
    await goTo(page, lang, positions, 'hexagon');
    await option(page, lang, 'radio', '8').check();
    await option(page, lang, 'radio', '6').check();
    await expect.poll(() => statusOf(page, lang)).toBe('local');

    // Nothing reached the server during the cut.
    const during = await storedAnswers(email);
    expect(during.get(questionIds.get('fraction') ?? '')).toEqual([0]);
    expect(during.has(questionIds.get('power') ?? '')).toBe(false);

    await page.waitForTimeout(Math.max(0, 60_000 - (Date.now() - cutAt)));
    await context.unroute('**/api/**', cut);

    // Back online: the banner goes and every answer is acknowledged.
    await expect
      .poll(() => page.getByTestId('offline-banner').count(), { timeout: 30_000 })
      .toBe(0);
    for (let n = 1; n <= 5; n++) {
      await expect
        .poll(() => navButton(page, lang, n).getAttribute('data-status'), { timeout: 20_000 })
        .toBe('saved');
    }
    const onScreen = await answersOnScreen(page, lang, positions);
    expect(onScreen.get(questionIds.get('fraction') ?? '')).toEqual([3]);
    expect(onScreen.get(questionIds.get('prime') ?? '')).toEqual([0, 2]);
    expect(onScreen.get(questionIds.get('hexagon') ?? '')).toEqual([2]);
    expect(onScreen.get(questionIds.get('power') ?? '')).toBe('1024');
    expect(await storedAnswers(email)).toEqual(onScreen);

    await page.getByRole('button', { name: 'Încheie testul' }).click();
    const dialog = page.getByRole('dialog', { name: 'Încheiați testul?' });
    await dialog.getByRole('button', { name: 'Da, încheie testul' }).click();
    // prime 20 + area 30 + hexagon 10 + power 30; the fraction is wrong.
    await expect
      .poll(() => page.getByTestId('player-score').innerText())
      .toBe('Punctaj: 90 din 100');
    await context.close();
  }, 150_000);

  it('takes no notice of a computer clock an hour off', async () => {
    const lang = 'ro';
    const email = 'elena.stan@elevi.example.ro';
    for (const clockOffsetMs of [60 * MINUTE]) {
      const { page, context } = await openAs(email, { lang, clockOffsetMs });
      await page.goto(`${podium.baseUrl}/test/${testId}`);
      await acceptTermsAndStart(page, lang);
      await page.getByRole('button', { name: 'Începe testul' }).click();
      await page.getByRole('timer').waitFor();
      expect(
        await page.evaluate(() => Date.now() - performance.timeOrigin - performance.now()),
      ).toBeGreaterThan(59 * MINUTE);
      const [attempt] = await podium.db
        .select({ deadlineAt: attempts.deadlineAt })
        .from(attempts)
        .where(and(eq(attempts.testId, testId), eq(attempts.studentId, students.get(email) ?? '')));
      const serverLeft = () =>
        Math.ceil(((attempt?.deadlineAt.getTime() ?? 0) - Date.now()) / 1000);
      const shownLeft = async () => {
        const parts = (await page.getByRole('timer').innerText()).split(':').map(Number);
        return parts.reduce((total, part) => total * 60 + part, 0);
      };
      expect(Math.abs((await shownLeft()) - serverLeft())).toBeLessThanOrEqual(2);
      const positions = await mapQuestions(page, lang);
      await goTo(page, lang, positions, 'hexagon');
      await option(page, lang, 'radio', '6').check();
      await waitSaved(page, lang);
      // Nothing ended early, and a reload shows the same time.
      expect(await page.getByRole('dialog').count()).toBe(0);
      await page.reload();
      await page.getByRole('timer').waitFor();
      expect(Math.abs((await shownLeft()) - serverLeft())).toBeLessThanOrEqual(2);
      await context.close();
    }
  });

  it('shows extra time given by staff on the timer at once, while the student only reads', async () => {
    const lang = 'ro';
    const email = 'elena.stan@elevi.example.ro';
    const { page, context } = await openAs(email, { lang });
    // The player opens its event stream within EVENT_STREAM_OPEN_SPREAD_MS (20 s).
    const listening = page.waitForResponse((r) => r.url().endsWith(`/mytests/${testId}/events`), {
      timeout: 30_000,
    });
    await page.goto(`${podium.baseUrl}/test/${testId}`);
    // Her attempt runs already (the clock test above): the player resumes it.
    await page.getByRole('timer').waitFor();
    expect((await listening).status()).toBe(200);
    const shownLeft = async () => {
      const parts = (await page.getByRole('timer').innerText()).split(':').map(Number);
      return parts.reduce((total, part) => total * 60 + part, 0);
    };
    const before = await shownLeft();
    const staff = await apiLogin('profesor@example.ro');
    const res = await fetch(
      `${podium.baseUrl}/api/v1/test-player/tests/${testId}/students/${students.get(email)}/extra-time`,
      {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          authorization: `Bearer ${staff.token}`,
          userid: staff.userId,
        },
        body: JSON.stringify({ minutes: 10, reason: 'Calculatorul s-a blocat' }),
      },
    );
    expect(res.status).toBe(200);
    // No answer, no reload, well before the 30-second state check: the event stream brings it.
    await expect.poll(shownLeft, { timeout: 5_000 }).toBeGreaterThan(before + 9 * 60);
    await shot(page, 'player-extra-time-ro');
    // The next saved answer carries the same deadline: the timer stays where it is.
    const positions = await mapQuestions(page, lang);
    await goTo(page, lang, positions, 'prime');
    await option(page, lang, 'checkbox', '11').check();
    await waitSaved(page, lang);
    expect(await shownLeft()).toBeGreaterThan(before + 9 * 60 - 30);
    await context.close();
  });

  it('at the end of the time asks the server, which ends the attempt, even with the clock an hour behind', async () => {
    const lang = 'ro';
    const email = 'andrei.dinu@elevi.example.ro';
    // A test for grade 7 whose window closes in 30 seconds: the attempt's deadline.
    const short = await makeTestWithItems(podium.db, {
      phaseId,
      grades: [7],
      name: 'Proba scurtă',
      startDate: new Date(Date.now() - MINUTE),
      endDate: new Date(Date.now() + 30_000),
      durationMinutes: 30,
      items: [QUESTIONS.hexagon.seed, QUESTIONS.prime.seed],
    });
    const { page, context } = await openAs(email, { lang, clockOffsetMs: -60 * MINUTE });
    await page.goto(`${podium.baseUrl}/test/${short.test.id}`);
    await acceptTermsAndStart(page, lang);
    await page.getByRole('button', { name: 'Începe testul' }).click();
    await page.getByRole('timer').waitFor();
    // The window's end, not the 30 minutes: at most 00:30 (a start within the first second
    // rounds up to it).
    expect(await page.getByRole('timer').innerText()).toMatch(/^00:([0-2]\d|30)$/);
    const hexagon = await (async () => {
      for (let n = 1; n <= 2; n++) {
        await navButton(page, lang, n).click();
        if ((await currentQuestion(page, lang).innerText()).includes('hexagon')) return n;
      }
      return 0;
    })();
    expect(hexagon).toBeGreaterThan(0);
    await option(page, lang, 'radio', '6').check();
    await waitSaved(page, lang);

    // At 00:00 the page says the time is up and waits for the server: it never finishes alone.
    const timeUp = page.getByRole('dialog', { name: 'Timpul a expirat' });
    await timeUp.waitFor({ timeout: 35_000 });
    await shot(page, 'player-time-up-ro');
    await expect
      .poll(() => page.getByTestId('player-score').innerText(), { timeout: 30_000 })
      .toBe('Punctaj: 10 din 30');
    expect(await page.getByText('Timpul s-a terminat, iar testul a fost încheiat').count()).toBe(1);
    const [attempt] = await podium.db
      .select({ finishedBy: attempts.finishedBy, state: attempts.state })
      .from(attempts)
      .where(
        and(eq(attempts.testId, short.test.id), eq(attempts.studentId, students.get(email) ?? '')),
      );
    // Finished by the server at the deadline, not by a request of the page.
    expect(attempt).toEqual({ finishedBy: 'sweeper', state: 'finished' });
    await context.close();
  }, 120_000);

  it('shows the points known so far as provisional while a written answer waits for marking', async () => {
    const email = 'ana.marin@elevi.example.ro';
    const { id } = await podium.createUser({
      email,
      password: PASSWORD,
      type: 'student',
      givenName: 'Ana',
      familyName: 'Marin',
      grade: 8,
    });
    await makeEnrolment(podium.db, { editionId, studentId: id, grade: 8, phaseIds: [phaseId] });
    // A single-choice question worth 10 and an open one worth 20, marked later by people.
    await makeTestWithItems(podium.db, {
      phaseId,
      grades: [8],
      name: 'Proba cu redactare',
      startDate: new Date(Date.now() - MINUTE),
      endDate: new Date(Date.now() + 120 * MINUTE),
      durationMinutes: 60,
      items: [
        QUESTIONS.hexagon.seed,
        {
          itemQ: 'Demonstrați că suma a două numere pare este pară.',
          itemType: 'open',
          itemAnswers: [],
          itemCorrectAnswers: null,
          score: 20,
        },
      ],
    });
    const lang = 'ro';
    const { page, context } = await openAs(email, { lang });
    await page.goto(`${podium.baseUrl}/tests`);
    const card = page.getByRole('article', { name: /Proba cu redactare/ });
    await card.getByRole('link', { name: 'Începe testul' }).click();
    await acceptTermsAndStart(page, lang);
    await page.getByRole('button', { name: 'Începe testul' }).click();
    await page.getByRole('timer').waitFor();
    for (let n = 1; n <= 2; n++) {
      await navButton(page, lang, n).click();
      await expect
        .poll(() => currentQuestion(page, lang).getByRole('heading').innerText())
        .toMatch(new RegExp(`^${TEXT[lang].question} ${n} `));
      // The statement is drawn a moment after the heading (its renderer is fetched with it).
      await expect.poll(() => currentQuestion(page, lang).innerText()).toMatch(/hexagon|sum/i);
      const text = await currentQuestion(page, lang).innerText();
      if (text.includes('hexagon')) await option(page, lang, 'radio', '6').check();
      else {
        await currentQuestion(page, lang)
          .getByLabel('Răspunsul dumneavoastră')
          .fill('Fie 2a și 2b; suma lor este 2(a + b), deci pară.');
      }
      await waitSaved(page, lang);
    }
    await page.getByRole('button', { name: 'Încheie testul' }).click();
    await page
      .getByRole('dialog', { name: 'Încheiați testul?' })
      .getByRole('button', { name: 'Da, încheie testul' })
      .click();
    // The written answer is not counted as 0: the 10 points known are provisional.
    await expect
      .poll(() => page.getByTestId('player-score').innerText())
      .toBe('Punctaj provizoriu: 10 din 30');
    expect(await page.getByTestId('player-score-note').innerText()).toBe(
      'O întrebare așteaptă corectarea; punctele ei nu sunt încă incluse.',
    );
    expect(
      await page.getByText('Întrebările cu răspuns redactat sunt corectate de comisie.').count(),
    ).toBe(1);
    await shot(page, 'player-finished-provisional-ro');

    await page.getByRole('link', { name: 'Înapoi la testele mele' }).click();
    await page.waitForURL('**/tests');
    await expect.poll(() => card.getByTestId('my-test-state').innerText()).toBe('În corectare');
    expect(await card.getByTestId('my-test-score').innerText()).toBe(
      'Punctaj provizoriu: 10 din 30',
    );
    expect(await card.getByTestId('my-test-score-note').innerText()).toMatch(
      /^O întrebare așteaptă corectarea/,
    );
    await shot(page, 'my-tests-provisional-ro');
    await context.close();

    // The same in English, on a 390-pixel phone: nothing sticks out sideways.
    const phone = await openAs(email, { lang: 'en', phone: true });
    await phone.page.setViewportSize({ width: 390, height: 844 });
    await phone.page.goto(`${podium.baseUrl}/tests`);
    const phoneCard = phone.page.getByRole('article', { name: /Proba cu redactare/ });
    await expect
      .poll(() => phoneCard.getByTestId('my-test-score').innerText())
      .toBe('Provisional score: 10 of 30');
    expect(await phoneCard.getByTestId('my-test-score-note').innerText()).toMatch(
      /^1 question waits for marking;/,
    );
    expect(await phoneCard.getByTestId('my-test-state').innerText()).toBe('Being marked');
    expect(
      await phone.page.evaluate(() => document.documentElement.scrollWidth),
    ).toBeLessThanOrEqual(390);
    await shot(phone.page, 'my-tests-provisional-phone-en');
    await phone.context.close();
  });

  it('checks a lab computer’s connection without signing in, from the help page', async () => {
    const context = await browser.newContext({
      viewport: { width: 1280, height: 900 },
      locale: 'ro-RO',
    });
    const page = await context.newPage();
    await page.goto(`${podium.baseUrl}/ajutor`);
    await shot(page, 'help-connection-check-ro');
    await page.getByRole('link', { name: 'Verificarea conexiunii' }).click();
    await page.waitForURL('**/verificare-conexiune');
    const verdict = page.getByTestId('connection-verdict');
    await verdict.waitFor({ timeout: 30_000 });
    expect(await verdict.innerText()).toContain('Calculatorul este pregătit pentru test');
    const results = page.getByRole('list', { name: 'Rezultatele verificării' });
    expect(await results.getByRole('listitem').count()).toBe(4);
    await shot(page, 'connection-check-ro');

    // Without the server, the verdict says the computer is not ready.
    await context.route('**/api/**', (route) => route.abort('internetdisconnected'));
    await page.getByRole('button', { name: 'Verifică din nou' }).click();
    await expect
      .poll(() => page.getByTestId('connection-verdict').innerText(), { timeout: 30_000 })
      .toContain('Calculatorul nu este pregătit');
    await context.close();
  });
});
