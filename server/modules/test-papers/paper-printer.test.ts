import { describe, expect, it } from 'vitest';
import { AppError } from '../../lib/errors.js';
import { paperPrinter } from './paper-printer.js';
import type { PdfPrinter } from './pdf.js';

/** A printer whose PDF is `size` bytes of the HTML's first letter; it counts its prints. */
function fakePrinter(size = 10) {
  const prints: string[] = [];
  let failNext = false;
  const printer: PdfPrinter = {
    async print(html) {
      prints.push(html);
      if (failNext) {
        failNext = false;
        throw new AppError('PDF_UNAVAILABLE');
      }
      return Buffer.alloc(size, html.slice(0, 1));
    },
    async close() {},
  };
  const failOnce = () => {
    failNext = true;
  };
  return { printer, prints, failOnce };
}

const limits = { printsAtOnce: 2, printsWaiting: 2, cacheBytes: 30, cacheEntries: 10 };

describe('paperPrinter', () => {
  it('keeps papers up to its bytes, dropping the least recently sent first', async () => {
    const fake = fakePrinter(10);
    const papers = paperPrinter(fake.printer, limits);
    for (const html of ['a', 'b', 'c']) await papers.print(html);
    await papers.print('a'); // 'a' is now the most recent; 'b' the oldest.
    await papers.print('d'); // 40 bytes: 'b' goes.
    expect(fake.prints).toEqual(['a', 'b', 'c', 'd']);
    for (const html of ['a', 'c', 'd']) await papers.print(html);
    expect(fake.prints).toHaveLength(4);
    await papers.print('b');
    expect(fake.prints).toEqual(['a', 'b', 'c', 'd', 'b']);
  });

  it('keeps no paper larger than all it may keep, and at most its number of entries', async () => {
    const big = fakePrinter(31);
    const papers = paperPrinter(big.printer, limits);
    await papers.print('x');
    await papers.print('x');
    expect(big.prints).toEqual(['x', 'x']);

    const small = fakePrinter(1);
    const few = paperPrinter(small.printer, { ...limits, cacheEntries: 2 });
    for (const html of ['a', 'b', 'c', 'a']) await few.print(html);
    expect(small.prints).toEqual(['a', 'b', 'c', 'a']);
  });

  it('keeps no failed print: the next download tries again', async () => {
    const fake = fakePrinter();
    const papers = paperPrinter(fake.printer, limits);
    fake.failOnce();
    await expect(papers.print('a')).rejects.toMatchObject({ code: 'PDF_UNAVAILABLE' });
    expect((await papers.print('a')).length).toBe(10);
    await papers.print('a');
    expect(fake.prints).toEqual(['a', 'a']);
  });
});
