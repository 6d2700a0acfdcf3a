import { type Browser, chromium } from 'playwright-core';
import { AppError } from '../../lib/errors.js';

/**
 * Prints HTML to PDF. The app wraps Chromium's printer in paper-printer.ts, which limits how
 * many print at once and prints each distinct paper once.
 */
export type PdfPrinter = {
  print(html: string): Promise<Buffer>;
  close(): Promise<void>;
};

export type PdfPrinterOptions = {
  /** The system Chromium (config `chromiumPath`). */
  executablePath: string;
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
 * Every call prints: how many print at once is up to the caller (paper-printer.ts).
 */
export function createPdfPrinter(options: PdfPrinterOptions): PdfPrinter {
  let browser: Promise<Browser> | undefined;
  let isClosed = false;

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

  return {
    async print(html) {
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
    },

    async close() {
      isClosed = true;
      const current = browser;
      browser = undefined;
      if (current) await (await current.catch(() => undefined))?.close();
    },
  };
}
