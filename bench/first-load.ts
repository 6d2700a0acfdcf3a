// `npm run bench -- first-load [--runs n]`: what a student's browser fetches and waits from the
// sign-in page to the first question, through the real server serving web/dist (build it first:
// `npm run build`), in the system Chromium slowed down by the DevTools protocol: CPU 4× slower,
// 1.6 Mbit/s down, 150 ms round trip (a cheap phone on a poor line). Three cases:
// - cold: a device that never opened Podium (service worker blocked, so the figures are the
//   page's own; the worker's background copy is reported apart, as the connection check's);
// - warm: the same after a visit to the connection check, which saved the exam app;
// - lab: 30 students sharing a 20 Mbit/s line, approximated by one page given a thirtieth of
//   it (0.67 Mbit/s, same round trip and CPU): thirty browsers on this 2-core machine would
//   measure its CPU, not the line.
import { parseArgs } from 'node:util';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import {
  makeEdition,
  makeEnrolment,
  makeExam,
  makePhase,
  makeTestWithItems,
} from '../server/db/factories.js';
import { buildTestApp } from '../server/test/app.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const PASSWORD = 'parola-buna-123';
const MINUTE = 60_000;
const STUDENTS = 5_000;
const TARGETS = { cold: { ms: 6_000, bytes: 300_000 }, warm: { ms: 1_500, bytes: 30_000 } };

type Line = { name: string; downMbit: number; rttMs: number; cpu: number };
const PHONE: Line = { name: '1.6 Mbit/s, 150 ms', downMbit: 1.6, rttMs: 150, cpu: 4 };
const LAB: Line = { name: '20 Mbit/s / 30, 150 ms', downMbit: 20 / 30, rttMs: 150, cpu: 4 };

type Figures = {
  ms: number;
  /** When each screen was ready, from the start: sign-in, home, My tests, terms, question. */
  steps: number[];
  bytes: number;
  requests: number;
  apiBytes: number;
  fromDevice: number;
};

/** Counts what crosses the (emulated) network for the page: bytes on the wire and requests. */
async function meter(page: Page, line: Line) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: false });
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: line.rttMs,
    downloadThroughput: (line.downMbit * 1_000_000) / 8,
    uploadThroughput: (0.768 * 1_000_000) / 8,
  });
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: line.cpu });
  const urls = new Map<string, string>();
  const served = new Set<string>();
  const f = { bytes: 0, requests: 0, apiBytes: 0, fromDevice: 0 };
  cdp.on('Network.requestWillBeSent', (e) => urls.set(e.requestId, e.request.url));
  cdp.on('Network.responseReceived', (e) => {
    if (e.response.fromServiceWorker || e.response.fromDiskCache) served.add(e.requestId);
  });
  cdp.on('Network.loadingFinished', (e) => {
    if (served.has(e.requestId)) {
      f.fromDevice += 1;
      return;
    }
    f.requests += 1;
    f.bytes += e.encodedDataLength;
    if (urls.get(e.requestId)?.includes('/api/')) f.apiBytes += e.encodedDataLength;
  });
  return f;
}

/** Sign-in page → My tests → the test's start → the first question drawn. */
async function journey(page: Page, base: string, email: string, line: Line): Promise<Figures> {
  const counted = await meter(page, line);
  const started = performance.now();
  const steps: number[] = [];
  const step = () => steps.push(performance.now() - started);
  await page.goto(`${base}/`);
  await page.getByLabel('Adresa de e-mail').waitFor();
  step();
  await page.getByLabel('Adresa de e-mail').fill(email);
  await page.getByLabel('Parola', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Intră în cont' }).click();
  const myTests = page.getByRole('link', { name: 'Testele mele' }).first();
  await myTests.waitFor();
  step();
  await myTests.click();
  const open = page.getByRole('link', { name: 'Începe testul' }).first();
  await open.waitFor();
  step();
  await open.click();
  const start = page.getByRole('button', { name: 'Începe testul' });
  await start.waitFor({ timeout: 120_000 });
  step();
  for (const term of await page.getByRole('checkbox').all()) await term.check();
  await start.click();
  // The first question with its formula drawn by KaTeX.
  await page.locator('.katex').first().waitFor({ timeout: 120_000 });
  step();
  return { ms: performance.now() - started, steps, ...counted };
}

async function newContext(browser: Browser, serviceWorkers: 'allow' | 'block') {
  return browser.newContext({
    viewport: { width: 1280, height: 800 },
    locale: 'ro-RO',
    serviceWorkers,
  });
}

/** The connection check on an unthrottled line, days before: the exam app saved. */
async function saveApp(context: BrowserContext, base: string): Promise<void> {
  const page = await context.newPage();
  await page.goto(`${base}/verificare-conexiune`);
  await page.locator('[data-testid="offline-app"][data-state="saved"]').waitFor({
    timeout: 120_000,
  });
  await page.close();
}

export async function firstLoadCli(args: string[]): Promise<number> {
  const { values } = parseArgs({ args, options: { runs: { type: 'string', default: '1' } } });
  const runs = Number(values.runs);
  const t = await buildTestApp({
    webDist: 'web/dist',
    env: { AUTH_RATE_LIMIT_PER_MINUTE: '100000' },
  });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address();
  if (!address || typeof address === 'string') throw new Error('no address');
  // Service workers need a secure origin: the machine itself counts as one.
  const base = `http://127.0.0.1:${address.port}`;
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'],
  });
  try {
    const now = Date.now();
    const exam = await makeExam(t.database.db, { name: 'Olimpiada de Matematică', grades: [6] });
    const edition = await makeEdition(t.database.db, { examId: exam.id, name: 'Ediția 2026' });
    const phase = await makePhase(t.database.db, {
      editionId: edition.id,
      name: 'Etapa pe școală',
      startDate: new Date(now - 60 * MINUTE),
      endDate: new Date(now + 24 * 60 * MINUTE),
    });
    await makeTestWithItems(t.database.db, {
      phaseId: phase.id,
      grades: [6],
      name: 'Proba online',
      subject: 'Matematică',
      startDate: new Date(now - 5 * MINUTE),
      endDate: new Date(now + 180 * MINUTE),
      durationMinutes: 60,
      items: Array.from({ length: 10 }, (_, i) => ({
        itemQ: `Întrebarea ${i + 1}: cât face $\\frac{${i + 1}}{2} + \\frac{1}{4}$?`,
        itemType: 'single' as const,
        itemAnswers: ['unu', 'doi', 'trei', 'patru'],
        itemCorrectAnswers: [0],
        score: 10,
      })),
    });
    let n = 0;
    const student = async () => {
      n += 1;
      const email = `elev${n}@elevi.example.ro`;
      const u = await t.createUser({ email, password: PASSWORD, type: 'student', grade: 6 });
      await makeEnrolment(t.database.db, {
        editionId: edition.id,
        studentId: u.id,
        grade: 6,
        phaseIds: [phase.id],
      });
      return email;
    };

    const rows: Array<{ name: string; f: Figures }> = [];
    for (let run = 1; run <= runs; run++) {
      for (const line of [PHONE, LAB]) {
        const cold = await newContext(browser, 'block');
        rows.push({
          name: `cold, ${line.name}`,
          f: await journey(await cold.newPage(), base, await student(), line),
        });
        await cold.close();
        const warm = await newContext(browser, 'allow');
        await saveApp(warm, base);
        rows.push({
          name: `warm, ${line.name}`,
          f: await journey(await warm.newPage(), base, await student(), line),
        });
        await warm.close();
      }
    }

    const kB = (b: number) => `${(b / 1000).toFixed(1)} kB`;
    console.log(
      `first-load: sign-in page → first question, CPU ×4, ${runs} run(s), ${t.database.kind}`,
    );
    for (const { name, f } of rows) {
      const target = name.startsWith('cold') ? TARGETS.cold : TARGETS.warm;
      console.log(
        `${name.padEnd(30)} ${(f.ms / 1000).toFixed(2).padStart(6)} s (at ${f.steps.map((ms) => (ms / 1000).toFixed(1)).join(' / ')} s)  ${kB(f.bytes).padStart(9)} in ${String(f.requests).padStart(3)} requests (API ${kB(f.apiBytes)}), ${f.fromDevice} from the device  targets ≤ ${target.ms / 1000} s, ≤ ${kB(target.bytes)}`,
      );
    }
    const mean = (prefix: string) => {
      const chosen = rows.filter((r) => r.name.startsWith(prefix));
      return chosen.reduce((s, r) => s + r.f.bytes, 0) / chosen.length;
    };
    console.log(
      `egress of ${STUDENTS} students at the start: cold ${((mean('cold') * STUDENTS) / 1e9).toFixed(2)} GB, warm ${((mean('warm') * STUDENTS) / 1e9).toFixed(2)} GB`,
    );
    return 0;
  } finally {
    await browser.close();
    await t.close();
  }
}
