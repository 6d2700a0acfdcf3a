import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  makeEdition,
  makeEnrolment,
  makeExam,
  makePhase,
  makeTestWithItems,
} from '../server/db/factories.js';
import { hasChromium, openBrowser, type Podium, shot, startPodium, WEB_DIST } from './harness.js';
import { apiSession, LAPTOP, type Lang, openDevice, PASSWORD, PHONE } from './session.js';

const MINUTE = 60_000;
const STUDENT = 'ana.radu@elevi.example.ro';

/** The entry script a build's index.html loads: which release a page runs. */
const entryOf = (dist: string) => {
  const html = readFileSync(path.join(dist, 'index.html'), 'utf8');
  const src = html.match(/<script type="module"[^>]*src="([^"]+)"/)?.[1];
  if (!src) throw new Error(`no entry script in ${dist}/index.html`);
  return src;
};

/** Puts `from`'s files in place of `live`'s, as a deployment does: the old files are gone. */
function deploy(from: string, live: string) {
  for (const name of readdirSync(live)) rmSync(path.join(live, name), { recursive: true });
  cpSync(from, live, { recursive: true });
}

/**
 * The exam app kept on the device by the service worker: the connection check saves it, and a
 * release deployed while an attempt runs leaves that attempt on its own release to the end.
 */
describe.skipIf(!hasChromium)('the exam app on the device', () => {
  let podium: Podium;
  let browser: Browser;
  let testId = '';
  const work = mkdtempSync(path.join(tmpdir(), 'podium-release-'));
  /** The directory the server serves; a deployment replaces what is in it. */
  const live = path.join(work, 'live');
  /** A second release of the web app, different from web/dist in its release label. */
  const next = path.join(work, 'next');

  beforeAll(async () => {
    const built = spawnSync(
      'npx',
      ['vite', 'build', '--config', 'web/vite.config.ts', '--outDir', next, '--emptyOutDir'],
      { env: { ...process.env, VITE_PODIUM_RELEASE: 'next' }, encoding: 'utf8' },
    );
    if (built.status !== 0) throw new Error(`second build failed: ${built.stderr}`);
    cpSync(WEB_DIST, live, { recursive: true });

    podium = await startPodium({ webDist: live });
    browser = await openBrowser();
    const now = Date.now();
    const exam = await makeExam(podium.db, { name: 'Olimpiada de Informatică', grades: [6] });
    const edition = await makeEdition(podium.db, { examId: exam.id, name: 'Ediția 2026' });
    const phase = await makePhase(podium.db, {
      editionId: edition.id,
      name: 'Etapa pe școală',
      startDate: new Date(now - 60 * MINUTE),
      endDate: new Date(now + 24 * 60 * MINUTE),
    });
    const made = await makeTestWithItems(podium.db, {
      phaseId: phase.id,
      grades: [6],
      name: 'Proba online',
      subject: 'Informatică',
      startDate: new Date(now - 5 * MINUTE),
      endDate: new Date(now + 180 * MINUTE),
      durationMinutes: 60,
      items: [1, 2, 3].map((n) => ({
        itemQ: `Întrebarea de încercare ${n}: cât face $${n} + ${n}$?`,
        itemType: 'single' as const,
        itemAnswers: [`${2 * n}`, `${2 * n + 1}`],
        itemCorrectAnswers: [0],
        score: 10,
      })),
    });
    testId = made.test.id;
    const { id } = await podium.createUser({
      email: STUDENT,
      password: PASSWORD,
      type: 'student',
      givenName: 'Ana',
      familyName: 'Radu',
      grade: 6,
    });
    await makeEnrolment(podium.db, {
      editionId: edition.id,
      studentId: id,
      grade: 6,
      phaseIds: [phase.id],
    });
  });
  afterAll(async () => {
    await browser?.close();
    await podium?.close();
    rmSync(work, { recursive: true, force: true });
  });

  /** A signed-in student's page in a browser of its own (its own service worker). */
  const openStudent = async (lang: Lang, phone = false) =>
    openDevice(browser, lang, {
      viewport: phone ? PHONE : LAPTOP,
      phone,
      session: await apiSession(podium.baseUrl, STUDENT),
    });

  const runningEntry = (page: Page) =>
    page.evaluate(
      () =>
        document.querySelector<HTMLScriptElement>('script[type="module"]')?.getAttribute('src') ??
        '',
    );

  /** Whether a release is installed and waiting for the running one to let it in. */
  const releaseWaiting = (page: Page) =>
    page.evaluate(async () => Boolean((await navigator.serviceWorker.getRegistration())?.waiting));

  const answer = async (page: Page, n: number) => {
    await page
      .getByRole('navigation', { name: 'Întrebări' })
      .getByRole('button', { name: new RegExp(`^Întrebarea ${n}:`) })
      .click();
    const question = page.getByRole('region', { name: new RegExp(`^Întrebarea ${n} din 3`) });
    await expect.poll(() => question.innerText()).toContain('încercare');
    // Each student sees the options in an order of their own: the first one on screen.
    await question.getByRole('radio').first().check();
    await expect
      .poll(() => question.getByTestId('save-status').getAttribute('data-status'))
      .toBe('saved');
  };

  it('saves the exam app from the connection check, on a phone, in both languages', async () => {
    for (const lang of ['ro', 'en'] as const) {
      const { context, page } = await openStudent(lang, true);
      await page.goto(`${podium.baseUrl}/tests`);
      await page.getByTestId('suggest-connection-check').waitFor();
      await shot(page, `my-tests-check-suggested-phone-${lang}`);
      await page
        .getByRole('link', { name: lang === 'ro' ? 'Verificarea conexiunii' : 'Connection check' })
        .click();
      const app = page.getByTestId('offline-app');
      await expect.poll(() => app.getAttribute('data-state'), { timeout: 60_000 }).toBe('saved');
      await page.getByTestId('connection-verdict').waitFor();
      await shot(page, `connection-check-app-saved-phone-${lang}`);
      // On the next visit the check finds the app already there.
      await page.reload();
      await expect.poll(() => app.getAttribute('data-state')).toBe('saved');
      await context.close();
    }
  });

  it('keeps a running attempt on its release while a new one is deployed, then moves on', async () => {
    const oldEntry = entryOf(live);
    const newEntry = entryOf(next);
    expect(newEntry).not.toBe(oldEntry);

    const { context, page } = await openStudent('ro');
    await page.goto(`${podium.baseUrl}/verificare-conexiune`);
    await expect
      .poll(() => page.getByTestId('offline-app').getAttribute('data-state'), { timeout: 60_000 })
      .toBe('saved');
    await page.goto(`${podium.baseUrl}/test/${testId}`);
    expect(await page.evaluate(() => Boolean(navigator.serviceWorker.controller))).toBe(true);
    await page.getByRole('button', { name: 'Începe testul' }).waitFor();
    for (const term of await page.getByRole('checkbox').all()) await term.check();
    await page.getByRole('button', { name: 'Începe testul' }).click();
    await page.getByRole('timer').waitFor();
    await answer(page, 1);
    expect(await runningEntry(page)).toBe(oldEntry);

    // The new release replaces the old one on the server; the device notices it.
    deploy(next, live);
    const gone = await fetch(`${podium.baseUrl}${oldEntry}`);
    expect(gone.status).toBe(404);
    await page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.update());
    await expect.poll(() => releaseWaiting(page), { timeout: 60_000 }).toBe(true);

    // The attempt goes on: another answer, then a reload that brings the same release back,
    // its chunks (the player, the statement renderer) served from the device.
    await answer(page, 2);
    const fromDevice: string[] = [];
    page.on('response', (r) => {
      if (r.url().endsWith('.js') && r.fromServiceWorker()) fromDevice.push(r.url());
    });
    await page.reload();
    await page.getByRole('timer').waitFor();
    expect(await runningEntry(page)).toBe(oldEntry);
    await answer(page, 3);
    expect(fromDevice.some((url) => /\/assets\/player-[^/]+\.js$/.test(url))).toBe(true);
    expect(fromDevice.some((url) => /\/assets\/statement-renderer-[^/]+\.js$/.test(url))).toBe(
      true,
    );
    expect(await releaseWaiting(page)).toBe(true);

    // The attempt ends and its score stays on screen, on the old release still.
    await page.getByRole('button', { name: 'Încheie testul' }).click();
    await page
      .getByRole('dialog', { name: 'Încheiați testul?' })
      .getByRole('button', { name: 'Da, încheie testul' })
      .click();
    await page.getByTestId('player-score').waitFor();
    expect(await runningEntry(page)).toBe(oldEntry);
    expect(await releaseWaiting(page)).toBe(true);

    // Back to My tests: the new release takes over and the page loads it.
    await page.getByRole('link', { name: 'Înapoi la testele mele' }).click();
    // Still open (issue 33): on a loaded machine the page is sometimes not moved on by itself
    // within half a minute, and a reload does not move it either (a reload overlaps the old
    // page, so the old release still has a page). The student's next visit, once no page of the
    // old release is open, must then get the new one.
    const movedOn = await expect
      .poll(() => runningEntry(page), { timeout: 30_000 })
      .toBe(newEntry)
      .then(() => true)
      .catch(() => false);
    let shown = page;
    if (!movedOn) {
      await page.close();
      shown = await context.newPage();
      await shown.goto(`${podium.baseUrl}/tests`);
    }
    await expect.poll(() => runningEntry(shown), { timeout: 60_000 }).toBe(newEntry);
    expect(await releaseWaiting(shown)).toBe(false);
    await shown.getByRole('heading', { name: 'Testele mele' }).waitFor();
    await context.close();
  }, 180_000);
});
