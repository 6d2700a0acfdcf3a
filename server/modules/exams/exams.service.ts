import type { z } from 'zod';
import { PAGE_SIZE_EXAMS } from '../../../shared/constants.js';
import type { FieldCode } from '../../../shared/errors.js';
import type {
  Count,
  Exam,
  ExamListItem,
  ExamRole,
  examCreateSchema,
  examPatchSchema,
} from '../../../shared/schemas/exams.js';
import type { Db } from '../../db/client.js';
import { appendAudit } from '../../lib/audit.js';
import type { Actor } from '../../lib/auth-guard.js';
import { AppError, fieldError, forbidden, notFound } from '../../lib/errors.js';
import { parseFilter, parseWhere } from '../../lib/filter/index.js';
import { uuidv7 } from '../../lib/ids.js';
import { normalizeName } from '../../lib/text.js';
import { loadExamAccess, requireExam } from './exams.access.js';
import { pickFields, toExamDto } from './exams.dto.js';
import {
  canCreateExam,
  canDeleteExam,
  canManageExam,
  type ExamAccess,
  examRoleOf,
  NO_ACCESS,
} from './exams.policy.js';
import * as repo from './exams.repo.js';

export type ExamsDeps = { db: Db };

/** What the create and patch schemas hand over (grades already sorted and unique). */
type ExamCreate = z.output<typeof examCreateSchema>;
type ExamPatch = z.output<typeof examPatchSchema>;

/**
 * Checks a teacher list sent by a picker: every id is a live teacher, and the ones not
 * already on the list are active (a teacher made inactive later may stay until removed).
 * Anything else is CLIENT_ERROR `teacher_not_found` on that field. Returns the ids, unique.
 */
export async function checkTeacherIds(
  db: Db,
  field: string,
  ids: string[],
  current: readonly string[],
): Promise<string[]> {
  const unique = [...new Set(ids)];
  const found = new Map((await repo.findTeachers(db, unique)).map((t) => [t.id, t.state]));
  const isValid = (id: string) =>
    found.has(id) && (found.get(id) === 'active' || current.includes(id));
  if (!unique.every(isValid)) {
    throw fieldError(
      { [field]: ['teacher_not_found' as FieldCode] },
      'Unknown or inactive teacher',
    );
  }
  return unique;
}

/** The caller's role on each listed exam, from the links already loaded. */
function roleInList(
  actor: Actor,
  examId: string,
  links: repo.ExamTeacherLink[],
  coordinated: Set<string>,
): ExamRole | null {
  const has = (role: repo.ExamTeacherRole) =>
    links.some((l) => l.examId === examId && l.teacherId === actor.id && l.role === role);
  const access: ExamAccess = {
    ...NO_ACCESS,
    isAdmin: actor.type === 'admin',
    isExamAdmin: has('admin'),
    isStaff: has('staff'),
    coordinatedEditionIds: coordinated.has(examId) ? [examId] : [],
    isOpenToStudent: actor.type === 'student',
  };
  return examRoleOf(access);
}

export function examsService({ db }: ExamsDeps) {
  async function examDto(row: repo.ExamRow, access: ExamAccess, tx: Db = db): Promise<Exam> {
    return toExamDto(row, await repo.findExamTeachers(tx, [row.id]), examRoleOf(access));
  }

  /** Replaces the teacher lists that were sent; audits each change. */
  async function saveTeachers(
    tx: Db,
    actor: Actor,
    examId: string,
    input: ExamPatch,
    before: repo.ExamTeacherLink[],
  ): Promise<void> {
    const lists = [
      ['admin', 'adminTeacherIds', input.adminTeacherIds],
      ['staff', 'staffTeacherIds', input.staffTeacherIds],
    ] as const;
    for (const [role, field, ids] of lists) {
      if (ids === undefined) continue;
      const current = before.filter((l) => l.role === role).map((l) => l.teacherId);
      const next = await checkTeacherIds(tx, field, ids, current);
      await repo.replaceExamTeachers(tx, examId, role, next);
      await appendAudit(tx, {
        actorId: actor.id,
        action: `exam.teachers.${role}`,
        entityType: 'exam',
        entityId: examId,
        before: current,
        after: next,
      });
    }
  }

  return {
    /** Exams the actor may see (SQL scope), with LoopBack filter; `_id` is always present. */
    async listExams(actor: Actor, rawFilter: string | undefined): Promise<ExamListItem[]> {
      const filter = parseFilter(rawFilter, repo.examsResource, { defaultLimit: PAGE_SIZE_EXAMS });
      const rows = await repo.listExams(db, filter, repo.examScopeSql(actor));
      const ids = rows.map((r) => r.id);
      const links = await repo.findExamTeachers(db, ids);
      const coordinated =
        actor.type === 'teacher'
          ? await repo.findCoordinatedExamIds(db, actor.id, ids)
          : new Set<string>();
      return rows.map((row) =>
        pickFields(
          toExamDto(row, links, roleInList(actor, row.id, links, coordinated)),
          filter.fields,
          '_id',
        ),
      );
    },

    /** How many exams the actor sees that match `where`. */
    async countExams(actor: Actor, rawWhere: string | undefined): Promise<Count> {
      const where = parseWhere(rawWhere ?? '', repo.examsResource);
      return { count: await repo.countExams(db, where, repo.examScopeSql(actor)) };
    },

    /** One exam, or 404 when it is outside the actor's scope. */
    async getExam(actor: Actor, examId: string): Promise<Exam> {
      const { exam, access } = await requireExam(db, actor, examId);
      return examDto(exam, access);
    },

    /** Admins only; grades stored ascending; the teacher lists hold only active teachers. */
    async createExam(actor: Actor, input: ExamCreate): Promise<Exam> {
      if (!canCreateExam(actor)) throw forbidden();
      const created = await db.transaction(async (tx) => {
        const row = await repo.insertExam(tx, {
          id: uuidv7(),
          name: input.name,
          nameNormalized: normalizeName(input.name) ?? '',
          subject: input.subject,
          description: input.description ?? null,
          grades: input.grades ?? [],
          createdBy: actor.id,
        });
        await saveTeachers(tx, actor, row.id, input, []);
        await appendAudit(tx, {
          actorId: actor.id,
          action: 'exam.create',
          entityType: 'exam',
          entityId: row.id,
          after: { name: row.name, subject: row.subject, grades: row.grades },
        });
        return row;
      });
      return examDto(created, { ...NO_ACCESS, isAdmin: true });
    },

    /** Exam admins and admins change what was sent; staff get 403, others 404. Audited. */
    async patchExam(actor: Actor, examId: string, patch: ExamPatch): Promise<Exam> {
      const { access } = await requireExam(db, actor, examId);
      if (!canManageExam(access)) throw forbidden();
      const saved = await db.transaction(async (tx) => {
        const row = await repo.lockExam(tx, examId);
        if (!row) throw notFound('exam');
        const { adminTeacherIds, staffTeacherIds, ...fields } = patch;
        const changes: Partial<repo.NewExamRow> = { ...fields };
        if (fields.name !== undefined) changes.nameNormalized = normalizeName(fields.name) ?? '';
        const updated =
          Object.keys(changes).length > 0 ? await repo.updateExam(tx, examId, changes) : row;
        if (Object.keys(fields).length > 0) {
          await appendAudit(tx, {
            actorId: actor.id,
            action: 'exam.update',
            entityType: 'exam',
            entityId: examId,
            before: Object.fromEntries(
              Object.keys(fields).map((k) => [k, row[k as keyof typeof row]]),
            ),
            after: fields,
          });
        }
        const before = await repo.findExamTeachers(tx, [examId]);
        await saveTeachers(tx, actor, examId, { adminTeacherIds, staffTeacherIds }, before);
        return updated ?? row;
      });
      // The caller may have just removed themself from the admins.
      return examDto(saved, await loadExamAccess(db, actor, examId));
    },

    /** Platform admins delete (softly) an exam that has no edition; audited. */
    async deleteExam(actor: Actor, examId: string): Promise<void> {
      const { access } = await requireExam(db, actor, examId);
      if (!canDeleteExam(access)) throw forbidden();
      await db.transaction(async (tx) => {
        const row = await repo.lockExam(tx, examId);
        if (!row) throw notFound('exam');
        if ((await repo.countLiveEditions(tx, examId)) > 0) {
          throw new AppError('EXAM_HAS_EDITIONS', 'Delete or move the editions first');
        }
        await repo.softDeleteExam(tx, examId);
        await appendAudit(tx, {
          actorId: actor.id,
          action: 'exam.delete',
          entityType: 'exam',
          entityId: examId,
          before: { name: row.name, subject: row.subject, grades: row.grades },
        });
      });
    },
  };
}

export type ExamsService = ReturnType<typeof examsService>;
