import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  makeEdition,
  makeEnrolment,
  makeExam,
  makePhase,
  makeTestWithItems,
} from '../server/db/factories.js';
import { samplePng } from '../server/modules/uploads/uploads.fixtures.js';
import { startS3 } from '../server/test/s3.js';
import { hasChromium, openBrowser, type Podium, shot, startPodium } from './harness.js';
import { type Lang, openSignedIn, PASSWORD } from './session.js';

const HOUR = 3_600_000;
const PHONE = { width: 390, height: 844 };
/** A busy machine renders slowly: polls wait this long (vitest's default is one second). */
const WAIT = { timeout: 30_000 };

// A student's hybrid answer when the file storage (an S3-compatible server) goes down: the
// upload is refused with the storage's reason in the student's language, nothing is saved,
// and the same page goes through once the storage is back.
describe.skipIf(!hasChromium)('a student uploads while the file storage is down', () => {
  let podium: Podium;
  let browser: Browser;
  let s3: Awaited<ReturnType<typeof startS3>>;
  let testId = '';

  beforeAll(async () => {
    s3 = await startS3();
    podium = await startPodium({ env: s3.env({ STORAGE_TIMEOUT_SECONDS: '2' }) });
    browser = await openBrowser();
    const db = podium.db;
    const exam = await makeExam(db, { name: 'Olimpiada de Matematică', grades: [7] });
    const edition = await makeEdition(db, { examId: exam.id, name: 'Ediția 2026' });
    const now = Date.now();
    const phase = await makePhase(db, {
      editionId: edition.id,
      name: 'Etapa pe școală',
      type: 'hybrid',
      startDate: new Date(now - 24 * HOUR),
      endDate: new Date(now + 6 * 24 * HOUR),
    });
    const { test } = await makeTestWithItems(db, {
      phaseId: phase.id,
      name: 'Subiectul etapei pe școală',
      grades: [7],
      startDate: new Date(now - HOUR),
      endDate: new Date(now + 2 * HOUR),
      durationMinutes: 120,
      items: [
        {
          itemQ: 'Calculați $\\frac{1}{2} + \\frac{1}{3}$.',
          itemType: 'open',
          itemAnswers: [],
          itemCorrectAnswers: null,
          score: 10,
        },
      ],
    });
    testId = test.id;
    for (const [email, givenName] of [
      ['maria@elevi.example.ro', 'Maria'],
      ['mary@elevi.example.ro', 'Mary'],
    ] as const) {
      const { id } = await podium.createUser({
        email,
        password: PASSWORD,
        type: 'student',
        givenName,
        familyName: 'Ionescu',
        grade: 7,
      });
      await makeEnrolment(db, {
        editionId: edition.id,
        studentId: id,
        grade: 7,
        phaseIds: [phase.id],
      });
    }
  });
  afterAll(async () => {
    await browser?.close();
    await podium?.close();
    await s3?.close();
  });

  const openTest = async (email: string, lang: Lang): Promise<Page> => {
    const page = await openSignedIn(browser, podium.baseUrl, email, lang, {
      viewport: PHONE,
      ...WAIT,
    });
    await page.goto(`${podium.baseUrl}/test/${testId}`);
    const item = lang === 'ro' ? 'Întrebarea 1' : 'Question 1';
    await expect
      .poll(() => page.getByRole('heading', { name: item, exact: true }).count(), WAIT)
      .toBe(1);
    return page;
  };

  const pages = (page: Page, item: string) =>
    page.getByRole('region', { name: item }).getByRole('listitem').count();

  for (const [lang, email, item, label, refused, saved] of [
    [
      'ro',
      'maria@elevi.example.ro',
      'Întrebarea 1',
      'Încarcă fișiere pentru Întrebarea 1',
      'Spațiul de stocare a fișierelor nu răspunde acum, așa că nimic nu s-a salvat. Încercați din nou peste un minut.',
      'Un fișier a fost salvat.',
    ],
    [
      'en',
      'mary@elevi.example.ro',
      'Question 1',
      'Upload files for Question 1',
      'The file storage is not answering right now, so nothing was saved. Please try again in a minute.',
      'One file was saved.',
    ],
  ] as const) {
    it(`shows the storage's reason and saves nothing, then saves once it is back (${lang})`, async () => {
      const page = await openTest(email, lang);
      const region = page.getByRole('region', { name: item });
      await s3.stop();
      try {
        await region
          .getByLabel(label)
          .setInputFiles([{ name: 'pagina-1.png', mimeType: 'image/png', buffer: samplePng(8) }]);
        await expect
          .poll(() => region.getByRole('alert').filter({ hasText: refused }).count(), WAIT)
          .toBe(1);
        expect(await pages(page, item)).toBe(0);
        await shot(page, `hybrid-storage-down-phone-${lang}`);
      } finally {
        await s3.restart();
      }
      await region
        .getByLabel(label)
        .setInputFiles([{ name: 'pagina-1.png', mimeType: 'image/png', buffer: samplePng(8) }]);
      await expect
        .poll(() => region.getByRole('alert').filter({ hasText: saved }).count(), WAIT)
        .toBe(1);
      await expect.poll(() => pages(page, item), WAIT).toBe(1);
    });
  }
});
