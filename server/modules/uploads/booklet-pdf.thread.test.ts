import { afterAll, describe, expect, it } from 'vitest';
import { requestActivity } from '../../lib/jobs/activity.js';
import { createThreadRunner } from '../../lib/jobs/thread.js';
import { loadPdfFonts } from '../../lib/pdf/fonts.js';
import { type BookletContent, renderBooklets } from './booklet-pdf.js';
import type { BookletTask } from './booklet-pdf.thread.js';

const drawing = createThreadRunner<BookletTask, Uint8Array, number>({
  entry: new URL('./booklet-pdf.thread.mjs', import.meta.url),
  idleMs: 1_000,
});
afterAll(() => drawing.close());

const content: BookletContent = {
  testId: '0193a0b2-0000-7000-8000-000000000001',
  examName: 'Olimpiada de Matematică',
  phaseName: 'Etapa județeană',
  testName: 'Clasa a VII-a',
  room: 'Sala 1',
  students: ['Țurcanu Ana', 'Șerban Ion', 'Stan Elena', 'Popa Ștefan', 'Ene Mara'].map(
    (name, i) => ({ name, code: `ABC-00${i}`, room: 'Sala 1', seat: String(i + 1), grade: 7 }),
  ),
  itemCount: 3,
  pagesPerItem: 2,
  sparePages: 2,
};

describe('booklets drawn on their thread', () => {
  it('are the same bytes as drawn here, with their progress', async () => {
    const seen: number[] = [];
    const task = { content, progressEvery: 2, activity: requestActivity };
    const drawn = await drawing.run(task, (done) => seen.push(done));
    const here = await renderBooklets(await loadPdfFonts(), content);
    expect(Buffer.from(drawn).equals(here)).toBe(true);
    expect(seen).toEqual([2, 4]);
  });
});
