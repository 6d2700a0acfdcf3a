import { createZipWriter } from '../../lib/files/zip-writer.js';
import type { PdfFonts } from '../../lib/pdf/fonts.js';
import { type DiplomaContent, renderDiploma } from './diploma-pdf.js';

/** One ZIP of diplomas: each file's name in the archive and what it prints. */
export type DiplomaZipTask = {
  /** The archive's entries' date. */
  modified: Date;
  entries: readonly { fileName: string; content: DiplomaContent }[];
  /** Progress is reported after every this many diplomas. */
  progressEvery: number;
  /** When the server last began a request (server/lib/jobs/activity.ts), shared memory. */
  activity: BigInt64Array;
};

/**
 * Draws every diploma of the task into one stored ZIP, in order, calling `progress` with the
 * count drawn so far every `progressEvery` diplomas. Pure CPU: diploma-jobs.ts runs it on a
 * worker thread (diploma-zip.thread.ts).
 */
export function zipDiplomas(
  fonts: PdfFonts,
  task: DiplomaZipTask,
  progress: (done: number) => void,
  afterEach: () => void = () => {},
): Buffer {
  const zip = createZipWriter(task.modified);
  task.entries.forEach(({ fileName, content }, i) => {
    zip.add(fileName, renderDiploma(fonts, content));
    if ((i + 1) % task.progressEvery === 0) progress(i + 1);
    afterEach();
  });
  return zip.finish();
}
