import { and, eq, sql } from 'drizzle-orm';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import {
  makeEdition,
  makeEnrolment,
  makeExam,
  makePhase,
  makeTestWithItems,
  type TestItemSeed,
} from '../server/db/factories.js';
import { answers } from '../server/db/schema.js';
import { openBrowser, type Podium, startPodium } from './harness.js';
import { apiSession, LAPTOP, type Lang, openDevice, PASSWORD, PHONE } from './session.js';

export const MINUTE = 60_000;

/**
 * The test's questions, each known by a word of its statement (every student sees them in
 * an order of their own, and the options of choice questions too).
 */
export const QUESTIONS = {
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
export type QuestionKey = keyof typeof QUESTIONS;

export const TEXT = {
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

/**
 * Registers the world's set-up and tear-down in the calling describe and answers its handles
 * (the server, browser and ids are read once the set-up has run).
 */
export function playerWorld() {
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

  return {
    get podium() {
      return podium;
    },
    get browser() {
      return browser;
    },
    get testId() {
      return testId;
    },
    get phaseId() {
      return phaseId;
    },
    get editionId() {
      return editionId;
    },
    students,
    questionIds,
    ownOptions,
    apiLogin,
    openAs,
    navButton,
    currentQuestion,
    mapQuestions,
    goTo,
    option,
    statusOf,
    waitSaved,
    acceptTermsAndStart,
    answersOnScreen,
    storedAnswers,
    withValue,
  };
}
