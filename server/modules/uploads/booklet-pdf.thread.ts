import { stepAside } from '../../lib/jobs/activity.js';
import { lowerThreadPriority, serveThreadTasks } from '../../lib/jobs/thread.js';
import { loadThreadPdfFonts } from '../../lib/pdf/fonts.js';
import { type BookletContent, renderBooklets } from './booklet-pdf.js';

// A worker thread's side of paper-jobs.ts: each task is one PDF of booklets, drawn here so the
// server's event loop keeps answering exam day's requests meanwhile; its progress is sent every
// `task.progressEvery` booklets and the PDF's bytes are moved back, not copied.

export type BookletTask = {
  content: BookletContent;
  progressEvery: number;
  /** When the server last began a request (server/lib/jobs/activity.ts), shared memory. */
  activity: BigInt64Array;
};

// Booklets are background work: requests and the database go first when the cores are busy.
lowerThreadPriority();

serveThreadTasks<BookletTask, Uint8Array, number>(async (task, progress) => {
  const rest = stepAside(task.activity);
  const pdf = await renderBooklets(await loadThreadPdfFonts('booklet'), task.content, (done) => {
    if (done % task.progressEvery === 0) progress(done);
    rest();
  });
  // A buffer of its own, whole, to move (the writer's may share a larger one).
  const bytes = new Uint8Array(pdf);
  return { result: bytes, transfer: [bytes.buffer] };
});
