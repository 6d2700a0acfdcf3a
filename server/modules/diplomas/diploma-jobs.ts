import { rm, stat } from 'node:fs/promises';
import type { Db } from '../../db/client.js';
import type { Clock } from '../../lib/clock.js';
import { AppError } from '../../lib/errors.js';
import type { FileStorage } from '../../lib/files/storage.js';
import { requestActivity } from '../../lib/jobs/activity.js';
import { type JobLimits, type JobTake, jobRunner, runOnThread } from '../../lib/jobs/runner.js';
import { createThreadRunner } from '../../lib/jobs/thread.js';
import { findPhasePath } from '../exams/index.js';
import {
  contentOf,
  entryFileName,
  newDiplomaCode,
  slug,
  studentFacts,
  teacherFacts,
} from './diploma-content.js';
import type { DiplomaZipTask } from './diploma-zip.js';
import * as repo from './diplomas.repo.js';
import { namesOf, resultsNotFinal } from './diplomas.service.js';

export type DiplomaJobsDeps = { db: Db; clock: Clock; storage: FileStorage };

/** A running job's maker writes its progress (and that it lives) this often, in diplomas. */
const PROGRESS_EVERY = 25;
/** A job not heard of for two minutes is another process's; the third failed take ends it. */
const LIMITS: JobLimits = { staleMs: 120_000, maxTries: 3 };

/** The thread that draws the diplomas (diploma-zip.thread.ts, loaded through its .mjs). */
const THREAD_ENTRY = new URL('./diploma-zip.thread.mjs', import.meta.url);

type Take = JobTake<repo.JobChange>;

/**
 * Makes queued diploma ZIPs, one job at a time per process, by the job runner
 * (server/lib/jobs/runner.ts). The database work (who gets a diploma, their codes, the
 * progress) stays here; the drawing and the archive are done on a worker thread, so the API's
 * event loop is not held by a thousand PDFs and a second core does them.
 */
export function diplomaJobs({ db, clock, storage }: DiplomaJobsDeps) {
  const drawing = createThreadRunner<DiplomaZipTask, number, number>({
    entry: THREAD_ENTRY,
  });

  async function make(job: repo.JobRow, take: Take): Promise<void> {
    const path = await findPhasePath(db, job.examId, job.editionId, job.phaseId);
    if (!path) throw new AppError('NOT_FOUND', 'phase not found');
    if (path.phase.state !== 'closed') throw resultsNotFinal();
    const names = namesOf(path);
    const entries = await repo.findEntries(
      db,
      path.phase.id,
      path.edition.id,
      job.teacherId ? { teacherId: job.teacherId } : 'all',
    );
    const teacherIds = job.teacherId
      ? [job.teacherId]
      : [...new Set(entries.map((e) => e.teacherRef).filter((id): id is string => id !== null))];
    const teachers = await repo.findTeachers(db, teacherIds);
    const studentsOf = new Map(
      teachers.map((t) => [t.id, entries.filter((e) => e.teacherRef === t.id)]),
    );
    const teachersWithStudents = teachers.filter((t) => (studentsOf.get(t.id) ?? []).length > 0);
    const facts = [
      ...entries.map((e) => studentFacts(names, e)),
      ...teachersWithStudents.map((t) => teacherFacts(names, t, studentsOf.get(t.id) ?? [])),
    ];
    const total = facts.length;
    await take.progress({ total, done: 0 });
    const issued = await repo.issue(db, facts, newDiplomaCode, clock.now());
    const usedNames = new Set<string>();
    const files = issued.map((row) => {
      const students = row.kind === 'teacher' ? (studentsOf.get(row.userId) ?? []) : [];
      const folder = row.kind === 'teacher' ? 'profesori/' : '';
      let fileName = `${folder}${entryFileName(row.name, row.code)}`;
      if (usedNames.has(fileName)) fileName = `${folder}${row.code}.pdf`;
      usedNames.add(fileName);
      return { fileName, content: contentOf(row, job.origin, students) };
    });
    // The archive never passes through this thread: written to the disk on the drawing
    // thread, then moved into storage (a rename for the local directory). Held here whole, its
    // 65 MB set off the collector and delayed requests by tens of ms (bench/README.md).
    const file = await storage.scratchPath();
    try {
      await runOnThread(
        drawing,
        {
          modified: clock.now(),
          entries: files,
          file,
          progressEvery: PROGRESS_EVERY,
          activity: requestActivity,
        },
        take,
      );
    } catch (error) {
      // What a failed drawing (or a thread that died) left of the archive.
      await rm(file, { force: true });
      throw error;
    }
    // A file per take: a maker that lost its job to another process never overwrites the
    // other's archive, and removes its own.
    const key = `diploma-jobs/${job.id}-${job.tries}.zip`;
    const { size } = await stat(file);
    await storage.putFile(key, file, 'application/zip');
    const teacher = job.teacherId ? teachers.find((t) => t.id === job.teacherId) : undefined;
    const who = teacher ? `-${slug(`${teacher.familyName ?? ''} ${teacher.givenName ?? ''}`)}` : '';
    const kept = await take.finish({
      done: total,
      fileKey: key,
      fileBytes: size,
      fileName: `diplome-${slug(path.phase.name)}${who}.zip`,
    });
    if (!kept) await storage.delete(key).catch(() => undefined);
  }

  const runner = jobRunner(clock, { store: repo.jobs(db), limits: LIMITS, make });

  return {
    runPending: runner.runPending,

    /** Ends the drawing thread (the server is stopping). */
    close: () => drawing.close(),
  };
}

export type DiplomaJobs = ReturnType<typeof diplomaJobs>;
