import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasChromium, openBrowser, type Podium, shot, startPodium } from './harness.js';
import { openPage, SIGN_IN_FORM, submitSignIn } from './session.js';

// Sign-in limits in the browser: a guessed account makes the next try wait (the form says how
// long and counts down), the owner's own browser still gets in, admins see and clear the
// limit; a common password is refused on the sign-up form. In Romanian and English.
describe.skipIf(!hasChromium)('sign-in limits in the browser', () => {
  let podium: Podium;
  let browser: Browser;

  beforeAll(async () => {
    podium = await startPodium();
    browser = await openBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await podium?.close();
  });

  const texts = {
    ro: {
      ...SIGN_IN_FORM.ro,
      wrong: 'Adresa de e-mail sau parola nu este corectă.',
      wait: /Prea multe încercări greșite pentru acest cont de aici\. Mai încercați peste \d+ secunde\./,
      nav: 'Limite la conectare',
      clear: 'Șterge limita',
      cleared: 'Limita a fost ștearsă',
      toSignUp: 'Nu aveți cont? Creați unul',
      signUp: 'Creează contul',
      tooCommon: 'Parola e prea ușor de ghicit',
    },
    en: {
      ...SIGN_IN_FORM.en,
      wrong: 'The e-mail address or the password is wrong.',
      wait: /Too many wrong tries for this account from here\. Try again in \d+ seconds\./,
      nav: 'Sign-in limits',
      clear: 'Clear limit',
      cleared: 'The limit was cleared',
      toSignUp: 'No account? Create one',
      signUp: 'Create the account',
      tooCommon: 'This password is too easy to guess',
    },
  } as const;
  type Lang = keyof typeof texts;

  const newPage = (lang: Lang) =>
    openPage(browser, lang, { viewport: { width: 1280, height: 860 }, keepPickedLanguage: true });

  const signIn = (page: Page, lang: Lang, email: string, password: string) =>
    submitSignIn(page, podium.baseUrl, email, { password, lang });

  /**
   * Wrong passwords from another browser (no token), `failures` of them: after the five free
   * ones, the next try waits 1 s, 2 s, 4 s… (the waits are real, so as few as the test needs).
   */
  const guess = async (email: string, failures: number) => {
    for (let done = 0; done < failures; ) {
      const res = await fetch(`${podium.baseUrl}/api/v1/auth-service/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email, password: `ghicit-${done}-xx` }),
      });
      const body = (await res.json()) as { error: { details?: { retryAfter?: number } } };
      if (res.status === 429) {
        await new Promise((r) => setTimeout(r, (body.error.details?.retryAfter ?? 1) * 1000));
      } else done += 1;
    }
  };

  for (const lang of ['ro', 'en'] as const) {
    it(`makes a guessed account wait, lets its owner's browser in, and shows admins (${lang})`, async () => {
      const x = texts[lang];
      const email = `elev.${lang}@example.ro`;
      await podium.createUser({ email, password: 'parola-corecta-1', type: 'student' });
      const admin = `admin.${lang}@example.ro`;
      await podium.createUser({ email: admin, password: 'parola-admin-1', type: 'admin' });

      // The owner signed in from this browser before.
      const own = await newPage(lang);
      await signIn(own, lang, email, 'parola-corecta-1');
      await own.waitForURL(`${podium.baseUrl}/`);
      await expect.poll(() => own.getByRole('navigation').count()).toBeGreaterThan(0);
      await own.goto(`${podium.baseUrl}/deconectare`);

      // Eight: the next try waits 8 s, time to load a page, try and see the countdown move.
      await guess(email, 8);
      const other = await newPage(lang);
      await signIn(other, lang, email, 'parola-corecta-1');
      await expect.poll(() => other.getByRole('alert').filter({ hasText: x.wait }).count()).toBe(1);
      expect(await other.getByRole('button', { name: x.submit }).isDisabled()).toBe(true);
      await shot(other, `sign-in-wait-${lang}`);
      // The countdown moves.
      const first = await other.getByRole('alert').filter({ hasText: x.wait }).textContent();
      await expect
        .poll(() => other.getByRole('alert').filter({ hasText: x.wait }).textContent())
        .not.toBe(first);
      await other.context().close();

      // The owner's browser is not made to wait.
      await signIn(own, lang, email, 'parola-corecta-1');
      await own.waitForURL(`${podium.baseUrl}/`);
      await expect.poll(() => own.getByRole('navigation').count()).toBeGreaterThan(0);
      await own.context().close();

      // Guessed again, until a try must wait (the list shows it however short the wait): the
      // admin sees the limit and clears it.
      await guess(email, 6);
      const page = await newPage(lang);
      await signIn(page, lang, admin, 'parola-admin-1');
      await page.getByRole('navigation').getByRole('link', { name: x.nav }).click();
      await page.waitForURL('**/limite-conectare');
      const table = page.getByRole('table', { name: x.nav });
      await expect.poll(() => table.getByRole('row').filter({ hasText: email }).count()).toBe(2);
      await shot(page, `sign-in-limits-${lang}`);
      await table
        .getByRole('button', { name: new RegExp(`${email.replaceAll('.', '\\.')} `) })
        .first()
        .click();
      await page.getByRole('dialog').getByRole('button', { name: x.clear }).click();
      await expect.poll(() => page.getByText(x.cleared).count()).toBe(1);
      await expect.poll(() => table.getByRole('row').filter({ hasText: email }).count()).toBe(1);
      await shot(page, `sign-in-limits-cleared-${lang}`);
      await page.context().close();
    });

    it(`refuses a common password on the sign-up form (${lang})`, async () => {
      const x = texts[lang];
      const page = await newPage(lang);
      await page.goto(`${podium.baseUrl}/`);
      await page.getByRole('button', { name: x.toSignUp }).click();
      await page.getByLabel(x.email).fill(`nou.${lang}@example.ro`);
      await page.getByLabel(x.password, { exact: true }).fill('password1');
      await page.getByRole('button', { name: x.signUp }).click();
      await expect.poll(() => page.getByText(x.tooCommon).count()).toBe(1);
      await shot(page, `sign-up-common-password-${lang}`);
      await page.context().close();
    });
  }
});
