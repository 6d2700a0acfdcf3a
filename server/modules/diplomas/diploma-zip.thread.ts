import { lowerThreadPriority, serveThreadTasks } from '../../lib/jobs/thread.js';
import { loadPdfFonts, type PdfFonts } from '../../lib/pdf/fonts.js';
import { type DiplomaZipTask, zipDiplomas } from './diploma-zip.js';

// A worker thread's side of diploma-jobs.ts: each task is one ZIP, drawn and assembled here,
// its progress sent every `task.progressEvery` diplomas, the archive moved back (not copied).

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

/**
 * After each diploma the thread rests as long as it worked on it, so it takes half a core at
 * most: on a machine whose cores share their execution units, a lower priority alone does not
 * keep a busy thread from slowing exam day's requests on the sibling core.
 */
function halfTime(): () => void {
  let since = performance.now();
  return () => {
    Atomics.wait(resting, 0, 0, performance.now() - since);
    since = performance.now();
  };
}

serveThreadTasks<DiplomaZipTask, Uint8Array, number>(async (task, progress) => {
  const zip = zipDiplomas(await fonts(), task, progress, halfTime());
  const whole = zip.byteOffset === 0 && zip.byteLength === zip.buffer.byteLength;
  return { result: zip, transfer: whole ? [zip.buffer as ArrayBuffer] : [] };
});
