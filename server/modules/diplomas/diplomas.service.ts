import type { Readable } from 'node:stream';
import {
  DIPLOMA_JOB_KEEP_HOURS,
  type DiplomaJob,
  type DiplomaJobRequest,
  type DiplomaPhaseQuery,
  type DiplomaReissued,
  type DiplomaReissueRequest,
  type DiplomaRequest,
  type DiplomaVerification,
  type MyDiploma,
  type StaleDiploma,
} from '../../../shared/schemas/diplomas.js';
import type { Db } from '../../db/client.js';
import { appendAudit } from '../../lib/audit.js';
import type { Actor } from '../../lib/auth-guard.js';
import type { Clock } from '../../lib/clock.js';
import { AppError, forbidden, notFound } from '../../lib/errors.js';
import type { FileStorage } from '../../lib/files/storage.js';
import { uuidv7 } from '../../lib/ids.js';
import { loadPdfFonts, type PdfFonts } from '../../lib/pdf/fonts.js';
import { findPhasePath, loadExamAccess, seesWholeExam } from '../exams/index.js';
import {
  canonicalCode,
  contentOf,
  newDiplomaCode,
  type PhaseNames,
  printedCode,
  studentFacts,
  teacherFacts,
} from './diploma-content.js';
import { renderDiploma } from './diploma-pdf.js';
import { canDownloadDiploma, canMakeDiplomaZip } from './diplomas.policy.js';
import * as repo from './diplomas.repo.js';

export type DiplomasDeps = {
  db: Db;
  clock: Clock;
  storage: FileStorage;
  /** The kept archives of diploma jobs, together, at most (DIPLOMA_JOBS_MAX_MB). */
  maxArchiveBytes: number;
};

const JOBS_LISTED = 20;
const KEEP_MS = DIPLOMA_JOB_KEEP_HOURS * 3_600_000;

export const resultsNotFinal = () =>
  new AppError('RESULTS_NOT_FINAL', 'Results become final when the phase is closed');

/** The fonts, or PDF_UNAVAILABLE (503) when their files cannot be read. */
export async function diplomaFonts(): Promise<PdfFonts> {
  try {
    return await loadPdfFonts();
  } catch {
    throw new AppError('PDF_UNAVAILABLE', 'The diploma fonts are missing');
  }
}

type PhasePath = NonNullable<Awaited<ReturnType<typeof findPhasePath>>>;

export const namesOf = (path: PhasePath): PhaseNames => ({
  phaseId: path.phase.id,
  examName: path.exam.name,
  editionName: path.edition.name,
  phaseName: path.phase.name,
});

function toJob(row: repo.JobRow): DiplomaJob {
  return {
    _id: row.id,
    examId: row.examId,
    editionId: row.editionId,
    phaseId: row.phaseId,
    teacherId: row.teacherId,
    state: row.state,
    total: row.total,
    done: row.done,
    fileName: row.fileName,
    errorCode: row.errorCode,
    createdAt: row.createdAt.toISOString(),
    finishedAt: row.finishedAt?.toISOString() ?? null,
  };
}

export function diplomasService({ db, clock, storage, maxArchiveBytes }: DiplomasDeps) {
  /** The running job when it is what was asked for again; else the request is refused. */
  function sameJobOrRefuse(running: repo.JobRow, teacherId: string | null): DiplomaJob {
    if (running.teacherId === teacherId) return toJob(running);
    throw new AppError(
      'JOB_ALREADY_RUNNING',
      'Another diploma archive of this phase is still being made',
      { jobId: running.id },
    );
  }

  /** Expired archives go first; if the kept ones still fill the cap, a new job must wait. */
  async function requireArchiveRoom(): Promise<void> {
    let kept = await repo.keptArchives(db);
    if (kept.bytes < maxArchiveBytes) return;
    await removeExpiredFiles();
    kept = await repo.keptArchives(db);
    if (kept.bytes < maxArchiveBytes) return;
    // The oldest kept archive expires DIPLOMA_JOB_KEEP_HOURS after it was made.
    const expiresAt = (kept.oldest?.getTime() ?? 0) + KEEP_MS;
    const retryAfter = Math.max(60, Math.ceil((expiresAt - clock.now().getTime()) / 1000));
    throw new AppError('DIPLOMA_JOBS_STORAGE_FULL', 'The diploma archives fill their space', {
      retryAfter,
    });
  }

  /** Deletes ZIPs kept longer than DIPLOMA_JOB_KEEP_HOURS. */
  async function removeExpiredFiles(): Promise<number> {
    const before = new Date(clock.now().getTime() - KEEP_MS);
    const expired = await repo.findExpiredFiles(db, before);
    for (const job of expired) {
      if (job.fileKey) await storage.delete(job.fileKey).catch(() => undefined);
      await repo.updateJob(db, job.id, { fileKey: null, fileBytes: null });
    }
    return expired.length;
  }

  async function requirePath(ids: { examId: string; editionId: string; phaseId: string }) {
    const path = await findPhasePath(db, ids.examId, ids.editionId, ids.phaseId);
    if (!path) throw notFound('phase');
    return path;
  }

  return {
    /**
     * One person's diploma of a phase as a PDF (a student's, or a teacher's listing their
     * students), recorded with its verification code. 404 outside the phase or without a
     * result, 403 without the right, 409 until the phase is closed.
     */
    async download(
      actor: Actor,
      request: DiplomaRequest,
      origin: string,
    ): Promise<{ pdf: Buffer; fileName: string }> {
      const path = await requirePath(request);
      const person = await repo.findPerson(db, request.userId);
      if (!person) throw notFound('user');
      const access = await loadExamAccess(db, actor, path.exam.id);
      if (!canDownloadDiploma(actor, access, person)) throw forbidden();
      if (path.phase.state !== 'closed') throw resultsNotFinal();
      const fonts = await diplomaFonts();
      const names = namesOf(path);
      if (person.type === 'student') {
        const [entry] = await repo.findEntries(db, path.phase.id, path.edition.id, {
          studentIds: [person.id],
        });
        if (!entry) throw notFound('result');
        const [issued] = await repo.issue(
          db,
          [studentFacts(names, entry)],
          newDiplomaCode,
          clock.now(),
        );
        if (!issued) throw notFound('result');
        return {
          pdf: await renderDiploma(fonts, contentOf(issued, origin)),
          fileName: `diploma-${printedCode(issued.code)}.pdf`,
        };
      }
      if (person.type !== 'teacher') throw notFound('result');
      const students = await repo.findEntries(db, path.phase.id, path.edition.id, {
        teacherId: person.id,
      });
      if (students.length === 0) throw notFound('result');
      const [issued] = await repo.issue(
        db,
        [teacherFacts(names, person, students)],
        newDiplomaCode,
        clock.now(),
      );
      if (!issued) throw notFound('result');
      return {
        pdf: await renderDiploma(fonts, contentOf(issued, origin, students)),
        fileName: `diploma-${printedCode(issued.code)}.pdf`,
      };
    },

    /**
     * The caller's diplomas (a student's own; a teacher's own and their students'), newest
     * phase first; `available` once the phase is closed.
     */
    async myDiplomas(actor: Actor): Promise<MyDiploma[]> {
      if (actor.type === 'admin') return [];
      const rows = await repo.findResultsOf(
        db,
        actor.type === 'student' ? { studentId: actor.id } : { teacherId: actor.id },
      );
      const base = (r: repo.MyDiplomaRow) => ({
        examId: r.examId,
        examName: r.examName,
        editionId: r.editionId,
        editionName: r.editionName,
        phaseId: r.phaseId,
        phaseName: r.phaseName,
        available: r.phaseState === 'closed',
      });
      const out: MyDiploma[] = [];
      const ownPhases = new Set<string>();
      for (const r of rows) {
        if (actor.type === 'teacher' && !ownPhases.has(r.phaseId)) {
          ownPhases.add(r.phaseId);
          const me = await repo.findPerson(db, actor.id);
          out.push({
            ...base(r),
            userId: actor.id,
            familyName: me?.familyName ?? null,
            givenName: me?.givenName ?? null,
            kind: 'teacher',
            grade: null,
            prize: null,
          });
        }
        out.push({
          ...base(r),
          userId: r.userId,
          familyName: r.familyName,
          givenName: r.givenName,
          kind: 'student',
          grade: r.grade,
          prize: r.prize,
        });
      }
      return out;
    },

    /**
     * What a diploma printed, found by its code: the facts stored when it was first printed,
     * never the profile as it is now; once the holder was anonymised, the diploma without
     * anything about them. 404 for an unknown or malformed code.
     */
    async verify(typed: string): Promise<DiplomaVerification> {
      const code = canonicalCode(typed);
      const issued = code ? await repo.findIssued(db, code) : undefined;
      if (!issued) throw notFound('diploma');
      const student = issued.kind === 'student';
      const named = issued.anonymisedAt === null;
      return {
        code: printedCode(issued.code),
        kind: issued.kind,
        name: named ? issued.name : null,
        examName: issued.examName,
        editionName: issued.editionName,
        phaseName: issued.phaseName,
        grade: student && named ? issued.grade : null,
        school: student && named ? issued.school : null,
        prize: student ? issued.prize : null,
        studentCount: issued.kind === 'teacher' ? issued.studentCount : null,
        issuedAt: issued.issuedAt.toISOString(),
        replacedAt: issued.replacedAt?.toISOString() ?? null,
        anonymised: !named,
      };
    },

    /**
     * The phase's diplomas in force flagged out of date: printed before the phase, reopened,
     * closed again with a changed result for the student (theirs, or a teacher's listing them).
     * The competition's admins and staff; 403 otherwise.
     */
    async listStale(actor: Actor, query: DiplomaPhaseQuery): Promise<StaleDiploma[]> {
      const path = await requirePath(query);
      const access = await loadExamAccess(db, actor, path.exam.id);
      if (!seesWholeExam(access)) throw forbidden();
      const rows = await repo.findStale(db, path.phase.id);
      return rows.map((r) => ({
        code: printedCode(r.code),
        userId: r.userId,
        kind: r.kind,
        name: r.name,
        prize: r.prize,
        issuedAt: r.issuedAt.toISOString(),
        staleAt: (r.staleAt ?? r.updatedAt).toISOString(),
      }));
    },

    /**
     * Replaces a person's out-of-date diploma of a closed phase by a new one printing today's
     * results (new code and date), audited; the old one stays recorded as printed, stamped
     * replaced. 409 DIPLOMA_NOT_STALE for a diploma in force that is not out of date, 404 when
     * the person has none in the phase (or no result any more), 403 as `listStale`.
     */
    async reissue(actor: Actor, request: DiplomaReissueRequest): Promise<DiplomaReissued> {
      const path = await requirePath(request);
      const access = await loadExamAccess(db, actor, path.exam.id);
      if (!seesWholeExam(access)) throw forbidden();
      if (path.phase.state !== 'closed') throw resultsNotFinal();
      const names = namesOf(path);
      return db.transaction(async (tx) => {
        const old = await repo.lockInForce(tx, path.phase.id, request.userId);
        if (!old) throw notFound('diploma');
        if (!old.staleAt) {
          throw new AppError('DIPLOMA_NOT_STALE', 'The result this diploma printed is unchanged');
        }
        let facts: repo.DiplomaFacts;
        if (old.kind === 'student') {
          const [entry] = await repo.findEntries(tx, path.phase.id, path.edition.id, {
            studentIds: [request.userId],
          });
          if (!entry) throw notFound('result');
          facts = studentFacts(names, entry);
        } else {
          const [teacher] = await repo.findTeachers(tx, [request.userId]);
          const students = await repo.findEntries(tx, path.phase.id, path.edition.id, {
            teacherId: request.userId,
          });
          if (!teacher || students.length === 0) throw notFound('result');
          facts = teacherFacts(names, teacher, students);
        }
        const now = clock.now();
        const fresh = await repo.replace(tx, old, facts, newDiplomaCode(), now);
        await appendAudit(tx, {
          actorId: actor.id,
          action: 'diploma.reissue',
          entityType: 'diploma',
          entityId: fresh.code,
          before: { code: old.code, prize: old.prize, issuedAt: old.issuedAt },
          after: { code: fresh.code, prize: fresh.prize, replaces: old.code },
        });
        return {
          code: printedCode(fresh.code),
          replaces: printedCode(old.code),
          userId: fresh.userId,
          kind: fresh.kind,
          prize: fresh.prize,
          issuedAt: fresh.issuedAt.toISOString(),
        };
      });
    },

    /**
     * Queues a ZIP of a phase's diplomas (or one teacher's and their students'); the job is
     * made in the background (diploma-jobs.ts) and polled. A person has one job per phase
     * waiting or running: the same request meanwhile gets that job (`isNew` false), another
     * one 409 JOB_ALREADY_RUNNING. While the kept archives fill DIPLOMA_JOBS_MAX_MB (once
     * expired ones are removed), 503 DIPLOMA_JOBS_STORAGE_FULL with the wait.
     */
    async createJob(
      actor: Actor,
      request: DiplomaJobRequest,
      origin: string,
    ): Promise<{ job: DiplomaJob; isNew: boolean }> {
      const path = await requirePath(request);
      const access = await loadExamAccess(db, actor, path.exam.id);
      if (!canMakeDiplomaZip(actor, access, request.teacherId)) throw forbidden();
      if (path.phase.state !== 'closed') throw resultsNotFinal();
      let teacherId: string | null = null;
      if (request.teacherId) {
        const teacher = await repo.findPerson(db, request.teacherId);
        if (teacher?.type !== 'teacher') throw notFound('teacher');
        teacherId = teacher.id;
      }
      const entries = await repo.findEntries(
        db,
        path.phase.id,
        path.edition.id,
        teacherId ? { teacherId } : 'all',
      );
      if (entries.length === 0) throw notFound('result');
      const teacherRefs = entries
        .map((e) => e.teacherRef)
        .filter((id): id is string => id !== null);
      const teachers = teacherId
        ? 1
        : (await repo.findTeachers(db, [...new Set(teacherRefs)])).length;
      const running = await repo.findRunningJob(db, actor.id, path.phase.id);
      if (running) return { job: sameJobOrRefuse(running, teacherId), isNew: false };
      await requireArchiveRoom();
      const now = clock.now();
      const row = await repo.insertJob(db, {
        id: uuidv7(now.getTime()),
        requestedBy: actor.id,
        examId: path.exam.id,
        editionId: path.edition.id,
        phaseId: path.phase.id,
        teacherId,
        origin,
        total: entries.length + teachers,
        createdAt: now,
      });
      if (row) return { job: toJob(row), isNew: true };
      // Another request of the same person and phase got in between.
      const other = await repo.findRunningJob(db, actor.id, path.phase.id);
      if (!other) throw new AppError('GENERAL_ERROR', 'job neither made nor found');
      return { job: sameJobOrRefuse(other, teacherId), isNew: false };
    },

    async listJobs(actor: Actor): Promise<DiplomaJob[]> {
      return (await repo.findJobsOf(db, actor.id, JOBS_LISTED)).map(toJob);
    },

    /** The caller's own job; anyone else's is "not found". */
    async getJob(actor: Actor, jobId: string): Promise<DiplomaJob> {
      const row = await repo.findJob(db, jobId);
      if (!row || row.requestedBy !== actor.id) throw notFound('job');
      return toJob(row);
    },

    /** The finished ZIP; 409 DIPLOMA_JOB_NOT_READY before, 404 once it was cleaned away. */
    /** A finished job's ZIP as a stream (a phase's is tens of MB), with its size and name. */
    async jobFile(
      actor: Actor,
      jobId: string,
    ): Promise<{ zip: Readable; size: number; fileName: string }> {
      const row = await repo.findJob(db, jobId);
      if (!row || row.requestedBy !== actor.id) throw notFound('job');
      if (row.state !== 'done') {
        throw new AppError('DIPLOMA_JOB_NOT_READY', 'The diplomas are still being made');
      }
      if (!row.fileKey) throw notFound('file');
      const { stream, size } = await storage.read(row.fileKey);
      return { zip: stream, size, fileName: row.fileName ?? 'diplome.zip' };
    },

    /** Deletes ZIPs kept longer than DIPLOMA_JOB_KEEP_HOURS. */
    removeExpiredFiles,
  };
}

export type DiplomasService = ReturnType<typeof diplomasService>;
