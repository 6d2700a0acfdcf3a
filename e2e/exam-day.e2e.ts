import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  makeEdition,
  makeEnrolment,
  makeExam,
  makePhase,
  makeTestWithItems,
} from '../server/db/factories.js';
import { attempts } from '../server/db/schema.js';
import { uuidv7 } from '../server/lib/ids.js';
import { hasChromium, openBrowser, type Podium, shot, startPodium } from './harness.js';
import { apiSession, type Lang, openPage, PASSWORD } from './session.js';

const MINUTE = 60_000;

const TEXT = {
  ro: {
    title: 'Ziua examenului',
    writing: 'Lucrează acum',
    started: 'Au început',
    disconnected: 'Deconectați',
    updated: /Actualizat la \d\d:\d\d:\d\d/,
  },
  en: {
    title: 'Exam day',
    writing: 'Writing now',
    started: 'Started',
    disconnected: 'Disconnected',
    updated: /Updated at \d\d:\d\d:\d\d/,
  },
} as const;

// The exam-day panel beside the room: staff open it from the phase page during a running
// test, and its numbers move by themselves when students answer.
describe.skipIf(!hasChromium)('the exam-day panel in the browser', () => {
  let podium: Podium;
  let browser: Browser;
  let phaseUrl = '';
  let testId = '';
  let questionId = '';

  const apiLogin = (email: string) => apiSession(podium.baseUrl, email);

  /** A student starts the test and answers its first question, as the player does. */
  const startAndAnswer = async (email: string, answer: boolean) => {
    const s = await apiLogin(email);
    const headers = {
      'content-type': 'application/json',
      authorization: `Bearer ${s.token}`,
      userid: s.userId,
    };
    const url = `${podium.baseUrl}/api/v1/test-player/mytests/${testId}`;
    const start = await fetch(url, {
      method: 'POST',
      headers,
      body: JSON.stringify({ termsAccepted: true }),
    });
    if (!start.ok) throw new Error(`start ${email}: ${start.status}`);
    if (!answer) return;
    const put = await fetch(url, {
      method: 'PUT',
      headers,
      body: JSON.stringify({ itemId: questionId, submittedAnswer: [1], seq: 1 }),
    });
    if (!put.ok) throw new Error(`answer ${email}: ${put.status}`);
  };

  beforeAll(async () => {
    podium = await startPodium();
    browser = await openBrowser();
    const now = Date.now();
    await podium.createUser({
      email: 'comisie@example.ro',
      password: PASSWORD,
      type: 'admin',
      givenName: 'Ioana',
      familyName: 'Dinu',
    });
    const exam = await makeExam(podium.db, { name: 'Olimpiada de Matematică', grades: [6] });
    const edition = await makeEdition(podium.db, { examId: exam.id, name: 'Ediția 2026' });
    const phase = await makePhase(podium.db, {
      editionId: edition.id,
      name: 'Etapa pe școală',
      startDate: new Date(now - 60 * MINUTE),
      endDate: new Date(now + 24 * 60 * MINUTE),
    });
    phaseUrl = `/examene/${exam.id}/editii/${edition.id}/phases/${phase.id}`;
    const made = await makeTestWithItems(podium.db, {
      phaseId: phase.id,
      grades: [6],
      name: 'Proba online',
      subject: 'Matematică',
      startDate: new Date(now - 10 * MINUTE),
      endDate: new Date(now + 180 * MINUTE),
      durationMinutes: 60,
      items: [
        { itemType: 'single', itemAnswers: ['3', '4', '5'], itemCorrectAnswers: [1], score: 10 },
      ],
    });
    testId = made.test.id;
    questionId = made.questions[0]?.id ?? '';
    const people = [
      ['maria.ionescu', 'Maria', 'Ionescu', 'Școala Gimnazială nr. 1 Cluj'],
      ['stefan.stefanescu', 'Ștefan', 'Ștefănescu', 'Colegiul Național „Emil Racoviță”'],
      ['ana.albu', 'Ana', 'Albu', 'Școala Gimnazială „Avram Iancu”'],
      ['ion.popa', 'Ion', 'Popa', 'Liceul Teoretic „Lucian Blaga”'],
      ['elena.stan', 'Elena', 'Stan', 'Școala Gimnazială nr. 1 Cluj'],
    ] as const;
    for (const [name, givenName, familyName, school] of people) {
      const { id } = await podium.createUser({
        email: `${name}@elevi.example.ro`,
        password: PASSWORD,
        type: 'student',
        givenName,
        familyName,
        school,
        grade: 6,
      });
      await makeEnrolment(podium.db, {
        editionId: edition.id,
        studentId: id,
        grade: 6,
        phaseIds: [phase.id],
      });
      // Ștefan started five minutes ago and has not been heard from since.
      if (name === 'stefan.stefanescu') {
        await podium.db.insert(attempts).values({
          id: uuidv7(),
          testId,
          studentId: id,
          startedAt: new Date(now - 5 * MINUTE),
          deadlineAt: new Date(now + 55 * MINUTE),
          itemOrder: made.questions.map((q) => q.id),
        });
      }
    }
    await startAndAnswer('maria.ionescu@elevi.example.ro', true);
  });
  afterAll(async () => {
    await browser?.close();
    await podium?.close();
  });

  /** The staff member's panel on a 1366×768 laptop, reached from the phase page. */
  const openPanel = async (lang: Lang): Promise<Page> => {
    const page = await openPage(browser, lang, {
      viewport: { width: 1366, height: 768 },
      session: await apiLogin('comisie@example.ro'),
    });
    await page.goto(`${podium.baseUrl}${phaseUrl}`);
    // By keyboard: the phase page's link is focused and followed with Enter.
    const link = page.getByRole('link', { name: TEXT[lang].title });
    await link.focus();
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: TEXT[lang].title }).waitFor();
    return page;
  };

  /** The big number of a card, e.g. "Lucrează acum". */
  const cardValue = async (page: Page, label: string) => {
    const text = await page.getByRole('group', { name: label, exact: true }).innerText();
    return Number(
      text
        .split('\n')
        .map((l) => l.trim())
        .filter(Boolean)[1],
    );
  };

  it.each(['ro', 'en'] as const)(
    'shows the room and follows it as students answer (%s)',
    async (lang) => {
      const x = TEXT[lang];
      const page = await openPanel(lang);
      await expect.poll(() => cardValue(page, x.disconnected), { timeout: 15_000 }).toBe(1);
      const writing = await cardValue(page, x.writing);
      const started = await cardValue(page, x.started);
      await expect.poll(() => page.getByRole('status').innerText()).toMatch(x.updated);
      // Ștefan, quiet for five minutes, is listed with his school for someone to walk to.
      const quiet = page.getByRole('table', { name: new RegExp(x.disconnected) });
      await expect.poll(() => quiet.innerText()).toMatch(/Ștefănescu Ștefan/);
      await expect.poll(() => quiet.innerText()).toMatch(/Colegiul Național „Emil Racoviță”/);
      await shot(page, `exam-day-${lang}`);

      // Another student starts and answers: the panel sees it by itself within 10 s.
      await startAndAnswer(
        lang === 'ro' ? 'ana.albu@elevi.example.ro' : 'ion.popa@elevi.example.ro',
        true,
      );
      await expect
        .poll(() => cardValue(page, x.writing), { timeout: 20_000, interval: 500 })
        .toBe(writing + 1);
      expect(await cardValue(page, x.started)).toBe(started + 1);
      // The answers of this minute count the new one too (all of them come from the database).
      const writes = page.getByRole('table', {
        name: lang === 'ro' ? /Răspunsuri salvate/ : /Answers saved/,
      });
      await expect.poll(() => writes.innerText()).toMatch(/\n\s*\d\d:\d\d\s+[1-9]/);
      await shot(page, `exam-day-${lang}-after`);
      await page.context().close();
    },
  );
});
