import { lowerThreadPriority, serveThreadTasks } from '../../lib/jobs/thread.js';
import { readScanPage } from './scan-read.js';

// A worker thread's side of paper-jobs.ts: each task is one scanned page, read (its QR code),
// straightened and written again here, so the server's event loop never decodes an image.

export type ScanReadTask = { image: Uint8Array };
export type ScanReadResult = { text: string | null; page: Uint8Array };

// Reading a scan is background work: requests and the database go first.
lowerThreadPriority();

serveThreadTasks<ScanReadTask, ScanReadResult>(async (task) => {
  const read = await readScanPage(
    Buffer.from(task.image.buffer, task.image.byteOffset, task.image.byteLength),
  );
  const page = new Uint8Array(read.page);
  return { result: { text: read.text, page }, transfer: [page.buffer] };
});
