import { readFile } from 'node:fs/promises';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasChromium, openBrowser, type Podium, shot, startPodium } from './harness.js';
import { type Lang, openSignedIn, PASSWORD } from './session.js';

// A student downloads their own data from the profile page (Datele tale / Your data), as JSON
// and as a ZIP, in Romanian and in English.

describe.skipIf(!hasChromium)('my data on the profile page', () => {
  let podium: Podium;
  let browser: Browser;

  beforeAll(async () => {
    podium = await startPodium();
    browser = await openBrowser();
    await podium.createUser({
      email: 'elena.voicu@example.ro',
      password: PASSWORD,
      type: 'student',
      givenName: 'Elena',
      familyName: 'Voicu',
    });
    await podium.createUser({
      email: 'mihai.stan@example.ro',
      password: PASSWORD,
      type: 'teacher',
      givenName: 'Mihai',
      familyName: 'Stan',
    });
  });
  afterAll(async () => {
    await browser?.close();
    await podium?.close();
  });

  const signIn = async (lang: Lang, email = 'elena.voicu@example.ro') => {
    const page = await openSignedIn(browser, podium.baseUrl, email, lang, {
      viewport: { width: 1280, height: 860 },
      acceptDownloads: true,
    });
    await page.goto(`${podium.baseUrl}/profil`);
    return page;
  };

  it('downloads the JSON and the ZIP, in both languages', async () => {
    const ro = await signIn('ro');
    await expect.poll(() => ro.getByRole('heading', { name: 'Datele tale' }).count()).toBe(1);
    await shot(ro, 'my-data-ro');
    const [json] = await Promise.all([
      ro.waitForEvent('download'),
      ro.getByRole('button', { name: 'Descarcă datele (JSON)' }).click(),
    ]);
    expect(json.suggestedFilename()).toBe('date-personale.json');
    const data = JSON.parse(await readFile((await json.path()) ?? '', 'utf8'));
    expect(data.profile).toMatchObject({ email: 'elena.voicu@example.ro', givenName: 'Elena' });
    await ro.context().close();

    const en = await signIn('en');
    await expect.poll(() => en.getByRole('heading', { name: 'Your data' }).count()).toBe(1);
    const [zip] = await Promise.all([
      en.waitForEvent('download'),
      en.getByRole('button', { name: 'Download your data and files (ZIP)' }).click(),
    ]);
    expect(zip.suggestedFilename()).toBe('date-personale.zip');
    const bytes = await readFile((await zip.path()) ?? '');
    expect(bytes.subarray(0, 2).toString('latin1')).toBe('PK');
    await shot(en, 'my-data-en');
    await en.context().close();
  });

  it('speaks to a teacher with "dumneavoastră", a student with "tu" (GLOSSARY.md)', async () => {
    const teacher = await signIn('ro', 'mihai.stan@example.ro');
    await expect
      .poll(() => teacher.getByRole('heading', { name: 'Datele dumneavoastră' }).count())
      .toBe(1);
    expect(await teacher.getByText(/^Descărcați tot ce păstrează Podium/).count()).toBe(1);
    await shot(teacher, 'my-data-teacher-ro');
    await teacher.context().close();
  });
});
