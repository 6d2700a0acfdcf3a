import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { type Browser, chromium, type Locator, type Page } from 'playwright-core';
import type { Db } from '../server/db/client.js';
import type { UserSeed } from '../server/db/factories.js';
import { users } from '../server/db/schema.js';
import { buildTestApp } from '../server/test/app.js';
import { checkAccessibility, settle } from './a11y.js';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const hasChromium = existsSync(CHROMIUM_PATH);
// PODIUM_WEB_DIST lets parallel runs use their own build of the web app.
export const WEB_DIST = path.resolve(process.env.PODIUM_WEB_DIST ?? 'web/dist');
/** Where the journeys' pictures go (e2e/failure-shots.ts puts a failed test's under failed/). */
export const SCREENSHOTS = path.resolve('e2e/screenshots');

export type Mail = { subject: string; text: string; link: string | undefined };

export type Podium = {
  baseUrl: string;
  /** Sends the mail that is due now (the server's worker does it on a timer). */
  deliverMail(): Promise<number>;
  /** The newest mail to an address; waits up to 5 s for it to arrive. */
  lastMail(to: string): Promise<Mail>;
  createUser(u: UserSeed & { email: string; password: string }): Promise<{ id: string }>;
  /** Activates an account directly in the database (the people screens do it in the app). */
  activate(email: string): Promise<void>;
  /** Makes the queued diploma ZIPs now (the server's timer does it every few seconds). */
  runDiplomaJobs(): Promise<number>;
  /** Makes the queued paper jobs now: booklets, scans to read (paper-jobs.ts). */
  runPaperJobs(): Promise<number>;
  /** The server's database, for rows no screen creates yet (competition roles, enrolments). */
  db: Db;
  close(): Promise<void>;
};

/**
 * A real Podium server on a fresh database, serving the built web app on a free port; `env`
 * adds settings (e.g. an SMTP server, an OpenID provider); `webDist` serves another build (a
 * release deployed while the server runs).
 */
export async function startPodium(
  options: { env?: NodeJS.ProcessEnv; port?: number; webDist?: string } = {},
): Promise<Podium> {
  if (!existsSync(path.join(WEB_DIST, 'index.html'))) {
    throw new Error('web/dist is missing: run `npm run build:web` (npm test does it for you)');
  }
  const t = await buildTestApp({ webDist: options.webDist ?? WEB_DIST, env: options.env });
  await t.app.listen({ port: options.port ?? 0, host: '127.0.0.1' });
  const address = t.app.server.address();
  if (!address || typeof address === 'string') throw new Error('no address');
  const baseUrl = `http://127.0.0.1:${address.port}`;
  // Links in mails must point at this server.
  t.config.publicOrigin = baseUrl;
  return {
    baseUrl,
    deliverMail: () => t.deliverMail(),
    async lastMail(to) {
      const deadline = Date.now() + 5_000;
      for (;;) {
        const mail = await t.lastMail(to.toLowerCase());
        if (mail) return mail;
        if (Date.now() > deadline) throw new Error(`no mail to ${to}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    async createUser(u) {
      const row = await t.createUser(u);
      return { id: row.id };
    },
    async activate(email) {
      await t.database.db
        .update(users)
        .set({ state: 'active' })
        .where(eq(users.email, email.toLowerCase()));
    },
    runDiplomaJobs: () => t.app.diplomaJobs.runPending(),
    runPaperJobs: () => t.app.paperJobs.runPending(),
    db: t.database.db,
    close: () => t.close(),
  };
}

/** Every browser a test file opened, for the pictures of a failed test (e2e/failure-shots.ts). */
export const openBrowsers = new Set<Browser>();

/** Headless system Chromium with the flags this machine needs. */
export async function openBrowser(): Promise<Browser> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
    ],
  });
  openBrowsers.add(browser);
  browser.on('disconnected', () => openBrowsers.delete(browser));
  return browser;
}

/**
 * Saves a screenshot as e2e/screenshots/<name>.png once the page has settled: scrolled to the
 * top, no finite animation (a dialog opening, a ripple) still running. Full page by default;
 * `fullPage: false` for a dialog, which covers the window only (the page below it would look
 * broken). Every screen a journey pictures is also a screen it checks for accessibility
 * (e2e/a11y.ts), in both themes, and pictures in the other theme too, as <name>-dark.png (or
 * -light); `otherTheme: false` where the user picked a theme.
 */
export async function shot(
  page: Page,
  name: string,
  { fullPage = true, otherTheme = true } = {},
): Promise<void> {
  await page.evaluate(() => window.scrollTo(0, 0));
  await settle(page);
  await mkdir(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage });
  await checkAccessibility(page, name, {
    otherTheme,
    inOtherTheme: (theme) =>
      page.screenshot({ path: path.join(SCREENSHOTS, `${name}-${theme}.png`), fullPage }),
  });
}

/**
 * Types a date ("2026-03-14") or a date and time ("2026-03-14T09:00") into the date field
 * named `label` (components/form/FormDateTime.tsx), the way a person does: section by section,
 * in the order both languages write it (day, month, year, hours, minutes), after clearing it.
 */
export async function fillDate(scope: Page | Locator, label: string, value: string) {
  const [date = '', time] = value.split('T');
  const [year, month, day] = date.split('-');
  const digits = `${day}${month}${year}${time ? time.replace(':', '') : ''}`;
  const page = 'keyboard' in scope ? scope : scope.page();
  const field = scope.getByRole('group', { name: label, exact: true });
  await field.getByRole('spinbutton').first().click();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.press('Backspace');
  await page.keyboard.type(digits);
}
