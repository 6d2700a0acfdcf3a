import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasChromium, openBrowser, type Podium, startPodium } from './harness.js';

const EMAIL = 'ioana.popescu@elevi.example.ro';
const CODE = 'codul-unic-de-conectare-7';

/**
 * Error tracing in the browser (SPEC.md §9): off by default, with no byte of the SDK fetched;
 * with SENTRY_DSN set, a page's uncaught error reaches the service (here a stand-in on this
 * machine) with nothing personal in it.
 */
describe.skipIf(!hasChromium)('error tracing in the browser', () => {
  let browser: Browser;
  const podiums: Podium[] = [];
  let ingest: Server;
  const envelopes: { path: string; body: string }[] = [];

  beforeAll(async () => {
    ingest = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        envelopes.push({ path: req.url ?? '', body: Buffer.concat(chunks).toString('utf8') });
        res.writeHead(200, { 'access-control-allow-origin': '*' }).end('{}');
      });
    });
    await new Promise<void>((resolve) => ingest.listen(0, '127.0.0.1', resolve));
    browser = await openBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    for (const p of podiums) await p.close();
    await new Promise((resolve) => ingest?.close(resolve));
  });

  it('fetches no tracing code while SENTRY_DSN is unset', async () => {
    const podium = await startPodium();
    podiums.push(podium);
    const page = await browser.newPage();
    const scripts: string[] = [];
    page.on('request', (r) => {
      if (r.resourceType() === 'script') scripts.push(r.url());
    });
    await page.goto(`${podium.baseUrl}/`);
    await expect.poll(() => page.getByRole('button', { name: /Intră în cont/ }).count()).toBe(1);
    expect(await page.locator('meta[name="podium-tracing"]').count()).toBe(0);
    expect(scripts.length).toBeGreaterThan(0);
    expect(scripts.filter((s) => /\/sdk-[^/]+\.js$/.test(s))).toEqual([]);
    await page.close();
  });

  it('sends a page error to the service, without what the URL or the error carried', async () => {
    const port = (ingest.address() as AddressInfo).port;
    const podium = await startPodium({
      env: { SENTRY_DSN: `http://publickey@127.0.0.1:${port}/7` },
    });
    podiums.push(podium);
    const page = await browser.newPage();
    const scripts: string[] = [];
    page.on('request', (r) => {
      if (r.resourceType() === 'script') scripts.push(r.url());
    });
    await page.goto(`${podium.baseUrl}/ajutor?code=${CODE}`);
    await expect.poll(() => scripts.some((s) => /\/sdk-[^/]+\.js$/.test(s))).toBe(true);
    // An error no code of the page catches, as a broken screen would throw.
    await page.evaluate(
      (email) =>
        setTimeout(() => {
          throw new Error(`could not show the result of ${email}`);
        }),
      EMAIL,
    );
    await expect
      .poll(() => envelopes.map((e) => e.body).join('\n'))
      .toContain('could not show the result of');
    const sent = envelopes.map((e) => e.body).join('\n');
    expect(envelopes.every((e) => e.path.startsWith('/api/7/envelope/'))).toBe(true);
    expect(sent).toContain('/ajutor');
    expect(sent).not.toContain(EMAIL);
    expect(sent).not.toContain(CODE);
    await page.close();
  });
});
