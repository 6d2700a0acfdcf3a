// A worker thread for thread.test.ts: counts with progress, fails with a code, or dies.
import { threadId } from 'node:worker_threads';
import { tsImport } from 'tsx/esm/api';

const { serveThreadTasks } = await tsImport('./thread.ts', import.meta.url);

serveThreadTasks(async (task, progress) => {
  if (task.kind === 'fail') {
    throw Object.assign(new Error('no fonts here'), { code: 'PDF_UNAVAILABLE' });
  }
  if (task.kind === 'die') process.exit(3);
  const bytes = new Uint8Array(task.n);
  for (let i = 1; i <= task.n; i += 1) {
    bytes[i - 1] = i;
    progress(i);
  }
  return { result: { threadId, bytes }, transfer: [bytes.buffer] };
});
