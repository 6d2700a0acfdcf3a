import { type Browser, chromium } from 'playwright-core';
import { AppError } from '../../lib/errors.js';

/** Prints HTML to PDF with the system Chromium. */
export type PdfPrinter = {
  print(html: string): Promise<Buffer>;
  close(): Promise<void>;
};

export type PdfPrinterOptions = {
  /** The system Chromium (config `chromiumPath`). */
  executablePath: string;
  /** Papers printed at once; more wait their turn. */
  concurrency?: number;
};

const LAUNCH_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** 'Pagina 1 din 2' at the foot of each page (the paper is Romanian). */
const PAGE_FOOTER =
  '<div style="width:100%;text-align:center;font-size:8pt;font-family:\'DejaVu Serif\',serif">' +
  'Pagina <span class="pageNumber"></span> din <span class="totalPages"></span></div>';

const LAUNCH_TIMEOUT_MS = 30_000;
const PRINT_TIMEOUT_MS = 60_000;

const unavailable = () => new AppError('PDF_UNAVAILABLE', 'The paper could not be printed');

/**
 * One browser per process, started on the first print and closed with the app. A missing or
 * crashed Chromium is PDF_UNAVAILABLE (503), and the next print tries to start it again.
 * Pages run without JavaScript and without network: the HTML carries everything it shows.
 */
export function createPdfPrinter(options: PdfPrinterOptions): PdfPrinter {
  let browser: Promise<Browser> | undefined;
  let isClosed = false;
  const limit = options.concurrency ?? 2;
  let running = 0;
  const waiting: (() => void)[] = [];

  function getBrowser(): Promise<Browser> {
    if (!browser) {
      const started = chromium
        .launch({
          executablePath: options.executablePath,
          args: LAUNCH_ARGS,
          timeout: LAUNCH_TIMEOUT_MS,
        })
        .then((b) => {
          b.on('disconnected', () => {
            if (browser === started) browser = undefined;
          });
          return b;
        });
      browser = started;
      started.catch(() => {
        if (browser === started) browser = undefined;
      });
    }
    return browser;
  }

  /** At most `limit` prints at once; a finished print hands its slot to the next in line. */
  async function withSlot<T>(work: () => Promise<T>): Promise<T> {
    if (running >= limit) await new Promise<void>((resolve) => waiting.push(resolve));
    else running += 1;
    try {
      return await work();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else running -= 1;
    }
  }

  return {
    print: (html) =>
      withSlot(async () => {
        if (isClosed) throw unavailable();
        let b: Browser;
        try {
          b = await getBrowser();
        } catch {
          throw unavailable();
        }
        const context = await b.newContext({ javaScriptEnabled: false }).catch(() => {
          throw unavailable();
        });
        try {
          const page = await context.newPage();
          page.setDefaultTimeout(PRINT_TIMEOUT_MS);
          await page.route('**/*', (route) => route.abort());
          await page.setContent(html, { waitUntil: 'load' });
          return await page.pdf({
            format: 'A4',
            printBackground: true,
            margin: { top: '16mm', bottom: '18mm', left: '15mm', right: '15mm' },
            displayHeaderFooter: true,
            headerTemplate: '<span></span>',
            footerTemplate: PAGE_FOOTER,
          });
        } catch {
          // The browser crashed or hung mid-print: nothing the caller can fix but retry.
          throw unavailable();
        } finally {
          await context.close().catch(() => {});
        }
      }),

    async close() {
      isClosed = true;
      const current = browser;
      browser = undefined;
      if (current) await (await current.catch(() => undefined))?.close();
    },
  };
}
