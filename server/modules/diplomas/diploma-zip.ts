import { closeSync, fdatasyncSync, fsyncSync, openSync, rmSync, writeSync } from 'node:fs';
import { createZipWriter } from '../../lib/files/zip.js';
import type { PdfFonts } from '../../lib/pdf/fonts.js';
import { type DiplomaContent, renderDiploma } from './diploma-pdf.js';

/** One ZIP of diplomas: each file's name in the archive and what it prints. */
export type DiplomaZipTask = {
  /** The archive's entries' date. */
  modified: Date;
  entries: readonly { fileName: string; content: DiplomaContent }[];
  /** Where the archive is written (a new file; storage.scratchPath). */
  file: string;
  /** Progress is reported after every this many diplomas. */
  progressEvery: number;
  /** When the server last began a request (server/lib/jobs/activity.ts), shared memory. */
  activity: BigInt64Array;
};

/**
 * Written bytes are flushed to the disk every this many. A database commit that comes while a
 * flush is under way waits for it when both are on one disk: a whole archive at the end held
 * exam day's answer writes for tens of ms, a flush of 4 MB takes about 13 ms (their p99 rose
 * 10% while a job ran), one of 256 kB about 2 ms, and with those the rise is the same as with
 * the archive on another volume (bench/README.md, "Diplomas", "Why 256 kB").
 */
const FLUSH_EVERY = 256 * 1024;

/**
 * Draws every diploma of the task into one stored ZIP at `task.file`, in order, calling
 * `progress` with the count drawn so far every `progressEvery` diplomas, and answers the
 * archive's size. The archive goes to the disk as it is drawn (never whole in memory) and is
 * flushed before this returns; a failed one is removed. Pure CPU and blocking writes:
 * diploma-jobs.ts runs it on a worker thread (diploma-zip.thread.ts).
 */
export async function zipDiplomas(
  fonts: PdfFonts,
  task: DiplomaZipTask,
  progress: (done: number) => void,
  afterEach: () => void = () => {},
): Promise<number> {
  const fd = openSync(task.file, 'wx');
  let unflushed = 0;
  const write = (bytes: Buffer) => {
    for (let at = 0; at < bytes.length; ) at += writeSync(fd, bytes, at);
    unflushed += bytes.length;
    if (unflushed >= FLUSH_EVERY) {
      fdatasyncSync(fd);
      unflushed = 0;
    }
  };
  try {
    const zip = createZipWriter(write, task.modified);
    for (const [i, { fileName, content }] of task.entries.entries()) {
      zip.add(fileName, await renderDiploma(fonts, content));
      if ((i + 1) % task.progressEvery === 0) progress(i + 1);
      afterEach();
    }
    const size = zip.finish();
    fsyncSync(fd);
    closeSync(fd);
    return size;
  } catch (error) {
    closeSync(fd);
    rmSync(task.file, { force: true });
    throw error;
  }
}
