import { createHash } from 'node:crypto';
import { AppError } from '../../lib/errors.js';
import type { PdfPrinter } from './pdf.js';

export type PaperPrinterLimits = {
  /** Papers Chromium prints at once. */
  printsAtOnce: number;
  /** Papers that may wait for a free print; one more is refused with PDF_BUSY. */
  printsWaiting: number;
  /** Bytes of printed PDFs kept; the least recently downloaded go first. */
  cacheBytes: number;
  /** Printed PDFs kept at most, whatever their size (default 200). */
  cacheEntries?: number;
};

/** How long a refused download is told to wait before trying again (Retry-After). */
export const PDF_BUSY_RETRY_SECONDS = 10;

const busy = () =>
  new AppError('PDF_BUSY', 'Too many papers are being printed; try again shortly', {
    retryAfter: PDF_BUSY_RETRY_SECONDS,
  });

/**
 * The printer the test-mgmt module prints papers with: each distinct paper is printed once.
 *
 * A PDF is kept under the SHA-256 of the HTML it was printed from, so a test whose name,
 * items, points, statements, figures or competition names change renders other HTML and is
 * printed again: nothing has to be invalidated by hand, and a stale paper cannot be handed
 * out. Staff pressing download on the same paper together share one print; a failed print is
 * not kept, so the next download tries again.
 *
 * Chromium runs `printsAtOnce` prints; `printsWaiting` more wait their turn; beyond that a
 * download is refused at once with 503 PDF_BUSY (`retryAfter` seconds) instead of piling up
 * work nobody will wait for.
 */
export function paperPrinter(printer: PdfPrinter, limits: PaperPrinterLimits): PdfPrinter {
  const maxEntries = limits.cacheEntries ?? 200;
  const kept = new Map<string, Buffer>();
  let keptBytes = 0;
  const printing = new Map<string, Promise<Buffer>>();
  let running = 0;
  const waiting: (() => void)[] = [];

  function keep(key: string, pdf: Buffer) {
    if (pdf.length > limits.cacheBytes || maxEntries < 1) return;
    kept.set(key, pdf);
    keptBytes += pdf.length;
    // A Map iterates in insertion order and a hit is moved to the end: the first is the oldest.
    for (const [oldKey, old] of kept) {
      if (keptBytes <= limits.cacheBytes && kept.size <= maxEntries) break;
      kept.delete(oldKey);
      keptBytes -= old.length;
    }
  }

  /** Runs `work` in a print slot, waiting for one if the queue has room (else PDF_BUSY). */
  async function inSlot(work: () => Promise<Buffer>): Promise<Buffer> {
    if (running >= limits.printsAtOnce) {
      if (waiting.length >= limits.printsWaiting) throw busy();
      await new Promise<void>((resolve) => waiting.push(resolve));
    } else {
      running += 1;
    }
    try {
      return await work();
    } finally {
      // A finished print hands its slot to the next in line.
      const next = waiting.shift();
      if (next) next();
      else running -= 1;
    }
  }

  return {
    print(html) {
      const key = createHash('sha256').update(html).digest('hex');
      const hit = kept.get(key);
      if (hit) {
        kept.delete(key);
        kept.set(key, hit);
        return Promise.resolve(hit);
      }
      const already = printing.get(key);
      if (already) return already;
      const started = inSlot(() => printer.print(html))
        .then((pdf) => {
          keep(key, pdf);
          return pdf;
        })
        .finally(() => printing.delete(key));
      printing.set(key, started);
      return started;
    },
    close: () => printer.close(),
  };
}
