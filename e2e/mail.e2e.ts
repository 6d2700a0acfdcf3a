import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, startSmtp, type TestSmtp } from '../server/test/smtp.js';
import { hasChromium, openBrowser, type Podium, shot, startPodium } from './harness.js';
import { type Lang, openSignedIn, PASSWORD } from './session.js';

// The admins' mail screen: a mail that failed while the SMTP server was down is sent again.
describe.skipIf(!hasChromium)('the mail outbox in the browser', () => {
  let podium: Podium;
  let browser: Browser;
  let smtp: TestSmtp | undefined;
  let port: number;

  const forgot = (email: string) =>
    fetch(`${podium.baseUrl}/api/v1/auth-service/auth/password/forgot`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email }),
    });

  beforeAll(async () => {
    port = await freePort();
    podium = await startPodium({
      env: {
        SMTP_URL: `smtp://127.0.0.1:${port}`,
        MAIL_TIMEOUT_SECONDS: '1',
        MAIL_MAX_ATTEMPTS: '1',
      },
    });
    browser = await openBrowser();
    await podium.createUser({ email: 'admin@example.ro', password: PASSWORD, type: 'admin' });
    await podium.createUser({ email: 'elena.pop@example.ro', password: PASSWORD });
    await podium.createUser({ email: 'vlad.ene@example.ro', password: PASSWORD });
    // While the mail server is down: Elena's reset fails; Vlad asks six times, one too many.
    expect((await forgot('elena.pop@example.ro')).status).toBe(200);
    for (let i = 0; i < 6; i++) await forgot('vlad.ene@example.ro');
    await podium.deliverMail();
    // The server is back: the next mail goes through.
    smtp = await startSmtp({ port });
    await podium.createUser({ email: 'ioana.marin@example.ro', password: PASSWORD });
    await forgot('ioana.marin@example.ro');
    await podium.deliverMail();
  });
  afterAll(async () => {
    await browser?.close();
    await podium?.close();
    await smtp?.close();
  });

  const signIn = (lang: Lang): Promise<Page> =>
    openSignedIn(browser, podium.baseUrl, 'admin@example.ro', lang);

  it('shows sent, failed and held mails and resends the failed one (ro)', async () => {
    const page = await signIn('ro');
    await page.getByRole('navigation').getByRole('link', { name: 'E-mailuri' }).click();
    await expect
      .poll(() => page.getByRole('heading', { name: 'E-mailuri trimise' }).count())
      .toBe(1);
    const table = page.getByRole('table', { name: 'Lista e-mailurilor' });
    const row = (to: string) => table.getByRole('row').filter({ hasText: to });
    await expect.poll(() => row('ioana.marin@example.ro').textContent()).toContain('Trimis');
    await expect.poll(() => row('elena.pop@example.ro').textContent()).toContain('Eșuat');
    expect(await row('elena.pop@example.ro').textContent()).toContain('ECONNREFUSED');
    const vlad = await row('vlad.ene@example.ro').allTextContents();
    expect(vlad.filter((t) => t.includes('Oprit de limită'))).toHaveLength(1);
    expect(vlad.filter((t) => t.includes('Eșuat'))).toHaveLength(5);
    await shot(page, 'mail-outbox-ro');

    await row('elena.pop@example.ro')
      .getByRole('button', { name: 'Retrimite e-mailul către elena.pop@example.ro' })
      .click();
    await expect
      .poll(() =>
        page.getByText('E-mailul către elena.pop@example.ro a fost pus din nou la trimis.').count(),
      )
      .toBe(1);
    await expect.poll(() => row('elena.pop@example.ro').textContent()).toContain('În așteptare');
    await podium.deliverMail();
    expect(smtp?.received.filter((m) => m.rcpt.includes('elena.pop@example.ro'))).toHaveLength(1);
    await page.reload();
    await expect.poll(() => row('elena.pop@example.ro').textContent()).toContain('Trimis');
    await shot(page, 'mail-outbox-resent-ro');
  });

  it('reads the same in English, filtered to failed mails', async () => {
    const page = await signIn('en');
    await page.goto(`${podium.baseUrl}/emailuri`);
    await page.getByLabel('State').click();
    await page.getByRole('option', { name: 'Failed' }).click();
    const table = page.getByRole('table', { name: 'E-mail list' });
    await expect.poll(() => table.getByRole('row').filter({ hasText: 'Failed' }).count()).toBe(5);
    // The unfiltered list already shows the five failed mails: wait for the filtered one.
    await expect.poll(() => table.textContent()).not.toContain('elena.pop@example.ro');
    expect(await table.getByRole('row').filter({ hasText: 'Failed' }).count()).toBe(5);
    await shot(page, 'mail-outbox-en');
  });
});
