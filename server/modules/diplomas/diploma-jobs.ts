import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Db } from '../../db/client.js';
import type { Clock } from '../../lib/clock.js';
import { AppError } from '../../lib/errors.js';
import type { FileStorage } from '../../lib/files/storage.js';
import { createZipWriter } from '../../lib/files/zip-writer.js';
import { findPhasePath } from '../exams/index.js';
import {
  contentOf,
  entryFileName,
  newDiplomaCode,
  slug,
  studentFacts,
  teacherFacts,
} from './diploma-content.js';
import { renderDiploma } from './diploma-pdf.js';
import * as repo from './diplomas.repo.js';
import { diplomaFonts, namesOf, resultsNotFinal } from './diplomas.service.js';

export type DiplomaJobsDeps = { db: Db; clock: Clock; storage: FileStorage };

/** A running job's maker writes its progress (and that it lives) this often, in diplomas. */
const PROGRESS_EVERY = 25;
/** A running job not heard of for this long is taken over by another process. */
const STALE_MS = 120_000;
/** A job that failed this many takes is given up. */
const MAX_TRIES = 3;

/**
 * Makes queued diploma ZIPs, one job at a time per process. Each diploma is drawn in its own
 * turn of the event loop, so requests arriving meanwhile wait for at most one diploma (a few
 * milliseconds), not for the whole ZIP.
 */
export function diplomaJobs({ db, clock, storage }: DiplomaJobsDeps) {
  async function make(job: repo.JobRow): Promise<void> {
    const path = await findPhasePath(db, job.examId, job.editionId, job.phaseId);
    if (!path) throw new AppError('NOT_FOUND', 'phase not found');
    if (path.phase.state !== 'closed') throw resultsNotFinal();
    const fonts = await diplomaFonts();
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
    await repo.updateJob(db, job.id, { total, done: 0, heartbeatAt: clock.now() });
    const issued = await repo.issue(db, facts, newDiplomaCode, clock.now());
    const zip = createZipWriter(clock.now());
    const usedNames = new Set<string>();
    for (let i = 0; i < issued.length; i += 1) {
      const row = issued[i];
      if (!row) continue;
      const students = row.kind === 'teacher' ? (studentsOf.get(row.userId) ?? []) : [];
      const pdf = renderDiploma(fonts, contentOf(row, job.origin, students));
      const folder = row.kind === 'teacher' ? 'profesori/' : '';
      let name = `${folder}${entryFileName(row.name, row.code)}`;
      if (usedNames.has(name)) name = `${folder}${row.code}.pdf`;
      usedNames.add(name);
      zip.add(name, pdf);
      if ((i + 1) % PROGRESS_EVERY === 0) {
        await repo.updateJob(db, job.id, { done: i + 1, heartbeatAt: clock.now() });
      }
      await nextTurn();
    }
    const key = `diploma-jobs/${job.id}.zip`;
    await storage.put(key, zip.finish(), 'application/zip');
    const teacher = job.teacherId ? teachers.find((t) => t.id === job.teacherId) : undefined;
    const who = teacher ? `-${slug(`${teacher.familyName ?? ''} ${teacher.givenName ?? ''}`)}` : '';
    await repo.updateJob(db, job.id, {
      state: 'done',
      done: total,
      fileKey: key,
      fileName: `diplome-${slug(path.phase.name)}${who}.zip`,
      finishedAt: clock.now(),
      heartbeatAt: clock.now(),
    });
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
          await repo.updateJob(db, job.id, {
            state: 'failed',
            errorCode: code,
            finishedAt: clock.now(),
          });
          if (!(error instanceof AppError)) throw error;
        }
      }
    },
  };
}

export type DiplomaJobs = ReturnType<typeof diplomaJobs>;
