import { randomInt } from 'node:crypto';
import ExcelJS from 'exceljs';
import { sectorCell } from '../../../shared/constants.js';
import type {
  AddStudentsResult,
  BulkEnrolResult,
  Count,
  EditionStudentChangesInput,
  EditionStudentListItem,
  EnrolFailure,
  FailedStudents,
} from '../../../shared/schemas/exams.js';
import type { Db } from '../../db/client.js';
import { appendAudit } from '../../lib/audit.js';
import type { Actor } from '../../lib/auth-guard.js';
import type { Clock } from '../../lib/clock.js';
import { forbidden, notFound } from '../../lib/errors.js';
import { parseFilter, parseWhere } from '../../lib/filter/index.js';
import { notifyEnrolled } from '../notifications/index.js';
import { findCoordinators, lockEdition } from './editions.repo.js';
import * as repo from './enrolment.repo.js';
import { type EditionContext, requireEdition } from './exams.access.js';
import { pickFields } from './exams.dto.js';
import {
  canEnrolAnyStudent,
  canEnrolInEdition,
  canEnrolStudent,
  seesWholeExam,
} from './exams.policy.js';
import { addToFirstPhase } from './phases.repo.js';
import { removeEnrolments } from './registration.js';

export type EnrolmentDeps = { db: Db; clock: Clock };
type EditionIds = { examId: string; editionId: string };

// No 0/O, 1/l/I: the credentials are read off paper in exam rooms.
const USERNAME_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
const PASSWORD_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghjkmnpqrstuvwxyz23456789';
const randomText = (alphabet: string, length: number) =>
  Array.from({ length }, () => alphabet[randomInt(alphabet.length)]).join('');

/** A new account on the external judge: a unique-looking user name and a random password. */
export function newCmsCredentials(): { cmsUsername: string; cmsPassword: string } {
  return {
    cmsUsername: `e${randomText(USERNAME_ALPHABET, 8)}`,
    cmsPassword: randomText(PASSWORD_ALPHABET, 10),
  };
}

/** An active, registered student whose grade is one of the exam's. */
export function isEligibleStudent(student: repo.StudentFacts, grades: readonly number[]): boolean {
  return whyNotEligible(student, grades) === null;
}

/** Why a person cannot be enrolled in a competition of these grades; null when they can. */
export function whyNotEligible(
  student: repo.StudentFacts | undefined,
  grades: readonly number[],
): EnrolFailure | null {
  if (student?.type !== 'student') return 'unknown';
  if (student.state !== 'active') return 'inactive';
  if (!student.registered) return 'unregistered';
  if (student.grade === null || !grades.includes(student.grade)) return 'grade';
  return null;
}

/**
 * Enrols students in an edition (the caller holds the edition lock): each gets CMS
 * credentials, and joins the edition's first phase when it is open. Students already
 * enrolled are left as they are. Returns the ids newly enrolled.
 */
export async function enrolInEdition(
  tx: Db,
  editionId: string,
  students: readonly repo.StudentFacts[],
  addedBy: string,
): Promise<string[]> {
  const ids = students.map((s) => s.id);
  const enrolled = new Set((await repo.findEnrolments(tx, editionId, ids)).map((e) => e.studentId));
  let pending = students.filter((s) => !enrolled.has(s.id));
  const added: string[] = [];
  // A clash of random user names skips a row; try those again with new names.
  for (let attempt = 0; pending.length > 0 && attempt < 5; attempt++) {
    const inserted = await repo.insertEnrolments(
      tx,
      pending.map((s) => ({
        editionId,
        studentId: s.id,
        grade: s.grade,
        studentCentre: s.studentCentre,
        addedBy,
        ...newCmsCredentials(),
      })),
    );
    added.push(...inserted);
    const done = new Set([
      ...inserted,
      ...(
        await repo.findEnrolments(
          tx,
          editionId,
          pending.map((s) => s.id),
        )
      ).map((e) => e.studentId),
    ]);
    pending = pending.filter((s) => !done.has(s.id));
  }
  if (pending.length > 0) throw new Error('could not allocate CMS user names');
  await addToFirstPhase(tx, editionId, added, 'enrolment');
  await notifyEnrolled(tx, editionId, added);
  return added;
}

/** Today in Romania as DD-MM-YYYY, for the spreadsheet's file name. */
function romanianDate(now: Date): string {
  return new Intl.DateTimeFormat('en-GB', {
    timeZone: 'Europe/Bucharest',
    day: '2-digit',
    month: '2-digit',
    year: 'numeric',
  })
    .format(now)
    .replaceAll('/', '-');
}

export function enrolmentService({ db, clock }: EnrolmentDeps) {
  /** Coordinators and staff see their own students; managers see everyone enrolled. */
  const ownerOf = (actor: Actor, context: EditionContext) =>
    seesWholeExam(context.access) ? undefined : actor.id;

  async function requireEnrolRights(actor: Actor, ids: EditionIds): Promise<EditionContext> {
    const context = await requireEdition(db, actor, ids.examId, ids.editionId);
    if (!canEnrolInEdition(context.access, ids.editionId)) throw forbidden();
    return context;
  }

  /** Enrols a known set of eligible students in one locked transaction; audited. */
  async function enrolMany(
    actor: Actor,
    editionId: string,
    pick: (tx: Db) => Promise<{ students: repo.StudentFacts[]; failed: string[] }>,
    action: string,
  ): Promise<BulkEnrolResult> {
    return db.transaction(async (tx) => {
      if (!(await lockEdition(tx, editionId, 'share'))) throw notFound('edition');
      const { students, failed } = await pick(tx);
      const added = await enrolInEdition(tx, editionId, students, actor.id);
      if (added.length > 0) {
        await appendAudit(tx, {
          actorId: actor.id,
          action,
          entityType: 'edition',
          entityId: editionId,
          after: { studentIds: added },
        });
      }
      return { failedStudents: failed, enrolledCount: added.length };
    });
  }

  return {
    /**
     * Enrols the listed students. Unknown, inactive or unregistered people, students of a
     * grade the exam does not have and (for staff and coordinators) other teachers' students
     * come back in `failedStudents`; the rest are enrolled.
     */
    async addStudents(
      actor: Actor,
      ids: EditionIds,
      studentIds: string[],
    ): Promise<AddStudentsResult> {
      const context = await requireEnrolRights(actor, ids);
      const wanted = [...new Set(studentIds)];
      const failures: AddStudentsResult['failures'] = [];
      const { failedStudents } = await enrolMany(
        actor,
        ids.editionId,
        async (tx) => {
          const facts = new Map((await repo.findStudentFacts(tx, wanted)).map((s) => [s.id, s]));
          const why = (id: string): EnrolFailure | null => {
            const s = facts.get(id);
            const reason = whyNotEligible(s, context.exam.grades);
            if (reason !== null || !s) return reason ?? 'unknown';
            return canEnrolStudent(actor, context.access, ids.editionId, s) ? null : 'not_theirs';
          };
          failures.length = 0; // the transaction may run again
          for (const id of wanted) {
            const reason = why(id);
            if (reason) failures.push({ studentId: id, reason });
          }
          const failed = new Set(failures.map((f) => f.studentId));
          return {
            students: wanted
              .filter((id) => !failed.has(id))
              .map((id) => facts.get(id) as repo.StudentFacts),
            failed: wanted.filter((id) => failed.has(id)),
          };
        },
        'edition.students.add',
      );
      return { failedStudents, failures };
    },

    /** The calling teacher enrols every one of their own eligible students. */
    async enrolAllMine(actor: Actor, ids: EditionIds): Promise<BulkEnrolResult> {
      const context = await requireEnrolRights(actor, ids);
      return enrolMany(
        actor,
        ids.editionId,
        async (tx) => ({
          students: await repo.findEligibleStudentsOf(tx, [actor.id], context.exam.grades),
          failed: [],
        }),
        'edition.students.add-mine',
      );
    },

    /** Exam managers enrol the eligible students of every coordinator of the edition. */
    async enrolForCoordinators(actor: Actor, ids: EditionIds): Promise<BulkEnrolResult> {
      const context = await requireEdition(db, actor, ids.examId, ids.editionId);
      if (!canEnrolAnyStudent(context.access)) throw forbidden();
      return enrolMany(
        actor,
        ids.editionId,
        async (tx) => {
          const coordinators = (await findCoordinators(tx, [ids.editionId])).map(
            (c) => c.teacherId,
          );
          return {
            students: await repo.findEligibleStudentsOf(tx, coordinators, context.exam.grades),
            failed: [],
          };
        },
        'edition.students.add-coordinators',
      );
    },

    /**
     * Removes students from the edition and its phases. Not enrolled, out of the actor's
     * reach, or already admitted/rejected in a phase: listed in `failedStudents`, kept.
     */
    async removeStudents(
      actor: Actor,
      ids: EditionIds,
      studentIds: string[],
    ): Promise<FailedStudents> {
      const context = await requireEnrolRights(actor, ids);
      const wanted = [...new Set(studentIds)];
      return db.transaction(async (tx) => {
        if (!(await lockEdition(tx, ids.editionId, 'share'))) throw notFound('edition');
        const enrolled = new Map(
          (await repo.findEnrolments(tx, ids.editionId, wanted)).map((e) => [e.studentId, e]),
        );
        const facts = new Map((await repo.findStudentFacts(tx, wanted)).map((s) => [s.id, s]));
        const withResults = await repo.findStudentsWithResults(tx, ids.editionId, wanted);
        const ok = (id: string) => {
          const s = facts.get(id);
          return (
            enrolled.has(id) &&
            s !== undefined &&
            canEnrolStudent(actor, context.access, ids.editionId, s) &&
            !withResults.has(id)
          );
        };
        const removed = wanted.filter(ok);
        await removeEnrolments(tx, ids.editionId, removed);
        if (removed.length > 0) {
          await appendAudit(tx, {
            actorId: actor.id,
            action: 'edition.students.remove',
            entityType: 'edition',
            entityId: ids.editionId,
            before: removed.map((id) => {
              const e = enrolled.get(id);
              return { studentId: id, grade: e?.grade, studentCentre: e?.studentCentre };
            }),
          });
        }
        return { failedStudents: wanted.filter((id) => !ok(id)) };
      });
    },

    /** Changes the grade (one of the exam's) and/or exam location of enrolled students. */
    async changeStudents(
      actor: Actor,
      ids: EditionIds,
      input: EditionStudentChangesInput,
    ): Promise<FailedStudents> {
      const context = await requireEnrolRights(actor, ids);
      const wanted = [...new Set(input.students.map((s) => s.studentId))];
      return db.transaction(async (tx) => {
        if (!(await lockEdition(tx, ids.editionId, 'share'))) throw notFound('edition');
        const enrolled = new Map(
          (await repo.findEnrolments(tx, ids.editionId, wanted)).map((e) => [e.studentId, e]),
        );
        const facts = new Map((await repo.findStudentFacts(tx, wanted)).map((s) => [s.id, s]));
        const failed = new Set<string>();
        const changes: { studentId: string; before: unknown; after: unknown }[] = [];
        for (const change of input.students) {
          const s = facts.get(change.studentId);
          const current = enrolled.get(change.studentId);
          const isValid =
            current !== undefined &&
            s !== undefined &&
            canEnrolStudent(actor, context.access, ids.editionId, s) &&
            (change.grade === undefined || context.exam.grades.includes(change.grade));
          if (!isValid) {
            failed.add(change.studentId);
            continue;
          }
          const patch = {
            ...(change.grade === undefined ? {} : { grade: change.grade }),
            ...(change.studentCentre === undefined
              ? {}
              : { studentCentre: change.studentCentre || null }),
          };
          if (Object.keys(patch).length === 0) continue;
          await repo.updateEnrolment(tx, ids.editionId, change.studentId, patch);
          changes.push({
            studentId: change.studentId,
            before: { grade: current.grade, studentCentre: current.studentCentre },
            after: patch,
          });
        }
        if (changes.length > 0) {
          await appendAudit(tx, {
            actorId: actor.id,
            action: 'edition.students.change',
            entityType: 'edition',
            entityId: ids.editionId,
            before: changes.map((c) => ({ studentId: c.studentId, ...(c.before as object) })),
            after: changes.map((c) => ({ studentId: c.studentId, ...(c.after as object) })),
          });
        }
        return { failedStudents: [...failed] };
      });
    },

    /** The edition's students the actor may see (filter, order familyName asc). */
    async listStudents(
      actor: Actor,
      ids: EditionIds,
      rawFilter: string | undefined,
    ): Promise<EditionStudentListItem[]> {
      const context = await requireEdition(db, actor, ids.examId, ids.editionId);
      const filter = parseFilter(rawFilter, repo.editionStudentsResource);
      const rows = await repo.listEditionStudents(
        db,
        ids.editionId,
        filter,
        ownerOf(actor, context),
      );
      return rows.map((row) =>
        pickFields({ ...row, createdAt: row.createdAt.toISOString() }, filter.fields, 'studentId'),
      );
    },

    async countStudents(
      actor: Actor,
      ids: EditionIds,
      rawWhere: string | undefined,
    ): Promise<Count> {
      const context = await requireEdition(db, actor, ids.examId, ids.editionId);
      const where = parseWhere(rawWhere ?? '', repo.editionStudentsResource);
      return {
        count: await repo.countEditionStudents(db, ids.editionId, where, ownerOf(actor, context)),
      };
    },

    /** The CMS credentials of the students the actor sees, as `download-cms-DD-MM-YYYY.xlsx`. */
    async credentialsFile(
      actor: Actor,
      ids: EditionIds,
    ): Promise<{ filename: string; content: Buffer }> {
      const context = await requireEdition(db, actor, ids.examId, ids.editionId);
      const rows = await repo.findCredentialRows(db, ids.editionId, ownerOf(actor, context));
      const book = new ExcelJS.Workbook();
      const sheet = book.addWorksheet('CMS');
      sheet.columns = [
        { header: 'Nume', key: 'familyName', width: 20 },
        { header: 'Prenume', key: 'givenName', width: 20 },
        { header: 'E-mail', key: 'email', width: 30 },
        { header: 'Județ', key: 'county', width: 16 },
        { header: 'Școala', key: 'school', width: 30 },
        { header: 'Clasa', key: 'grade', width: 8 },
        { header: 'Centru de examen', key: 'studentCentre', width: 24 },
        { header: 'Utilizator', key: 'username', width: 14 },
        { header: 'Parolă', key: 'password', width: 14 },
        // Last, so the columns before keep their places: Bucharest's sector, or that it is
        // missing (the sectors count as counties in the olympiad's rules).
        { header: 'Sector', key: 'sector', width: 14 },
      ];
      sheet.getRow(1).font = { bold: true };
      for (const { bucharestSector, ...row } of rows) {
        sheet.addRow({ ...row, sector: sectorCell(row.county, bucharestSector) });
      }
      const content = Buffer.from(await book.xlsx.writeBuffer());
      return { filename: `download-cms-${romanianDate(clock.now())}.xlsx`, content };
    },
  };
}

export type EnrolmentService = ReturnType<typeof enrolmentService>;
