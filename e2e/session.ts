// Signing in for the browser journeys: one browser page per person, in a language, signed in
// through the form (as a person does) or with a session put on the device (as the form leaves
// it), so that every journey reaches a signed-in screen the same way.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { expect } from 'vitest';

export type Lang = 'ro' | 'en';

/** The password the journeys give everyone they create. */
export const PASSWORD = 'parola-buna-123';

/** The sign-in form's labels in each language. */
export const SIGN_IN_FORM = {
  ro: { email: 'Adresa de e-mail', password: 'Parola', submit: 'Intră în cont' },
  en: { email: 'E-mail address', password: 'Password', submit: 'Sign in' },
} as const;

export const LAPTOP = { width: 1280, height: 900 };
export const PHONE = { width: 375, height: 667 };

export type Session = { token: string; userId: string };

export type DeviceOptions = {
  viewport?: { width: number; height: number };
  /** A touch phone: mobile layout, touch, a 2× screen (the viewport stays as given). */
  phone?: boolean;
  acceptDownloads?: boolean;
  /**
   * Sets the language only when the device has none stored, so a language picked in the app
   * survives a reload (otherwise every load starts in `lang`).
   */
  keepPickedLanguage?: boolean;
  /** Stores the language only when set (no language: the app's own default, locale ro-RO). */
  setLanguage?: boolean;
  /** A session put on the device as the sign-in form leaves it. */
  session?: Session;
  /** The page's default timeout for actions and waits. */
  timeout?: number;
  /** A script run before the page's own at every load (after the session and language). */
  script?: string;
};

/** A new browser context in `lang` (locale and the app's stored language), and its first page. */
export async function openDevice(
  browser: Browser,
  lang: Lang,
  options: DeviceOptions = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const { phone = false, session, keepPickedLanguage = false, setLanguage = true } = options;
  const context = await browser.newContext({
    viewport: options.viewport ?? LAPTOP,
    locale: lang === 'ro' ? 'ro-RO' : 'en-GB',
    ...(options.acceptDownloads ? { acceptDownloads: true } : {}),
    ...(phone ? { isMobile: true, hasTouch: true, deviceScaleFactor: 2 } : {}),
  });
  if (session) {
    await context.addInitScript(
      ([s, l]) => {
        window.localStorage.setItem('podium.session', JSON.stringify(s));
        window.localStorage.setItem('podium.language', JSON.stringify(l));
      },
      [session, lang] as const,
    );
  } else if (setLanguage) {
    await context.addInitScript(
      ([l, keep]) => {
        if (keep && window.localStorage.getItem('podium.language')) return;
        window.localStorage.setItem('podium.language', JSON.stringify(l));
      },
      [lang, keepPickedLanguage] as const,
    );
  }
  if (options.script) await context.addInitScript({ content: options.script });
  const page = await context.newPage();
  if (options.timeout) page.setDefaultTimeout(options.timeout);
  return { context, page };
}

/** A new page in `lang` (see openDevice). */
export async function openPage(
  browser: Browser,
  lang: Lang,
  options: DeviceOptions = {},
): Promise<Page> {
  return (await openDevice(browser, lang, options)).page;
}

/** Opens the home page and fills and sends the sign-in form; does not wait for the answer. */
export async function submitSignIn(
  page: Page,
  baseUrl: string,
  email: string,
  { password = PASSWORD, lang = 'ro' }: { password?: string; lang?: Lang } = {},
): Promise<void> {
  const form = SIGN_IN_FORM[lang];
  await page.goto(`${baseUrl}/`);
  await page.getByLabel(form.email).fill(email);
  await page.getByLabel(form.password, { exact: true }).fill(password);
  await page.getByRole('button', { name: form.submit }).click();
}

export type SignInOptions = {
  password?: string;
  lang?: Lang;
  /** How long to wait for the signed-in screen (vitest's poll default otherwise). */
  timeout?: number;
  /**
   * 'menu' (default): until the menu names the user. 'form-gone': until the form's button is
   * gone and the session is stored (a phone keeps the menu in a closed drawer).
   */
  until?: 'menu' | 'form-gone';
};

/** Signs in through the form on `page` and waits until the app has signed the person in. */
export async function signInOn(
  page: Page,
  baseUrl: string,
  email: string,
  { password, lang = 'ro', timeout, until = 'menu' }: SignInOptions = {},
): Promise<Page> {
  await submitSignIn(page, baseUrl, email, { password, lang });
  const wait = timeout ? { timeout } : undefined;
  if (until === 'form-gone') {
    await page.waitForFunction(() => {
      const raw = window.localStorage.getItem('podium.session');
      return raw !== null && raw !== 'null';
    });
    await expect
      .poll(() => page.getByRole('button', { name: SIGN_IN_FORM[lang].submit }).count(), wait)
      .toBe(0);
  } else {
    await expect.poll(() => page.getByTestId('sidebar-name').count(), wait).toBe(1);
  }
  return page;
}

/** A new page in `lang`, signed in through the form (openPage, then signInOn). */
export async function openSignedIn(
  browser: Browser,
  baseUrl: string,
  email: string,
  lang: Lang,
  options: DeviceOptions & SignInOptions = {},
): Promise<Page> {
  const page = await openPage(browser, lang, options);
  return signInOn(page, baseUrl, email, { ...options, lang });
}

/** The session the sign-in form would store, asked of the API directly. */
export async function apiSession(
  baseUrl: string,
  email: string,
  password = PASSWORD,
): Promise<Session> {
  const res = await fetch(`${baseUrl}/api/v1/auth-service/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  if (!res.ok) throw new Error(`login ${email}: ${res.status}`);
  return (await res.json()) as Session;
}
