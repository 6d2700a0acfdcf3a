import { msSinceRequest } from '../../lib/jobs/activity.js';
import { lowerThreadPriority, serveThreadTasks } from '../../lib/jobs/thread.js';
import { loadPdfFonts, type PdfFonts } from '../../lib/pdf/fonts.js';
import { type DiplomaZipTask, zipDiplomas } from './diploma-zip.js';

// A worker thread's side of diploma-jobs.ts: each task is one ZIP, drawn and assembled here,
// its progress sent every `task.progressEvery` diplomas, the archive written to `task.file`.

async function fonts(): Promise<PdfFonts> {
  try {
    return await loadPdfFonts();
  } catch {
    // The code the job records (diplomas.service.ts answers the same for one diploma).
    throw Object.assign(new Error('The diploma fonts are missing'), { code: 'PDF_UNAVAILABLE' });
  }
}

// A ZIP is background work: requests and the database go first when the cores are busy.
lowerThreadPriority();

const resting = new Int32Array(new SharedArrayBuffer(4));
/** Requests begun this recently mean the server is serving: the thread steps aside. */
const BUSY_WITHIN_MS = 50;
/** While it is, the thread rests this many times as long as it worked: a tenth of a core. */
const REST_PER_WORK = 9;

/**
 * After each diploma, while the server is serving requests, the thread rests nine times as long
 * as it worked on it; when nobody is asking anything it draws flat out. A lower priority alone
 * did not keep it from slowing exam day's answer writes (p50 twice, p99 six times as long,
 * bench/README.md), as when two cores share one core's execution units: a busy thread then
 * slows its sibling whatever its priority.
 */
function stepAside(activity: BigInt64Array): () => void {
  let since = performance.now();
  return () => {
    if (msSinceRequest(activity) < BUSY_WITHIN_MS) {
      Atomics.wait(resting, 0, 0, REST_PER_WORK * (performance.now() - since));
    }
    since = performance.now();
  };
}

serveThreadTasks<DiplomaZipTask, number, number>(async (task, progress) => ({
  result: await zipDiplomas(await fonts(), task, progress, stepAside(task.activity)),
}));
