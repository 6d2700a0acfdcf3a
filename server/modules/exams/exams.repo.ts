import { and, eq, inArray, isNull, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import {
  editionCoordinators,
  editions,
  exams,
  examTeachers,
  phases,
  users,
} from '../../db/schema.js';
import type { Actor } from '../../lib/auth-guard.js';
import {
  compileFilter,
  compileWhere,
  type ListResource,
  type ParsedFilter,
} from '../../lib/filter/index.js';
import type { WhereNode } from '../../lib/filter/types.js';

export type ExamRow = typeof exams.$inferSelect;
export type NewExamRow = typeof exams.$inferInsert;
export type ExamTeacherRole = 'admin' | 'staff';

const liveExam = isNull(exams.deletedAt);
const none = sql`null`;

/** `GET /exams?filter=`: what clients may filter, sort and select. */
export const examsResource: ListResource = {
  name: 'exams',
  fields: {
    _id: { column: exams.id, type: 'uuid' },
    name: { column: exams.name, type: 'string' },
    // Lower-case without diacritics, so a search for "matematica" finds "Matematică".
    nameNormalized: { column: exams.nameNormalized, type: 'string', fold: 'name' },
    subject: { column: exams.subject, type: 'string' },
    description: { column: exams.description, type: 'string', sortable: false },
    grades: { column: exams.grades, type: 'number', filterable: false, sortable: false },
    adminTeacherIds: { column: none, type: 'uuid', filterable: false, sortable: false },
    staffTeacherIds: { column: none, type: 'uuid', filterable: false, sortable: false },
    myRole: { column: none, type: 'string', filterable: false, sortable: false },
    createdAt: { column: exams.createdAt, type: 'date' },
  },
  defaultOrder: ['name ASC'],
};

/**
 * The exams a person may see, as SQL (the list twin of `canSeeExam`): everything for admins;
 * for teachers the exams where they are admin, staff or coordinator of a live edition; for
 * students the exams with an edition open for sign-up whose grades include theirs.
 */
export function examScopeSql(actor: Actor): SQL | undefined {
  if (actor.type === 'admin') return undefined;
  if (actor.type === 'teacher') {
    return sql`(exists (select 1 from ${examTeachers} where ${examTeachers.examId} = ${exams.id}
      and ${examTeachers.teacherId} = ${actor.id})
      or exists (select 1 from ${editionCoordinators} join ${editions}
        on ${editions.id} = ${editionCoordinators.editionId}
        where ${editions.examId} = ${exams.id} and ${editions.deletedAt} is null
        and ${editionCoordinators.teacherId} = ${actor.id}))`;
  }
  return sql`(${openForSignupSql(sql`${exams.id}`)}
    and (select ${users.grade} from ${users} where ${users.id} = ${actor.id}) = any(${exams.grades}))`;
}

/** An exam (given as SQL) has a live, active edition with an open phase taking sign-ups. */
export function openForSignupSql(examId: SQL): SQL {
  return sql`exists (select 1 from ${editions} join ${phases} on ${phases.editionId} = ${editions.id}
    where ${editions.examId} = ${examId} and ${editions.deletedAt} is null
    and ${editions.state} = 'active' and ${editions.registrationOpen}
    and ${phases.deletedAt} is null
    and ${phases.state} = 'open' and ${phases.registrationOpen})`;
}

export async function findExam(db: Db, id: string): Promise<ExamRow | undefined> {
  const [row] = await db
    .select()
    .from(exams)
    .where(and(eq(exams.id, id), liveExam));
  return row;
}

/** Locks the exam row until the transaction ends. */
export async function lockExam(db: Db, id: string): Promise<ExamRow | undefined> {
  const [row] = await db
    .select()
    .from(exams)
    .where(and(eq(exams.id, id), liveExam))
    .for('update');
  return row;
}

export async function insertExam(db: Db, row: NewExamRow): Promise<ExamRow> {
  const [created] = await db.insert(exams).values(row).returning();
  if (!created) throw new Error('exam not inserted');
  return created;
}

export async function updateExam(
  db: Db,
  id: string,
  patch: Partial<NewExamRow>,
): Promise<ExamRow | undefined> {
  const [row] = await db
    .update(exams)
    .set({ ...patch, updatedAt: sql`now()` })
    .where(and(eq(exams.id, id), liveExam))
    .returning();
  return row;
}

export async function softDeleteExam(db: Db, id: string): Promise<void> {
  await db
    .update(exams)
    .set({ deletedAt: sql`now()`, updatedAt: sql`now()` })
    .where(eq(exams.id, id));
}

export async function countLiveEditions(db: Db, examId: string): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(editions)
    .where(and(eq(editions.examId, examId), isNull(editions.deletedAt)));
  return row?.n ?? 0;
}

export async function listExams(
  db: Db,
  filter: ParsedFilter,
  scope: SQL | undefined,
): Promise<ExamRow[]> {
  const q = compileFilter(filter, examsResource);
  return db
    .select()
    .from(exams)
    .where(and(liveExam, scope, q.where))
    .orderBy(...q.orderBy)
    .limit(q.limit)
    .offset(q.offset);
}

export async function countExams(
  db: Db,
  where: WhereNode | undefined,
  scope: SQL | undefined,
): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(exams)
    .where(and(liveExam, scope, compileWhere(where, examsResource)));
  return row?.n ?? 0;
}

export type ExamTeacherLink = { examId: string; teacherId: string; role: ExamTeacherRole };

/** The admin and staff teachers of these exams, oldest link first. */
export async function findExamTeachers(db: Db, examIds: string[]): Promise<ExamTeacherLink[]> {
  if (examIds.length === 0) return [];
  return db
    .select({
      examId: examTeachers.examId,
      teacherId: examTeachers.teacherId,
      role: examTeachers.role,
    })
    .from(examTeachers)
    .where(inArray(examTeachers.examId, examIds))
    .orderBy(examTeachers.createdAt, examTeachers.teacherId);
}

/** Makes the exam's list of `role` teachers exactly `teacherIds`, keeping existing links. */
export async function replaceExamTeachers(
  db: Db,
  examId: string,
  role: ExamTeacherRole,
  teacherIds: string[],
): Promise<void> {
  const scope = and(eq(examTeachers.examId, examId), eq(examTeachers.role, role));
  await db
    .delete(examTeachers)
    .where(
      teacherIds.length > 0
        ? and(scope, sql`${examTeachers.teacherId} <> all(${toUuidArray(teacherIds)})`)
        : scope,
    );
  if (teacherIds.length > 0) {
    await db
      .insert(examTeachers)
      .values(teacherIds.map((teacherId) => ({ examId, teacherId, role })))
      .onConflictDoNothing();
  }
}

/** A uuid[] parameter (one bound value, whatever the number of ids). */
export const toUuidArray = (ids: readonly string[]): SQL => sql`${`{${ids.join(',')}}`}::uuid[]`;

export type TeacherState = { id: string; state: 'active' | 'inactive' };

/** Which of these ids are live teachers, with their state. */
export async function findTeachers(db: Db, ids: string[]): Promise<TeacherState[]> {
  if (ids.length === 0) return [];
  return db
    .select({ id: users.id, state: users.state })
    .from(users)
    .where(and(inArray(users.id, ids), eq(users.type, 'teacher'), isNull(users.deletedAt)));
}

/** The person's roles on one exam: admin/staff links and the editions they coordinate. */
export async function findExamRoles(
  db: Db,
  examId: string,
  teacherId: string,
): Promise<{ roles: ExamTeacherRole[]; coordinatedEditionIds: string[] }> {
  const links = await db
    .select({ role: examTeachers.role })
    .from(examTeachers)
    .where(and(eq(examTeachers.examId, examId), eq(examTeachers.teacherId, teacherId)));
  const coordinated = await db
    .select({ id: editions.id })
    .from(editionCoordinators)
    .innerJoin(editions, eq(editions.id, editionCoordinators.editionId))
    .where(
      and(
        eq(editions.examId, examId),
        isNull(editions.deletedAt),
        eq(editionCoordinators.teacherId, teacherId),
      ),
    );
  return { roles: links.map((l) => l.role), coordinatedEditionIds: coordinated.map((c) => c.id) };
}

/** `findExamPath`'s statement, with or without a teacher's roles. */
function examPathStatement(db: Db, withRoles: boolean) {
  const noIds = sql<string[]>`'{}'::text[]`;
  const teacherId = sql.placeholder('teacherId');
  return db
    .select({
      exam: exams,
      edition: editions,
      phase: phases,
      roles: withRoles
        ? sql<string[]>`array(select ${examTeachers.role}::text from ${examTeachers}
            where ${examTeachers.examId} = ${exams.id}
              and ${examTeachers.teacherId} = ${teacherId}::uuid)`
        : noIds,
      coordinated: withRoles
        ? sql<string[]>`array(select c.edition_id::text from ${editionCoordinators} c
            join ${editions} e on e.id = c.edition_id and e.deleted_at is null
            where e.exam_id = ${exams.id} and c.teacher_id = ${teacherId}::uuid)`
        : noIds,
    })
    .from(exams)
    .leftJoin(
      editions,
      and(
        eq(editions.id, sql`${sql.placeholder('editionId')}::uuid`),
        eq(editions.examId, exams.id),
        isNull(editions.deletedAt),
      ),
    )
    .leftJoin(
      phases,
      and(
        eq(phases.id, sql`${sql.placeholder('phaseId')}::uuid`),
        eq(phases.editionId, editions.id),
        isNull(phases.deletedAt),
      ),
    )
    .where(and(eq(exams.id, sql`${sql.placeholder('examId')}::uuid`), liveExam))
    .prepare(withRoles ? 'exam_path_roles_v1' : 'exam_path_v1');
}

type ExamPathStatement = ReturnType<typeof examPathStatement>;
const examPathStatements = new WeakMap<Db, [ExamPathStatement, ExamPathStatement]>();

/**
 * An exam with, when asked for, one of its editions and one phase of that edition (live ones
 * only; null where the edition or phase is not there), and a teacher's roles on the exam: what
 * `findExam`, `findEdition`, `findPhase` and `findExamRoles` read, in one round trip. Every call
 * under a phase starts with it, so its SQL is made once per database handle and PostgreSQL
 * plans it once per connection.
 */
export async function findExamPath(
  db: Db,
  ids: { examId: string; editionId?: string; phaseId?: string },
  teacherId: string | undefined,
) {
  let statements = examPathStatements.get(db);
  if (!statements) {
    statements = [examPathStatement(db, false), examPathStatement(db, true)];
    examPathStatements.set(db, statements);
  }
  const [row] = await statements[teacherId === undefined ? 0 : 1].execute({
    examId: ids.examId,
    editionId: ids.editionId ?? null,
    phaseId: ids.phaseId ?? null,
    teacherId: teacherId ?? null,
  });
  if (!row) return undefined;
  return {
    exam: row.exam,
    edition: row.edition,
    phase: row.phase,
    roles: row.roles as ExamTeacherRole[],
    coordinatedEditionIds: row.coordinated,
  };
}

/** Of these exams, the ones where the teacher coordinates a live edition. */
export async function findCoordinatedExamIds(
  db: Db,
  teacherId: string,
  examIds: string[],
): Promise<Set<string>> {
  if (examIds.length === 0) return new Set();
  const rows = await db
    .selectDistinct({ examId: editions.examId })
    .from(editionCoordinators)
    .innerJoin(editions, eq(editions.id, editionCoordinators.editionId))
    .where(
      and(
        inArray(editions.examId, examIds),
        isNull(editions.deletedAt),
        eq(editionCoordinators.teacherId, teacherId),
      ),
    );
  return new Set(rows.map((r) => r.examId));
}

/** Whether the student may sign up for one of the exam's editions (open, right grade). */
export async function isExamOpenToStudent(
  db: Db,
  examId: string,
  studentId: string,
): Promise<boolean> {
  const [row] = await db
    .select({ ok: sql<boolean>`true` })
    .from(exams)
    .where(
      and(
        eq(exams.id, examId),
        liveExam,
        sql`${openForSignupSql(sql`${exams.id}`)}`,
        sql`(select ${users.grade} from ${users} where ${users.id} = ${studentId}) = any(${exams.grades})`,
      ),
    );
  return row !== undefined;
}
