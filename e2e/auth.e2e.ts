import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fillDate, hasChromium, openBrowser, type Podium, shot, startPodium } from './harness.js';
import { type Lang, openPage, submitSignIn } from './session.js';

// Sign-up → e-mailed link → registration → profile; sign-in, wrong password, reset, logout.
describe.skipIf(!hasChromium)('accounts in the browser', () => {
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

  const newPage = (lang: Lang = 'ro') =>
    openPage(browser, lang, { viewport: { width: 1280, height: 860 }, keepPickedLanguage: true });

  const signIn = (page: Page, email: string, password: string) =>
    submitSignIn(page, podium.baseUrl, email, { password });

  it('signs a student up, confirms by e-mail, registers and edits the profile', async () => {
    await podium.createUser({
      email: 'prof.coord@example.ro',
      password: 'parola-profesor-1',
      type: 'teacher',
      teacherCode: 'MATE-CJ',
    });
    const page = await newPage();
    await page.goto(`${podium.baseUrl}/`);
    await expect.poll(() => page.getByRole('heading', { name: 'Autentificare' }).count()).toBe(1);
    await shot(page, 'login-ro');

    await page.getByRole('button', { name: 'Nu aveți cont? Creați unul' }).click();
    // Bad input is refused on the form, in Romanian, before anything is sent.
    await page.getByRole('button', { name: 'Creează contul' }).click();
    await expect.poll(() => page.getByText('Câmpul este obligatoriu').count()).toBe(2);
    await page.getByLabel('Adresa de e-mail').fill('maria.ionescu@example.ro');
    await page.getByLabel('Parola', { exact: true }).fill('scurta');
    await page.getByRole('button', { name: 'Creează contul' }).click();
    await expect
      .poll(() => page.getByText('Parola trebuie să aibă cel puțin 8 caractere').count())
      .toBe(1);
    await page.getByLabel('Parola', { exact: true }).fill('o-parola-buna-123');
    await page.getByRole('button', { name: 'Creează contul' }).click();
    await expect
      .poll(() => page.getByText('V-am trimis un e-mail la maria.ionescu@example.ro').count())
      .toBe(1);

    const mail = await podium.lastMail('maria.ionescu@example.ro');
    expect(mail.link).toMatch(/\/\?uid=.+&code=.+/);
    await page.goto(mail.link ?? '');
    await page.waitForURL('**/inregistrare/elev');
    // The code was taken from the address bar.
    expect(page.url()).not.toContain('code=');
    await expect
      .poll(() => page.getByRole('heading', { name: 'Înregistrare elev' }).count())
      .toBe(1);

    await page.getByRole('button', { name: 'Trimite înregistrarea' }).click();
    await expect.poll(() => page.getByText('Câmpul este obligatoriu').count()).toBeGreaterThan(4);
    await shot(page, 'registration-errors-ro');

    await page.getByLabel('Nume de familie').fill('Ionescu');
    await page.getByLabel('Prenume').fill('Maria');
    await fillDate(page, 'Data nașterii', '2012-03-14');
    await page.getByRole('combobox', { name: 'Clasa' }).click();
    await page.getByRole('option', { name: 'Clasa 8' }).click();
    await page.getByRole('combobox', { name: 'Județ' }).click();
    await page.getByRole('option', { name: 'Cluj', exact: true }).click();
    await page.getByLabel('Localitate').fill('Cluj-Napoca');
    await page.getByLabel('Școala').fill('Școala Gimnazială „Ion Creangă”');
    await page.getByLabel('Codul echipei').fill('NU-EXISTA');
    await page.getByRole('button', { name: 'Trimite înregistrarea' }).click();
    // The server's answer lands on the field (SPEC.md §5).
    await expect.poll(() => page.getByText('Cod profesor incorect').count()).toBe(1);
    await shot(page, 'registration-ro');

    await page.getByLabel('Codul echipei').fill('mate-cj');
    await page.getByRole('button', { name: 'Trimite înregistrarea' }).click();
    await page.waitForURL(`${podium.baseUrl}/`);
    await expect
      .poll(() => page.getByText('Vă mulțumim! Înregistrarea a fost trimisă.').count())
      .toBe(1);
    // Inactive until the coordinating teacher activates the account: told so, features hidden.
    await expect.poll(() => page.getByTestId('inactive-notice').count()).toBe(1);
    expect(await page.getByRole('link', { name: 'Testele mele' }).count()).toBe(0);
    await page.goto(`${podium.baseUrl}/profil`);
    await page.waitForURL(`${podium.baseUrl}/`);
    // The thank-you message goes away by itself after 3500 ms.
    await expect
      .poll(() => page.getByText('Vă mulțumim! Înregistrarea a fost trimisă.').count(), {
        timeout: 6000,
      })
      .toBe(0);

    await podium.activate('maria.ionescu@example.ro');
    await page.reload();
    await page.getByRole('navigation').getByRole('link', { name: 'Profil' }).click();
    await page.waitForURL('**/profil');
    await expect.poll(() => page.getByLabel('Localitate').inputValue()).toBe('Cluj-Napoca');
    await page.getByLabel('Localitate').fill('Turda');
    await page.getByRole('button', { name: 'Salvează' }).click();
    await expect.poll(() => page.getByText('Profilul a fost actualizat').count()).toBe(1);
    await page.getByLabel('Școala').fill('ab');
    await page.getByRole('button', { name: 'Salvează' }).click();
    await expect.poll(() => page.getByText('Câmp incorect').count()).toBe(1);
    await page.reload();
    await expect.poll(() => page.getByLabel('Localitate').inputValue()).toBe('Turda');
    await shot(page, 'profile-ro');
    await page.context().close();
  });

  for (const [lang, words] of [
    [
      'ro',
      {
        email: 'Adresa de e-mail',
        password: 'Parola',
        signIn: 'Intră în cont',
        required: 'Câmpul este obligatoriu',
        badEmail: 'Adresă de e-mail incorectă',
      },
    ],
    [
      'en',
      {
        email: 'E-mail address',
        password: 'Password',
        signIn: 'Sign in',
        required: 'The field is required',
        badEmail: 'Incorrect e-mail address',
      },
    ],
  ] as const) {
    it(`checks the sign-in fields before asking the server (${lang})`, async () => {
      const page = await newPage(lang);
      const asked: string[] = [];
      page.on('request', (r) => {
        if (r.url().includes('/login')) asked.push(r.url());
      });
      await page.goto(`${podium.baseUrl}/`);
      const email = page.getByLabel(words.email);
      const password = page.getByLabel(words.password, { exact: true });
      const signIn = page.getByRole('button', { name: words.signIn });
      // Both empty: each says so, and the first is focused.
      await signIn.click();
      await expect.poll(() => page.getByText(words.required).count()).toBe(2);
      await expect.poll(() => email.evaluate((e) => e === document.activeElement)).toBe(true);
      // Once sent, a field's message follows what is typed.
      await email.fill('ana@');
      await expect.poll(() => page.getByText(words.badEmail).count()).toBe(1);
      await expect.poll(() => page.getByText(words.required).count()).toBe(1);
      await email.fill('  Ana.Pop@Example.ro ');
      await expect.poll(() => page.getByText(words.badEmail).count()).toBe(0);
      await signIn.click();
      await expect.poll(() => password.evaluate((e) => e === document.activeElement)).toBe(true);
      await expect.poll(() => page.getByText(words.required).count()).toBe(1);
      expect(asked).toEqual([]);
      await password.fill('o-parola');
      await expect.poll(() => page.getByText(words.required).count()).toBe(0);
      // Sent with the e-mail cleaned (no such account: the usual answer).
      const sent = page.waitForRequest((r) => r.url().includes('/login'));
      await signIn.click();
      expect((await sent).postDataJSON()).toEqual({
        email: 'ana.pop@example.ro',
        password: 'o-parola',
      });
      await expect.poll(() => page.getByRole('alert').count()).toBe(1);
      await page.context().close();
    });
  }

  it('refuses a wrong password without saying which part was wrong, then signs in', async () => {
    await podium.createUser({
      email: 'ion.pop@example.ro',
      password: 'parola-corecta-1',
      type: 'student',
      givenName: 'Ion',
      familyName: 'Pop',
    });
    const page = await newPage();
    await signIn(page, 'ion.pop@example.ro', 'parola-gresita');
    await expect
      .poll(() =>
        page
          .getByRole('alert')
          .filter({ hasText: 'Adresa de e-mail sau parola nu este corectă.' })
          .count(),
      )
      .toBe(1);
    await signIn(page, 'nimeni@example.ro', 'parola-gresita');
    await expect
      .poll(() =>
        page
          .getByRole('alert')
          .filter({ hasText: 'Adresa de e-mail sau parola nu este corectă.' })
          .count(),
      )
      .toBe(1);

    await signIn(page, 'ion.pop@example.ro', 'parola-corecta-1');
    await expect.poll(() => page.getByTestId('sidebar-name').textContent()).toBe('Pop Ion');
    await page.context().close();
  });

  it('resets a forgotten password from the login screen', async () => {
    await podium.createUser({
      email: 'uituc@example.ro',
      password: 'parola-veche-1',
      type: 'teacher',
    });
    const page = await newPage('en');
    await page.goto(`${podium.baseUrl}/`);
    await page.getByRole('button', { name: 'Forgotten your password?' }).click();
    await page.getByLabel('E-mail address').fill('uituc@example.ro');
    await page.getByRole('button', { name: 'Send the link' }).click();
    await expect
      .poll(() => page.getByText('If there is an account for uituc@example.ro').count())
      .toBe(1);

    const mail = await podium.lastMail('uituc@example.ro');
    expect(mail.link).toContain('mode=reset');
    await page.goto(mail.link ?? '');
    await expect
      .poll(() => page.getByRole('heading', { name: 'Choose a new password' }).count())
      .toBe(1);
    await page.getByLabel('New password', { exact: true }).fill('parola-noua-2');
    await page.getByRole('button', { name: 'Save the password' }).click();
    await expect.poll(() => page.getByText('Your password has been changed.').count()).toBe(1);

    // The same link works once.
    await page.goto(mail.link ?? '');
    await page.getByLabel('New password', { exact: true }).fill('parola-noua-3');
    await page.getByRole('button', { name: 'Save the password' }).click();
    await expect
      .poll(() => page.getByText('This link is no longer valid. Ask for a new one.').count())
      .toBe(1);

    await page.goto(`${podium.baseUrl}/`);
    await page.getByLabel('E-mail address').fill('uituc@example.ro');
    await page.getByLabel('Password', { exact: true }).fill('parola-noua-2');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.getByRole('heading', { name: /Welcome/ }).count()).toBe(1);
    await page.context().close();
  });

  it('signs out, ends the session on the server and guards the pages again', async () => {
    await podium.createUser({
      email: 'iese@example.ro',
      password: 'parola-iese-1',
      type: 'student',
    });
    const page = await newPage();
    await signIn(page, 'iese@example.ro', 'parola-iese-1');
    await expect.poll(() => page.getByTestId('sidebar-name').count()).toBe(1);
    const token = await page.evaluate(() => window.localStorage.getItem('podium.session'));
    expect(token).not.toBeNull();

    await page.getByRole('button', { name: 'Contul meu' }).click();
    await page.getByRole('menuitem', { name: 'Deconectare' }).click();
    await expect.poll(() => page.getByRole('heading', { name: 'Autentificare' }).count()).toBe(1);
    expect(await page.evaluate(() => window.localStorage.getItem('podium.session'))).toBeNull();

    const { token: bearer, userId } = JSON.parse(token ?? '{}') as {
      token: string;
      userId: string;
    };
    const res = await fetch(`${podium.baseUrl}/api/v1/auth-service/auth/whoami`, {
      headers: { authorization: `Bearer ${bearer}`, userid: userId },
    });
    expect(res.status).toBe(401);

    await page.goto(`${podium.baseUrl}/profil`);
    await page.waitForURL(`${podium.baseUrl}/`);
    await page.goto(`${podium.baseUrl}/nu-exista/deloc`);
    await page.waitForURL(`${podium.baseUrl}/`);
    await page.context().close();
  });

  it('sends a user whose session died to /deconectare and back to the login', async () => {
    await podium.createUser({
      email: 'expirat@example.ro',
      password: 'parola-expirata-1',
      type: 'teacher',
    });
    const page = await newPage();
    await signIn(page, 'expirat@example.ro', 'parola-expirata-1');
    await expect.poll(() => page.getByTestId('sidebar-name').count()).toBe(1);
    // Another device signs out this session: the next call answers 401.
    await page.evaluate(async () => {
      const s = JSON.parse(window.localStorage.getItem('podium.session') ?? '{}');
      await fetch('/api/v1/auth-service/auth/logout', {
        method: 'POST',
        headers: { authorization: `Bearer ${s.token}`, userid: s.userId },
      });
    });
    await page.getByRole('navigation').getByRole('link', { name: 'Profil' }).click();
    await page.getByRole('button', { name: 'Salvează' }).isVisible();
    await page.getByLabel('Localitate').fill('Dej');
    await page.getByRole('button', { name: 'Salvează' }).click();
    await expect.poll(() => page.getByRole('heading', { name: 'Autentificare' }).count()).toBe(1);
    await page.context().close();
  });
});
