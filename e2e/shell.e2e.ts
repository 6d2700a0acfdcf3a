import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasChromium, openBrowser, type Podium, shot, startPodium } from './harness.js';
import { type Lang, openPage, signInOn } from './session.js';

// The app frame: each role's menu, guards, language, settings (incl. RTL), search, shortcuts.
describe.skipIf(!hasChromium)('the app shell in the browser', () => {
  let podium: Podium;
  let browser: Browser;

  beforeAll(async () => {
    podium = await startPodium();
    browser = await openBrowser();
    await podium.createUser({
      email: 'elev@example.ro',
      password: 'parola-elev-1',
      type: 'student',
      givenName: 'Elena',
      familyName: 'Stan',
    });
    await podium.createUser({
      email: 'prof@example.ro',
      password: 'parola-prof-1',
      type: 'teacher',
      givenName: 'Radu',
      familyName: 'Matei',
      teacherCode: 'RADU-MATE',
    });
    await podium.createUser({
      email: 'admin@example.ro',
      password: 'parola-admin-1',
      type: 'admin',
      givenName: 'Ioana',
      familyName: 'Dinu',
    });
  });
  afterAll(async () => {
    await browser?.close();
    await podium?.close();
  });

  const open = (opts: { lang?: Lang; width?: number } = {}) =>
    openPage(browser, opts.lang ?? 'ro', {
      viewport: { width: opts.width ?? 1280, height: 860 },
      keepPickedLanguage: true,
      setLanguage: opts.lang !== undefined,
    });

  const signIn = (page: Page, email: string, password: string, lang: Lang = 'ro') =>
    signInOn(page, podium.baseUrl, email, { password, lang });

  const menu = async (page: Page) =>
    (await page.getByRole('navigation').getByRole('link').allTextContents()).map((s) => s.trim());

  it('shows each role its own menu and turns it away from the others’ pages', async () => {
    const student = await open({ lang: 'ro' });
    await signIn(student, 'elev@example.ro', 'parola-elev-1');
    expect(await menu(student)).toEqual([
      'Testele mele',
      'Înscriere la concursuri',
      'Profil',
      'Ajutor',
    ]);
    await shot(student, 'layout-student-ro');
    for (const path of ['/profesori', '/elevi', '/examene/x', '/inregistrare/elev']) {
      await student.goto(`${podium.baseUrl}${path}`);
      await student.waitForURL(`${podium.baseUrl}/`);
    }
    await student.goto(`${podium.baseUrl}/tests`);
    await expect.poll(() => student.getByRole('heading', { name: 'Testele mele' }).count()).toBe(1);
    await student.context().close();

    const teacher = await open({ lang: 'ro' });
    await signIn(teacher, 'prof@example.ro', 'parola-prof-1');
    // A teacher in no competition has no "Concursuri" once the home has said so; diplomas, yes.
    await expect
      .poll(() => menu(teacher))
      .toEqual(['Profesori', 'Elevi', 'Diplome', 'Profil', 'Ajutor']);
    await shot(teacher, 'layout-teacher-ro');
    await teacher.goto(`${podium.baseUrl}/tests`);
    await teacher.waitForURL(`${podium.baseUrl}/`);
    await teacher.goto(`${podium.baseUrl}/limite-conectare`);
    await teacher.waitForURL(`${podium.baseUrl}/`);
    await teacher.context().close();

    const admin = await open({ lang: 'en' });
    await signIn(admin, 'admin@example.ro', 'parola-admin-1', 'en');
    expect(await menu(admin)).toEqual([
      'Teachers',
      'Students',
      'Sign-in limits',
      'Competitions',
      'Profile',
      'E-mails',
      'Help',
    ]);
    await admin.goto(`${podium.baseUrl}/elevi`);
    await expect.poll(() => admin.getByRole('heading', { name: 'Students' }).count()).toBe(1);
    await shot(admin, 'layout-admin-en');
    await admin.context().close();

    const guest = await open({ lang: 'ro' });
    await guest.goto(`${podium.baseUrl}/ajutor`);
    await expect
      .poll(() => guest.getByRole('heading', { name: 'Ajutor și întrebări frecvente' }).count())
      .toBe(1);
    expect(await menu(guest)).toEqual(['Ajutor']);
    await shot(guest, 'help-guest-ro');
    await guest.context().close();
  });

  it('switches the language and remembers it on the device', async () => {
    const page = await open();
    // Each language's strings are a script of their own (assets/ro-….js, assets/en-….js).
    const strings: string[] = [];
    page.on('request', (r) => {
      const name = /\/assets\/(ro|en)-[\w-]+\.js$/.exec(r.url())?.[1];
      if (name) strings.push(name);
    });
    await page.goto(`${podium.baseUrl}/`);
    // Romanian by default.
    await expect.poll(() => page.getByRole('heading', { name: 'Autentificare' }).count()).toBe(1);
    expect(await page.getAttribute('html', 'lang')).toBe('ro');
    // Only the language shown is fetched; the other comes with the switch.
    expect(strings).toEqual(['ro']);
    await page.getByRole('button', { name: 'Limba' }).click();
    await page.getByRole('menuitem', { name: 'English' }).click();
    await expect.poll(() => page.getByRole('heading', { name: 'Sign in' }).count()).toBe(1);
    expect(await page.getAttribute('html', 'lang')).toBe('en');
    expect(strings).toEqual(['ro', 'en']);
    await shot(page, 'login-en');
    strings.length = 0;
    await page.reload();
    await expect.poll(() => page.getByRole('heading', { name: 'Sign in' }).count()).toBe(1);
    expect(strings).toEqual(['en']);

    await page.getByRole('button', { name: 'No account? Create one' }).click();
    await page.getByRole('button', { name: 'Create the account' }).click();
    await expect.poll(() => page.getByText('The field is required').count()).toBe(2);
    await page.context().close();
  });

  it('shows the registration form and its errors in English', async () => {
    await podium.createUser({
      email: 'new.teacher@example.ro',
      password: 'parola-noua-1',
      type: 'teacher',
      registered: false,
      state: 'inactive',
    });
    const page = await open({ lang: 'en' });
    await page.goto(`${podium.baseUrl}/`);
    await page.getByLabel('E-mail address').fill('new.teacher@example.ro');
    await page.getByLabel('Password', { exact: true }).fill('parola-noua-1');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL('**/inregistrare/profesor');
    await page.getByLabel('Family name').fill('Georgescu');
    await page.getByLabel('Given name').fill('Ana');
    await page.getByLabel('City or town').fill('Iași');
    await page.getByLabel('School').fill('Colegiul Național Iași');
    await page.getByRole('combobox', { name: 'County' }).click();
    await page.getByRole('option', { name: 'Iași' }).click();
    await page.getByRole('combobox', { name: 'Subject' }).click();
    await page.getByRole('option', { name: 'Mathematics' }).click();
    // Another teacher already owns this team code.
    await page.getByLabel('Team code').fill('radu-mate');
    await page.getByRole('button', { name: 'Send the registration' }).click();
    await expect.poll(() => page.getByText('The code already exists').count()).toBe(1);
    await shot(page, 'registration-en');
    await page.getByLabel('Team code').fill('ANA-IS');
    await page.getByRole('button', { name: 'Send the registration' }).click();
    await expect
      .poll(() => page.getByText('Thank you! Your registration has been sent.').count())
      .toBe(1);
    await expect.poll(() => page.getByText('Your account is not active yet').count()).toBe(1);
    expect(await menu(page)).toEqual(['Help']);
    await shot(page, 'inactive-teacher-en');
    await page.context().close();
  });

  it('applies display settings, RTL included, and keeps a user’s settings in the profile', async () => {
    const page = await open({ lang: 'ro' });
    await signIn(page, 'prof@example.ro', 'parola-prof-1');
    await page.getByRole('button', { name: 'Setări de afișare' }).click();
    await page.getByRole('radio', { name: 'De la dreapta la stânga' }).click();
    await expect.poll(() => page.getAttribute('html', 'dir')).toBe('rtl');
    await page.getByRole('radio', { name: 'Încadrat (1120 px)' }).click();
    await page.getByRole('radio', { name: 'Întunecată' }).click();
    await page.getByRole('button', { name: 'Închide setările' }).click();
    await page.getByRole('dialog', { name: 'Setări de afișare' }).waitFor({ state: 'hidden' });
    // In RTL the sidebar sits on the right.
    const box = await page.getByTestId('sidebar').locator('.MuiDrawer-paper').boundingBox();
    expect(box?.x).toBeGreaterThan(600);
    const main = await page.locator('main').boundingBox();
    expect(main?.width).toBeLessThanOrEqual(1120);
    await shot(page, 'layout-rtl-dark-ro', { otherTheme: false });

    // Saved to the profile: a fresh device with the same account gets them back.
    await expect
      .poll(async () => {
        const s = await page.evaluate(() =>
          JSON.parse(window.localStorage.getItem('podium.session') ?? '{}'),
        );
        const res = await fetch(`${podium.baseUrl}/api/v1/auth-service/auth/whoami`, {
          headers: { authorization: `Bearer ${s.token}`, userid: s.userId },
        });
        return (await res.json()).data.settings;
      })
      .toMatchObject({ direction: 'rtl', layout: 'boxed', theme: 'dark' });
    const other = await open({ lang: 'ro' });
    await signIn(other, 'prof@example.ro', 'parola-prof-1');
    await expect.poll(() => other.getAttribute('html', 'dir')).toBe('rtl');
    await other.getByRole('button', { name: 'Setări de afișare' }).click();
    await other.getByRole('button', { name: 'Revino la implicit' }).click();
    await expect.poll(() => other.getAttribute('html', 'dir')).toBe('ltr');
    await other.context().close();
    await page.context().close();
  });

  it('keeps a guest’s settings on the device', async () => {
    const page = await open({ lang: 'en' });
    await page.goto(`${podium.baseUrl}/ajutor`);
    await page.getByRole('button', { name: 'Display settings' }).click();
    await page.getByRole('radio', { name: 'Right to left' }).click();
    await expect.poll(() => page.getAttribute('html', 'dir')).toBe('rtl');
    await page.reload();
    await expect.poll(() => page.getAttribute('html', 'dir')).toBe('rtl');
    await shot(page, 'help-guest-rtl-en');
    await page.context().close();
  });

  it('folds the sidebar, searches the menu and keeps starred shortcuts', async () => {
    const page = await open({ lang: 'ro' });
    await signIn(page, 'elev@example.ro', 'parola-elev-1');
    await page.getByRole('button', { name: 'Restrânge meniul' }).click();
    await expect
      .poll(
        async () =>
          (await page.getByTestId('sidebar').locator('.MuiDrawer-paper').boundingBox())?.width,
      )
      .toBe(64);
    await shot(page, 'layout-folded-ro');
    await page.getByRole('button', { name: 'Extinde meniul' }).click();
    await expect
      .poll(
        async () =>
          (await page.getByTestId('sidebar').locator('.MuiDrawer-paper').boundingBox())?.width,
      )
      .toBe(280);

    await page.getByLabel('Caută', { exact: true }).fill('inscr');
    await page.getByRole('option', { name: 'Înscriere la concursuri' }).click();
    await page.waitForURL('**/test/inscriere');

    await page.getByRole('button', { name: 'Alege scurtăturile' }).click();
    await page.getByRole('menuitemcheckbox', { name: /Testele mele/ }).click();
    await page.keyboard.press('Escape');
    await page
      .getByRole('toolbar', { name: 'Scurtături' })
      .getByRole('link', { name: 'Testele mele' })
      .click();
    await page.waitForURL('**/tests');
    await page.reload();
    await expect
      .poll(() =>
        page
          .getByRole('toolbar', { name: 'Scurtături' })
          .getByRole('link', { name: 'Testele mele' })
          .count(),
      )
      .toBe(1);
    await page.context().close();
  });

  it('uses a drawer for the menu on a phone', async () => {
    const page = await open({ lang: 'ro', width: 390 });
    await signIn(page, 'elev@example.ro', 'parola-elev-1').catch(() => undefined);
    await page.getByRole('button', { name: 'Deschide meniul' }).click();
    await page.getByRole('link', { name: 'Ajutor' }).click();
    await page.waitForURL('**/ajutor');
    // The drawer closes once a page is chosen.
    await page.getByRole('navigation').waitFor({ state: 'hidden' });
    await shot(page, 'help-phone-ro');
    await page.context().close();
  });
});
