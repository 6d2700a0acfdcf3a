import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOidcProvider } from '../server/test/oidc-provider.js';
import { freePort } from '../server/test/smtp.js';
import { hasChromium, openBrowser, type Podium, shot, startPodium } from './harness.js';
import { type Lang, openPage, PASSWORD, signInOn } from './session.js';

// School sign-in through a certified OpenID provider, in the browser: a teacher chooses so on
// the sign-in page; a cancel at the provider lands back on the sign-in page with the reason.
describe.skipIf(!hasChromium)('school sign-in in the browser', () => {
  let podium: Podium;
  let browser: Browser;
  let idp: Awaited<ReturnType<typeof startOidcProvider>>;

  beforeAll(async () => {
    const port = await freePort();
    idp = await startOidcProvider({
      clientId: 'podium',
      clientSecret: 'secret-of-podium',
      redirectUri: `http://127.0.0.1:${port}/api/v1/auth-service/auth/oauth/callback`,
      tokenAuthMethod: 'client_secret_basic',
      claimsInIdToken: false,
    });
    podium = await startPodium({
      port,
      env: {
        OIDC_ISSUER: idp.issuer,
        OIDC_CLIENT_ID: 'podium',
        OIDC_CLIENT_SECRET: 'secret-of-podium',
        OIDC_LABEL: 'Contul școlii',
      },
    });
    browser = await openBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await podium?.close();
    await idp?.close();
  });

  const open = async (lang: Lang): Promise<Page> => {
    const page = await openPage(browser, lang);
    await page.goto(`${podium.baseUrl}/`);
    return page;
  };

  it('lets a teacher sign up with the school account (ro)', async () => {
    const page = await open('ro');
    await page.getByRole('button', { name: 'Sunt profesor' }).click();
    await shot(page, 'oidc-choice-ro');
    idp.willSignIn({
      sub: 'prof-ionescu',
      email: 'irina.ionescu@scoala.ro',
      email_verified: true,
      given_name: 'Irina',
      family_name: 'Ionescu',
    });
    await page.getByRole('link', { name: 'Intră cu Contul școlii' }).click();
    // Back in Podium, signed in, on the teacher's registration form with the names filled in.
    await page.waitForURL(/\/inregistrare\/profesor/);
    await expect.poll(() => page.getByLabel('Prenume').inputValue()).toBe('Irina');
    await shot(page, 'oidc-teacher-registration-ro');
  });

  it('shows why the sign-in did not finish when the person cancels at the provider (ro, en)', async () => {
    for (const lang of ['ro', 'en'] as const) {
      const page = await open(lang);
      idp.willSignIn('cancel');
      const button = lang === 'ro' ? 'Intră cu Contul școlii' : 'Sign in with Contul școlii';
      await page.getByRole('link', { name: button }).click();
      const text =
        lang === 'ro'
          ? 'Autentificarea prin contul școlii a fost anulată.'
          : 'The sign-in with the school account was cancelled.';
      await expect.poll(() => page.getByRole('alert').filter({ hasText: text }).count()).toBe(1);
      expect(new URL(page.url()).search).toBe('?oidcError=cancelled');
      await shot(page, `oidc-cancelled-${lang}`);
    }
  });

  it('shows why when the provider does not vouch for the address (ro, en)', async () => {
    for (const lang of ['ro', 'en'] as const) {
      const page = await open(lang);
      idp.willSignIn({ sub: `neverificat-${lang}`, email: 'ana@scoala.ro', email_verified: false });
      const button = lang === 'ro' ? 'Intră cu Contul școlii' : 'Sign in with Contul școlii';
      await page.getByRole('link', { name: button }).click();
      const text =
        lang === 'ro'
          ? 'Contul școlii nu a trimis o adresă de e-mail confirmată.'
          : 'The school account did not give a confirmed e-mail address.';
      await expect.poll(() => page.getByRole('alert').filter({ hasText: text }).count()).toBe(1);
      expect(new URL(page.url()).search).toBe('?oidcError=unverified');
      await shot(page, `oidc-unverified-${lang}`);
    }
  });

  it('says the external sign-in failed when its one-time code cannot be exchanged (ro, en)', async () => {
    for (const lang of ['ro', 'en'] as const) {
      const page = await openPage(browser, lang);
      // A code the server never issued (forged, spent or someone else's): OIDC_FAILED.
      const uid = '00000000-0000-4000-8000-000000000000';
      await page.goto(`${podium.baseUrl}/?oauth=1&uid=${uid}&code=forged-${lang}`);
      const text = lang === 'ro' ? 'Autentificarea externă a eșuat.' : 'External sign-in failed.';
      await expect.poll(() => page.getByRole('alert').filter({ hasText: text }).count()).toBe(1);
      // The code is taken out of the address, so a reload does not try it again.
      expect(new URL(page.url()).searchParams.get('code')).toBeNull();
      await shot(page, `oidc-failed-${lang}`);
    }
  });

  it('offers the choice in English too', async () => {
    const page = await open('en');
    await expect
      .poll(() => page.getByRole('button', { name: 'I am a teacher' }).count(), {
        timeout: 30_000,
      })
      .toBe(1);
    await shot(page, 'oidc-choice-en');
  });

  it('lets an admin make a student account a teacher one (ro)', async () => {
    const password = PASSWORD;
    await podium.createUser({ email: 'admin@scoala.ro', password, type: 'admin' });
    await podium.createUser({
      email: 'mihai.stan@scoala.ro',
      password,
      givenName: 'Mihai',
      familyName: 'Stan',
    });
    const page = await signInOn(await openPage(browser, 'ro'), podium.baseUrl, 'admin@scoala.ro');
    await page.getByRole('navigation').getByRole('link', { name: 'Elevi' }).click();
    await page
      .getByRole('button', { name: 'Fă din contul lui Stan Mihai un cont de profesor' })
      .click();
    await expect
      .poll(() => page.getByRole('dialog').textContent())
      .toContain('mihai.stan@scoala.ro');
    await shot(page, 'account-type-dialog-ro', { fullPage: false });
    await page.getByRole('button', { name: 'Fă-l profesor' }).click();
    await expect
      .poll(() => page.getByText('Contul Stan Mihai este acum cont de profesor.').count())
      .toBe(1);
    await page.getByRole('navigation').getByRole('link', { name: 'Profesori' }).click();
    await expect
      .poll(() => page.getByRole('row').filter({ hasText: 'mihai.stan@scoala.ro' }).count())
      .toBe(1);
  });
  // Last: it stops the provider.
  it('shows why when the provider stops answering during the sign-in (en, ro)', async () => {
    const page = await open('en');
    // The browser comes back from the provider; before Podium can redeem the code there,
    // the provider goes down.
    idp.willSignIn(
      { sub: 'prof-cad', email: 'cad@scoala.ro', email_verified: true },
      { thenStop: true },
    );
    await page.getByRole('link', { name: 'Sign in with Contul școlii' }).click();
    const text = "The school's sign-in service is not answering right now.";
    await expect
      .poll(() => page.getByRole('alert').filter({ hasText: text }).count(), { timeout: 30_000 })
      .toBe(1);
    expect(new URL(page.url()).search).toBe('?oidcError=unavailable');
    await shot(page, 'oidc-unavailable-en');

    // The same landing in Romanian (where the callback sends the browser).
    const ro = await open('ro');
    await ro.goto(`${podium.baseUrl}/?oidcError=unavailable`);
    await expect
      .poll(() =>
        ro
          .getByRole('alert')
          .filter({ hasText: 'Serviciul de autentificare al școlii nu răspunde acum.' })
          .count(),
      )
      .toBe(1);
    await shot(ro, 'oidc-unavailable-ro');
  });
});
