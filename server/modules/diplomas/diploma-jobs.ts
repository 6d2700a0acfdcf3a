import { rm, stat } from 'node:fs/promises';
import { ERROR_STATUS, type ErrorCode } from '../../../shared/errors.js';
import type { Db } from '../../db/client.js';
import type { Clock } from '../../lib/clock.js';
import { AppError } from '../../lib/errors.js';
import type { FileStorage } from '../../lib/files/storage.js';
import { requestActivity } from '../../lib/jobs/activity.js';
import { createThreadRunner, ThreadTaskError } from '../../lib/jobs/thread.js';
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
/** A running job not heard of for this long is taken over by another process. */
const STALE_MS = 120_000;
/** A job that failed this many takes is given up. */
const MAX_TRIES = 3;

/** The thread that draws the diplomas (diploma-zip.thread.ts, loaded through its .mjs). */
const THREAD_ENTRY = new URL('./diploma-zip.thread.mjs', import.meta.url);

const isErrorCode = (code: string | undefined): code is ErrorCode =>
  code !== undefined && Object.hasOwn(ERROR_STATUS, code);

/**
 * Makes queued diploma ZIPs, one job at a time per process. The database work (who gets a
 * diploma, their codes, the progress) stays here; the drawing and the archive are done on a
 * worker thread, so the API's event loop is not held by a thousand PDFs and a second core
 * does them. Jobs are claimed in the database (claimJob's SKIP LOCKED), so with several
 * server processes each job is made by one of them.
 */
export function diplomaJobs({ db, clock, storage }: DiplomaJobsDeps) {
  const drawing = createThreadRunner<DiplomaZipTask, number, number>({
    entry: THREAD_ENTRY,
  });

  /**
   * The ZIP drawn on the thread into `task.file`, its progress written as it comes (one write
   * at a time).
   */
  async function draw(job: repo.JobRow, task: DiplomaZipTask): Promise<void> {
    let writing: Promise<void> = Promise.resolve();
    let written = 0;
    let writeFailed: unknown;
    const onProgress = (done: number) => {
      writing = writing
        .then(async () => {
          if (done <= written || writeFailed !== undefined) return;
          written = done;
          await repo.updateJob(db, job.id, { done, heartbeatAt: clock.now() }, job.tries);
        })
        .catch((error: unknown) => {
          writeFailed ??= error;
        });
    };
    try {
      await drawing.run(task, onProgress);
    } catch (error) {
      if (error instanceof ThreadTaskError && isErrorCode(error.code)) {
        throw new AppError(error.code, error.message);
      }
      throw error;
    } finally {
      await writing;
    }
    if (writeFailed !== undefined) throw writeFailed;
  }

  async function make(job: repo.JobRow): Promise<void> {
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
    await repo.updateJob(db, job.id, { total, done: 0, heartbeatAt: clock.now() }, job.tries);
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
      await draw(job, {
        modified: clock.now(),
        entries: files,
        file,
        progressEvery: PROGRESS_EVERY,
        activity: requestActivity,
      });
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
    const kept = await repo.updateJob(
      db,
      job.id,
      {
        state: 'done',
        done: total,
        fileKey: key,
        fileBytes: size,
        fileName: `diplome-${slug(path.phase.name)}${who}.zip`,
        finishedAt: clock.now(),
        heartbeatAt: clock.now(),
      },
      job.tries,
    );
    if (!kept) await storage.delete(key).catch(() => undefined);
  }

  return {
    /** Makes every waiting job, one after another; answers how many it took. */
    async runPending(): Promise<number> {
      let taken = 0;
      for (;;) {
        const now = clock.now();
        const job = await repo.claimJob(db, now, new Date(now.getTime() - STALE_MS));
        if (!job) return taken;
        taken += 1;
        if (job.tries > MAX_TRIES) {
          await repo.updateJob(db, job.id, {
            state: 'failed',
            errorCode: 'GENERAL_ERROR',
            finishedAt: clock.now(),
          });
          continue;
        }
        try {
          await make(job);
        } catch (error) {
          const code = error instanceof AppError ? error.code : 'GENERAL_ERROR';
          await repo.updateJob(
            db,
            job.id,
            { state: 'failed', errorCode: code, finishedAt: clock.now() },
            job.tries,
          );
          if (!(error instanceof AppError)) throw error;
        }
      }
    },

    /** Ends the drawing thread (the server is stopping). */
    close: () => drawing.close(),
  };
}

export type DiplomaJobs = ReturnType<typeof diplomaJobs>;
