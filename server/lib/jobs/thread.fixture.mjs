// A worker thread for thread.test.ts: counts with progress, fails with a code, or dies.
import { readlinkSync } from 'node:fs';
import { getPriority } from 'node:os';
import { threadId } from 'node:worker_threads';
import { tsImport } from 'tsx/esm/api';

const { lowerThreadPriority, serveThreadTasks } = await tsImport('./thread.ts', import.meta.url);

lowerThreadPriority(7);

serveThreadTasks(async (task, progress) => {
  if (task.kind === 'fail') {
    throw Object.assign(new Error('no fonts here'), { code: 'PDF_UNAVAILABLE' });
  }
  if (task.kind === 'die') process.exit(3);
  if (task.kind === 'priority') {
    let tid = 0;
    try {
      tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    } catch {
      return { result: { threadId, bytes: new Uint8Array(), nice: null } };
    }
    return {
      result: {
        threadId,
        bytes: new Uint8Array(),
        nice: getPriority(tid),
        process: getPriority(process.pid),
      },
    };
  }
  const bytes = new Uint8Array(task.n);
  for (let i = 1; i <= task.n; i += 1) {
    bytes[i - 1] = i;
    progress(i);
  }
  return { result: { threadId, bytes }, transfer: [bytes.buffer] };
});
