import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { makeTestWithItems } from '../server/db/factories.js';
import { attempts } from '../server/db/schema.js';
import { hasChromium, shot } from './harness.js';
import { MINUTE, playerWorld, QUESTIONS } from './player-world.js';

describe.skipIf(!hasChromium)('an online test interrupted in the browser', () => {
  const w = playerWorld();
  const {
    students,
    questionIds,
    apiLogin,
    openAs,
    navButton,
    currentQuestion,
    mapQuestions,
    goTo,
    option,
    statusOf,
    waitSaved,
    acceptTermsAndStart,
    answersOnScreen,
    storedAnswers,
  } = w;

  it('keeps answering through a 60 s network cut and a reload, and the server ends with the answers on screen', async () => {
    const lang = 'ro';
    const email = 'ion.popa@elevi.example.ro';
    const { page, context } = await openAs(email, { lang });
    await page.goto(`${w.podium.baseUrl}/test/${w.testId}`);
    await acceptTermsAndStart(page, lang);
    await page.getByRole('button', { name: 'Începe testul' }).click();
    await page.getByRole('timer').waitFor();
    const positions = await mapQuestions(page, lang);
    await goTo(page, lang, positions, 'fraction');
    await option(page, lang, 'radio', 'trei sferturi').check();
    await waitSaved(page, lang);
    await goTo(page, lang, positions, 'prime');
    await option(page, lang, 'checkbox', '11').check();
    await waitSaved(page, lang);

    // The network goes: every call to the API fails as if the cable were pulled.
    const cutAt = Date.now();
    const cut = (route: { abort(code: string): Promise<void> }) =>
      route.abort('internetdisconnected');
    await context.route('**/api/**', cut);

    await goTo(page, lang, positions, 'fraction');
    await option(page, lang, 'radio', 'o optime').check();
    await expect.poll(() => statusOf(page, lang)).toBe('local');
    await goTo(page, lang, positions, 'area');
    await currentQuestion(page, lang).getByLabel('Răspunsul dumneavoastră').fill('7.5');
    await expect.poll(() => statusOf(page, lang)).toBe('local');
    await page.getByTestId('offline-banner').waitFor();
    await goTo(page, lang, positions, 'prime');
    await option(page, lang, 'checkbox', '2').check();
    await expect.poll(() => statusOf(page, lang)).toBe('local');
    await shot(page, 'player-offline-ro');

    // A reload while the network is still gone: the test comes back from the device.
    await page.reload();
    await page.getByRole('timer').waitFor();
    await page.getByTestId('offline-banner').waitFor();
    await goTo(page, lang, positions, 'fraction');
    expect(await option(page, lang, 'radio', 'o optime').isChecked()).toBe(true);
    expect(await statusOf(page, lang)).toBe('local');
    await goTo(page, lang, positions, 'area');
    expect(
      await currentQuestion(page, lang).getByLabel('Răspunsul dumneavoastră').inputValue(),
    ).toBe('7.5');
    await goTo(page, lang, positions, 'power');
    await currentQuestion(page, lang).getByLabel('Răspunsul dumneavoastră').fill('1000');
    await expect.poll(() => statusOf(page, lang)).toBe('local');
    await currentQuestion(page, lang).getByLabel('Răspunsul dumneavoastră').fill('1024');
    await goTo(page, lang, positions, 'hexagon');
    await option(page, lang, 'radio', '8').check();
    await option(page, lang, 'radio', '6').check();
    await expect.poll(() => statusOf(page, lang)).toBe('local');

    // Nothing reached the server during the cut.
    const during = await storedAnswers(email);
    expect(during.get(questionIds.get('fraction') ?? '')).toEqual([0]);
    expect(during.has(questionIds.get('power') ?? '')).toBe(false);

    await page.waitForTimeout(Math.max(0, 60_000 - (Date.now() - cutAt)));
    await context.unroute('**/api/**', cut);

    // Back online: the banner goes and every answer is acknowledged.
    await expect
      .poll(() => page.getByTestId('offline-banner').count(), { timeout: 30_000 })
      .toBe(0);
    for (let n = 1; n <= 5; n++) {
      await expect
        .poll(() => navButton(page, lang, n).getAttribute('data-status'), { timeout: 20_000 })
        .toBe('saved');
    }
    const onScreen = await answersOnScreen(page, lang, positions);
    expect(onScreen.get(questionIds.get('fraction') ?? '')).toEqual([3]);
    expect(onScreen.get(questionIds.get('prime') ?? '')).toEqual([0, 2]);
    expect(onScreen.get(questionIds.get('hexagon') ?? '')).toEqual([2]);
    expect(onScreen.get(questionIds.get('power') ?? '')).toBe('1024');
    expect(await storedAnswers(email)).toEqual(onScreen);

    await page.getByRole('button', { name: 'Încheie testul' }).click();
    const dialog = page.getByRole('dialog', { name: 'Încheiați testul?' });
    await dialog.getByRole('button', { name: 'Da, încheie testul' }).click();
    // prime 20 + area 30 + hexagon 10 + power 30; the fraction is wrong.
    await expect
      .poll(() => page.getByTestId('player-score').innerText())
      .toBe('Punctaj: 90 din 100');
    await context.close();
  }, 150_000);

  it('takes no notice of a computer clock an hour off', async () => {
    const lang = 'ro';
    const email = 'elena.stan@elevi.example.ro';
    for (const clockOffsetMs of [60 * MINUTE]) {
      const { page, context } = await openAs(email, { lang, clockOffsetMs });
      await page.goto(`${w.podium.baseUrl}/test/${w.testId}`);
      await acceptTermsAndStart(page, lang);
      await page.getByRole('button', { name: 'Începe testul' }).click();
      await page.getByRole('timer').waitFor();
      expect(
        await page.evaluate(() => Date.now() - performance.timeOrigin - performance.now()),
      ).toBeGreaterThan(59 * MINUTE);
      const [attempt] = await w.podium.db
        .select({ deadlineAt: attempts.deadlineAt })
        .from(attempts)
        .where(
          and(eq(attempts.testId, w.testId), eq(attempts.studentId, students.get(email) ?? '')),
        );
      const serverLeft = () =>
        Math.ceil(((attempt?.deadlineAt.getTime() ?? 0) - Date.now()) / 1000);
      const shownLeft = async () => {
        const parts = (await page.getByRole('timer').innerText()).split(':').map(Number);
        return parts.reduce((total, part) => total * 60 + part, 0);
      };
      expect(Math.abs((await shownLeft()) - serverLeft())).toBeLessThanOrEqual(2);
      const positions = await mapQuestions(page, lang);
      await goTo(page, lang, positions, 'hexagon');
      await option(page, lang, 'radio', '6').check();
      await waitSaved(page, lang);
      // Nothing ended early, and a reload shows the same time.
      expect(await page.getByRole('dialog').count()).toBe(0);
      await page.reload();
      await page.getByRole('timer').waitFor();
      expect(Math.abs((await shownLeft()) - serverLeft())).toBeLessThanOrEqual(2);
      await context.close();
    }
  });

  it('shows extra time given by staff on the timer at once, while the student only reads', async () => {
    const lang = 'ro';
    const email = 'elena.stan@elevi.example.ro';
    const { page, context } = await openAs(email, { lang });
    // The player opens its event stream within EVENT_STREAM_OPEN_SPREAD_MS (20 s).
    const listening = page.waitForResponse((r) => r.url().endsWith(`/mytests/${w.testId}/events`), {
      timeout: 30_000,
    });
    await page.goto(`${w.podium.baseUrl}/test/${w.testId}`);
    // Her attempt runs already (the clock test above): the player resumes it.
    await page.getByRole('timer').waitFor();
    expect((await listening).status()).toBe(200);
    const shownLeft = async () => {
      const parts = (await page.getByRole('timer').innerText()).split(':').map(Number);
      return parts.reduce((total, part) => total * 60 + part, 0);
    };
    const before = await shownLeft();
    const staff = await apiLogin('profesor@example.ro');
    const res = await fetch(
      `${w.podium.baseUrl}/api/v1/test-player/tests/${w.testId}/students/${students.get(email)}/extra-time`,
      {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          authorization: `Bearer ${staff.token}`,
          userid: staff.userId,
        },
        body: JSON.stringify({ minutes: 10, reason: 'Calculatorul s-a blocat' }),
      },
    );
    expect(res.status).toBe(200);
    // No answer, no reload, well before the 30-second state check: the event stream brings it.
    await expect.poll(shownLeft, { timeout: 5_000 }).toBeGreaterThan(before + 9 * 60);
    await shot(page, 'player-extra-time-ro');
    // The next saved answer carries the same deadline: the timer stays where it is.
    const positions = await mapQuestions(page, lang);
    await goTo(page, lang, positions, 'prime');
    await option(page, lang, 'checkbox', '11').check();
    await waitSaved(page, lang);
    expect(await shownLeft()).toBeGreaterThan(before + 9 * 60 - 30);
    await context.close();
  });

  it('at the end of the time asks the server, which ends the attempt, even with the clock an hour behind', async () => {
    const lang = 'ro';
    const email = 'andrei.dinu@elevi.example.ro';
    // A test for grade 7 whose window closes in 30 seconds: the attempt's deadline.
    const short = await makeTestWithItems(w.podium.db, {
      phaseId: w.phaseId,
      grades: [7],
      name: 'Proba scurtă',
      startDate: new Date(Date.now() - MINUTE),
      endDate: new Date(Date.now() + 30_000),
      durationMinutes: 30,
      items: [QUESTIONS.hexagon.seed, QUESTIONS.prime.seed],
    });
    const { page, context } = await openAs(email, { lang, clockOffsetMs: -60 * MINUTE });
    await page.goto(`${w.podium.baseUrl}/test/${short.test.id}`);
    await acceptTermsAndStart(page, lang);
    await page.getByRole('button', { name: 'Începe testul' }).click();
    await page.getByRole('timer').waitFor();
    // The window's end, not the 30 minutes: at most 00:30 (a start within the first second
    // rounds up to it).
    expect(await page.getByRole('timer').innerText()).toMatch(/^00:([0-2]\d|30)$/);
    const hexagon = await (async () => {
      for (let n = 1; n <= 2; n++) {
        await navButton(page, lang, n).click();
        if ((await currentQuestion(page, lang).innerText()).includes('hexagon')) return n;
      }
      return 0;
    })();
    expect(hexagon).toBeGreaterThan(0);
    await option(page, lang, 'radio', '6').check();
    await waitSaved(page, lang);

    // At 00:00 the page says the time is up and waits for the server: it never finishes alone.
    const timeUp = page.getByRole('dialog', { name: 'Timpul a expirat' });
    await timeUp.waitFor({ timeout: 35_000 });
    await shot(page, 'player-time-up-ro');
    await expect
      .poll(() => page.getByTestId('player-score').innerText(), { timeout: 30_000 })
      .toBe('Punctaj: 10 din 30');
    expect(await page.getByText('Timpul s-a terminat, iar testul a fost încheiat').count()).toBe(1);
    const [attempt] = await w.podium.db
      .select({ finishedBy: attempts.finishedBy, state: attempts.state })
      .from(attempts)
      .where(
        and(eq(attempts.testId, short.test.id), eq(attempts.studentId, students.get(email) ?? '')),
      );
    // Finished by the server at the deadline, not by a request of the page.
    expect(attempt).toEqual({ finishedBy: 'sweeper', state: 'finished' });
    await context.close();
  }, 120_000);
});
