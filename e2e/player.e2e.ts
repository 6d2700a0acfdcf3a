// Taking an online test: a student end to end in Romanian (score in My tests), on a phone in
// English; a lab computer's connection check from the help page. The world: e2e/player-world.ts.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { hasChromium, shot } from './harness.js';
import { tabTo } from './keyboard.js';
import { playerWorld, TEXT } from './player-world.js';

describe.skipIf(!hasChromium)('taking an online test in the browser', () => {
  const w = playerWorld();
  const {
    questionIds,
    openAs,
    currentQuestion,
    mapQuestions,
    goTo,
    option,
    waitSaved,
    acceptTermsAndStart,
    answersOnScreen,
    storedAnswers,
    withValue,
  } = w;

  it('a student takes the test end to end, in Romanian, and sees the score in My tests', async () => {
    const lang = 'ro';
    const email = 'maria.ionescu@elevi.example.ro';
    const { page, context } = await openAs(email, { lang });
    const fetched: string[] = [];
    page.on('request', (r) => fetched.push(new URL(r.url()).pathname));
    await page.goto(`${w.podium.baseUrl}/tests`);
    const card = page.getByRole('article', { name: /Proba online/ });
    await expect.poll(() => card.getByTestId('my-test-state').innerText()).toBe('Deschis');
    await card.getByRole('link', { name: 'Începe testul' }).click();
    await page.waitForURL(`**/test/${w.testId}`);

    await acceptTermsAndStart(page, lang);
    await shot(page, 'player-terms-ro');
    // Up to here no statement showed: neither KaTeX nor its fonts were fetched.
    expect(fetched.filter((p) => /\/assets\/(renderer|statement-renderer|KaTeX_)/.test(p))).toEqual(
      [],
    );
    await page.getByRole('button', { name: 'Începe testul' }).click();
    await expect
      .poll(() => page.getByRole('heading', { level: 1 }).innerText())
      .toBe('Matematică - Clasa 6');
    // Toolbar only: no menu, no footer.
    expect(await page.getByRole('link', { name: 'Concursuri' }).count()).toBe(0);
    expect(await page.getByRole('contentinfo').count()).toBe(0);
    const timer = await page.getByRole('timer').innerText();
    expect(timer).toMatch(/^(1:00:00|59:\d\d)$/);

    const positions = await mapQuestions(page, lang);
    let section = await goTo(page, lang, positions, 'fraction');
    // The formula is typeset by KaTeX, with its fonts in woff2 only.
    await expect.poll(() => section.locator('.katex').count()).toBeGreaterThan(0);
    await expect
      .poll(() => fetched.filter((p) => p.includes('/assets/KaTeX_')).length)
      .toBeGreaterThan(0);
    expect(fetched.filter((p) => /\.(woff|ttf)$/.test(p))).toEqual([]);
    // No staff screen reached the student's device.
    const manifest = JSON.parse(readFileSync('web/dist/.vite/manifest.json', 'utf8'));
    const staff = ['questions', 'reviews', 'tests', 'uploads', 'users', 'mail', 'diplomas', 'exams']
      .map((f) => `src/features/${f}/index.ts`)
      .concat(
        ['rankings/RankingPage', 'rankings/RulesPage', 'auth/ThrottlesPage'].map(
          (f) => `src/features/${f}.tsx`,
        ),
      )
      .map((key) => `/${manifest[key].file}`);
    expect(fetched.filter((p) => staff.includes(p))).toEqual([]);
    await option(page, lang, 'radio', 'două șesimi').check();
    await waitSaved(page, lang);
    // Changing one's mind: the newer answer wins.
    await option(page, lang, 'radio', 'trei sferturi').check();
    await waitSaved(page, lang);

    section = await goTo(page, lang, positions, 'prime');
    await option(page, lang, 'checkbox', '2').check();
    await option(page, lang, 'checkbox', '9').check();
    // The keyboard checks an option as well as the mouse does.
    await tabTo(page, option(page, lang, 'checkbox', '11'));
    await page.keyboard.press('Space');
    await option(page, lang, 'checkbox', '9').uncheck();
    await waitSaved(page, lang);

    section = await goTo(page, lang, positions, 'area');
    const figure = section.getByRole('img', { name: 'Triunghiul din enunț' });
    await expect
      .poll(() => figure.evaluate((img) => (img as HTMLImageElement).naturalWidth))
      .toBeGreaterThan(0);
    await section.getByLabel('Răspunsul dumneavoastră').fill('7,');
    await expect.poll(() => section.getByText('Scrieți un număr întreg').count()).toBe(1);
    await section.getByLabel('Răspunsul dumneavoastră').fill('7,5');
    await waitSaved(page, lang);
    await shot(page, 'player-desktop-ro');

    // With the keyboard alone: Tab to the next (or previous) question's button until the power
    // question shows, then Tab to its field and type the answer.
    const from = positions.get('area') ?? 0;
    const to = positions.get('power') ?? 0;
    const step = to > from ? 1 : -1;
    const move = page.getByRole('button', {
      name: step > 0 ? 'Următoarea' : 'Înapoi',
      exact: true,
    });
    for (let n = from; n !== to; n += step) {
      await tabTo(page, move);
      await page.keyboard.press('Enter');
      await expect
        .poll(() => currentQuestion(page, lang).getByRole('heading').innerText())
        .toMatch(new RegExp(`^${TEXT[lang].question} ${n + step} `));
    }
    await tabTo(page, currentQuestion(page, lang).getByLabel('Răspunsul dumneavoastră'));
    await page.keyboard.type('1024');
    await waitSaved(page, lang);

    // A reload brings back every answer from the server.
    await page.reload();
    await page.getByRole('timer').waitFor();
    const onScreen = await answersOnScreen(page, lang, positions);
    expect(onScreen.get(questionIds.get('area') ?? '')).toBe('7,5');
    expect(onScreen.get(questionIds.get('prime') ?? '')).toEqual([0, 2]);
    expect(withValue(onScreen)).toEqual(withValue(await storedAnswers(email)));

    await page.getByRole('button', { name: 'Încheie testul' }).click();
    const dialog = page.getByRole('dialog', { name: 'Încheiați testul?' });
    await expect
      .poll(() => dialog.innerText())
      .toContain(`O întrebare nu are răspuns: ${positions.get('hexagon')}.`);
    await shot(page, 'player-finish-ro');
    await dialog.getByRole('button', { name: 'Da, încheie testul' }).click();
    await expect.poll(() => page.getByTestId('player-score').count()).toBe(1);
    expect(await page.getByTestId('player-score').innerText()).toBe('Punctaj: 90 din 100');

    await page.getByRole('link', { name: 'Înapoi la testele mele' }).click();
    await page.waitForURL('**/tests');
    await expect
      .poll(() => card.getByTestId('my-test-state').innerText())
      .toBe('Rezultat disponibil');
    expect(await card.getByTestId('my-test-score').innerText()).toBe('Punctaj: 90 din 100');
    await shot(page, 'my-tests-ro');

    // Finished is final: opening the test again says so, with the way back.
    await page.goto(`${w.podium.baseUrl}/test/${w.testId}`);
    const again = page.getByRole('dialog', { name: 'Testul a fost încheiat' });
    await again.waitFor();
    await again.getByRole('link', { name: 'Înapoi la testele mele' }).click();
    await page.waitForURL('**/tests');
    await context.close();
  });

  it('works on a phone, in English', async () => {
    const lang = 'en';
    const email = 'john.smith@elevi.example.ro';
    const { page, context } = await openAs(email, { lang, phone: true });
    await page.goto(`${w.podium.baseUrl}/tests`);
    const card = page.getByRole('article', { name: /Proba online/ });
    await expect.poll(() => card.getByTestId('my-test-state').innerText()).toBe('Open');
    await shot(page, 'my-tests-phone-en');
    await card.getByRole('link', { name: 'Start the test' }).click();
    await acceptTermsAndStart(page, lang);
    await page.getByRole('button', { name: 'Start the test' }).click();
    await expect
      .poll(() => page.getByRole('heading', { level: 1 }).innerText())
      .toBe('Mathematics - Grade 6');

    const positions = await mapQuestions(page, lang);
    await goTo(page, lang, positions, 'hexagon');
    await option(page, lang, 'radio', '6').check();
    await waitSaved(page, lang);
    await goTo(page, lang, positions, 'prime');
    await option(page, lang, 'checkbox', '2').check();
    await waitSaved(page, lang);
    await goTo(page, lang, positions, 'fraction');
    await option(page, lang, 'radio', 'un întreg').check();
    await waitSaved(page, lang);
    // Nothing sticks out sideways on a narrow screen.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      375,
    );
    await shot(page, 'player-phone-en');

    await page.getByRole('button', { name: 'Finish the test' }).click();
    const dialog = page.getByRole('dialog', { name: 'Finish the test?' });
    await expect.poll(() => dialog.innerText()).toContain('2 questions have no answer');
    await dialog.getByRole('button', { name: 'Yes, finish the test' }).click();
    // hexagon 10 + fraction wrong 0 + prime only one of two (not exact) 0.
    await expect.poll(() => page.getByTestId('player-score').innerText()).toBe('Score: 10 of 100');
    await shot(page, 'player-finished-phone-en');
    await context.close();
  });

  it('checks a lab computer’s connection without signing in, from the help page', async () => {
    const context = await w.browser.newContext({
      viewport: { width: 1280, height: 900 },
      locale: 'ro-RO',
    });
    const page = await context.newPage();
    await page.goto(`${w.podium.baseUrl}/ajutor`);
    await shot(page, 'help-connection-check-ro');
    await page.getByRole('link', { name: 'Verificarea conexiunii' }).click();
    await page.waitForURL('**/verificare-conexiune');
    const verdict = page.getByTestId('connection-verdict');
    await verdict.waitFor({ timeout: 30_000 });
    expect(await verdict.innerText()).toContain('Calculatorul este pregătit pentru test');
    const results = page.getByRole('list', { name: 'Rezultatele verificării' });
    expect(await results.getByRole('listitem').count()).toBe(4);
    await shot(page, 'connection-check-ro');

    // Without the server, the verdict says the computer is not ready.
    await context.route('**/api/**', (route) => route.abort('internetdisconnected'));
    await page.getByRole('button', { name: 'Verifică din nou' }).click();
    await expect
      .poll(() => page.getByTestId('connection-verdict').innerText(), { timeout: 30_000 })
      .toContain('Calculatorul nu este pregătit');
    await context.close();
  });
});
