import { describe, expect, it } from 'vitest';
import { makeEnrolment, makeTestWithItems } from '../server/db/factories.js';
import { hasChromium, shot } from './harness.js';
import { MINUTE, playerWorld, QUESTIONS, TEXT } from './player-world.js';
import { PASSWORD } from './session.js';

describe.skipIf(!hasChromium)('the result of an online test in the browser', () => {
  const w = playerWorld();
  const { openAs, navButton, currentQuestion, option, waitSaved, acceptTermsAndStart } = w;

  it('shows the points known so far as provisional while a written answer waits for marking', async () => {
    const email = 'ana.marin@elevi.example.ro';
    const { id } = await w.podium.createUser({
      email,
      password: PASSWORD,
      type: 'student',
      givenName: 'Ana',
      familyName: 'Marin',
      grade: 8,
    });
    await makeEnrolment(w.podium.db, {
      editionId: w.editionId,
      studentId: id,
      grade: 8,
      phaseIds: [w.phaseId],
    });
    // A single-choice question worth 10 and an open one worth 20, marked later by people.
    await makeTestWithItems(w.podium.db, {
      phaseId: w.phaseId,
      grades: [8],
      name: 'Proba cu redactare',
      startDate: new Date(Date.now() - MINUTE),
      endDate: new Date(Date.now() + 120 * MINUTE),
      durationMinutes: 60,
      items: [
        QUESTIONS.hexagon.seed,
        {
          itemQ: 'Demonstrați că suma a două numere pare este pară.',
          itemType: 'open',
          itemAnswers: [],
          itemCorrectAnswers: null,
          score: 20,
        },
      ],
    });
    const lang = 'ro';
    const { page, context } = await openAs(email, { lang });
    await page.goto(`${w.podium.baseUrl}/tests`);
    const card = page.getByRole('article', { name: /Proba cu redactare/ });
    await card.getByRole('link', { name: 'Începe testul' }).click();
    await acceptTermsAndStart(page, lang);
    await page.getByRole('button', { name: 'Începe testul' }).click();
    await page.getByRole('timer').waitFor();
    for (let n = 1; n <= 2; n++) {
      await navButton(page, lang, n).click();
      await expect
        .poll(() => currentQuestion(page, lang).getByRole('heading').innerText())
        .toMatch(new RegExp(`^${TEXT[lang].question} ${n} `));
      // The statement is drawn a moment after the heading (its renderer is fetched with it).
      await expect.poll(() => currentQuestion(page, lang).innerText()).toMatch(/hexagon|sum/i);
      const text = await currentQuestion(page, lang).innerText();
      if (text.includes('hexagon')) await option(page, lang, 'radio', '6').check();
      else {
        await currentQuestion(page, lang)
          .getByLabel('Răspunsul dumneavoastră')
          .fill('Fie 2a și 2b; suma lor este 2(a + b), deci pară.');
      }
      await waitSaved(page, lang);
    }
    await page.getByRole('button', { name: 'Încheie testul' }).click();
    await page
      .getByRole('dialog', { name: 'Încheiați testul?' })
      .getByRole('button', { name: 'Da, încheie testul' })
      .click();
    // The written answer is not counted as 0: the 10 points known are provisional.
    await expect
      .poll(() => page.getByTestId('player-score').innerText())
      .toBe('Punctaj provizoriu: 10 din 30');
    expect(await page.getByTestId('player-score-note').innerText()).toBe(
      'O întrebare așteaptă corectarea; punctele ei nu sunt încă incluse.',
    );
    expect(
      await page.getByText('Întrebările cu răspuns redactat sunt corectate de comisie.').count(),
    ).toBe(1);
    await shot(page, 'player-finished-provisional-ro');

    await page.getByRole('link', { name: 'Înapoi la testele mele' }).click();
    await page.waitForURL('**/tests');
    await expect.poll(() => card.getByTestId('my-test-state').innerText()).toBe('În corectare');
    expect(await card.getByTestId('my-test-score').innerText()).toBe(
      'Punctaj provizoriu: 10 din 30',
    );
    expect(await card.getByTestId('my-test-score-note').innerText()).toMatch(
      /^O întrebare așteaptă corectarea/,
    );
    await shot(page, 'my-tests-provisional-ro');
    await context.close();

    // The same in English, on a 390-pixel phone: nothing sticks out sideways.
    const phone = await openAs(email, { lang: 'en', phone: true });
    await phone.page.setViewportSize({ width: 390, height: 844 });
    await phone.page.goto(`${w.podium.baseUrl}/tests`);
    const phoneCard = phone.page.getByRole('article', { name: /Proba cu redactare/ });
    await expect
      .poll(() => phoneCard.getByTestId('my-test-score').innerText())
      .toBe('Provisional score: 10 of 30');
    expect(await phoneCard.getByTestId('my-test-score-note').innerText()).toMatch(
      /^1 question waits for marking;/,
    );
    expect(await phoneCard.getByTestId('my-test-state').innerText()).toBe('Being marked');
    expect(
      await phone.page.evaluate(() => document.documentElement.scrollWidth),
    ).toBeLessThanOrEqual(390);
    await shot(phone.page, 'my-tests-provisional-phone-en');
    await phone.context.close();
  });
});
