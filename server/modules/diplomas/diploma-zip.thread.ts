import { stepAside } from '../../lib/jobs/activity.js';
import { lowerThreadPriority, serveThreadTasks } from '../../lib/jobs/thread.js';
import { loadThreadPdfFonts } from '../../lib/pdf/fonts.js';
import { type DiplomaZipTask, zipDiplomas } from './diploma-zip.js';

// A worker thread's side of diploma-jobs.ts: each task is one ZIP, drawn and assembled here,
// its progress sent every `task.progressEvery` diplomas, the archive written to `task.file`.

// A ZIP is background work: requests and the database go first when the cores are busy.
lowerThreadPriority();

serveThreadTasks<DiplomaZipTask, number, number>(async (task, progress) => ({
  result: await zipDiplomas(
    await loadThreadPdfFonts('diploma'),
    task,
    progress,
    stepAside(task.activity),
  ),
}));
