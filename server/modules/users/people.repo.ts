import { and, eq, getTableColumns, inArray, isNull, or, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client.js';
import {
  editionCoordinators,
  editionStudents,
  editions,
  exams,
  examTeachers,
  phaseStudents,
  users,
} from '../../db/schema.js';
import { compileWhere, type ListResource, type WhereNode } from '../../lib/filter/index.js';
import type { StudentScope } from './people.policy.js';
import { placeholderEmail } from './placeholder.js';
import type { NewUserRow, UserRow } from './users.repo.js';

/** Live people of one type: deleted accounts never appear in lists, counts or scope. */
export const livePeople = (type: UserRow['type']): SQL =>
  and(eq(users.type, type), isNull(users.deletedAt)) as SQL;

const coordinated = alias(users, 'coordinated');
// In raw SQL an alias renders as its name only; this is its `from` item.
const coordinatedFrom = sql`${users} as ${sql.identifier('coordinated')}`;

/**
 * Editions whose students the teacher sees as a whole: those of competitions where they are
 * exam admin or staff. Coordinating an edition is not among them: a coordinator sees their own
 * students (teacherRef), as in every other module (exams.policy.ts `seesWholeExam`).
 */
const editionsOfTeacher = (teacherId: string): SQL => sql`
  select ${editions.id} from ${editions}
  where ${editions.deletedAt} is null and ${editions.examId} in (
    select ${examTeachers.examId} from ${examTeachers}
    join ${exams} on ${exams.id} = ${examTeachers.examId} and ${exams.deletedAt} is null
    where ${examTeachers.teacherId} = ${teacherId}::uuid)`;

/**
 * The scope as one condition on `users` (undefined: no limit). Written as `id in (… union …)`
 * rather than `teacher_ref = x or exists (…)` so the planner can start from the small set of
 * ids the teacher may see instead of testing every user row.
 */
export function studentScopeSql(scope: StudentScope): SQL | undefined {
  switch (scope.kind) {
    case 'all':
      return undefined;
    case 'self':
      return eq(users.id, scope.userId);
    case 'teacher':
      return sql`${users.id} in (
        select ${coordinated.id} from ${coordinatedFrom}
        where ${coordinated.teacherRef} = ${scope.teacherId}::uuid
        union
        select ${editionStudents.studentId} from ${editionStudents}
        where ${editionStudents.editionId} in (${editionsOfTeacher(scope.teacherId)}))`;
  }
}

/** `?examAdmin=<exam>`: the students enrolled in one of that competition's live editions. */
export function enrolledInExamSql(examId: string): SQL {
  return sql`${users.id} in (
    select ${editionStudents.studentId} from ${editionStudents}
    join ${editions} on ${editions.id} = ${editionStudents.editionId}
    where ${editions.examId} = ${examId}::uuid and ${editions.deletedAt} is null)`;
}

/** Whether a live competition exists and the teacher has a role (admin or staff) on it. */
export async function examRoleOf(
  db: Db,
  examId: string,
  teacherId: string,
): Promise<{ examExists: boolean; hasRole: boolean }> {
  const [row] = await db
    .select({
      hasRole: sql<boolean>`exists (
        select 1 from ${examTeachers}
        where ${examTeachers.examId} = ${exams.id} and ${examTeachers.teacherId} = ${teacherId}::uuid)`,
    })
    .from(exams)
    .where(and(eq(exams.id, examId), isNull(exams.deletedAt)));
  return { examExists: row !== undefined, hasRole: row?.hasRole === true };
}

/** Conditions on fields that are not columns (relations), compiled by the list's repo. */
export type SpecialFields = Record<
  string,
  (condition: Extract<WhereNode, { field: string }>) => SQL
>;

/** A checked where tree → SQL, with `special` fields compiled by their own function. */
export function compilePeopleWhere(
  node: WhereNode | undefined,
  resource: ListResource,
  special: SpecialFields = {},
): SQL | undefined {
  if (node === undefined) return undefined;
  if ('nodes' in node) {
    if (node.nodes.length === 0) return node.op === 'and' ? sql`true` : sql`false`;
    const parts = node.nodes.map((n) => compilePeopleWhere(n, resource, special) ?? sql`true`);
    return sql`(${sql.join(parts, node.op === 'and' ? sql` and ` : sql` or `)})`;
  }
  const compileSpecial = Object.hasOwn(special, node.field) ? special[node.field] : undefined;
  return compileSpecial ? compileSpecial(node) : compileWhere(node, resource);
}

/** Who an actor may read (see people.policy.ts `visibilityOf`). */
export type Visibility = { actorId: string; scope: StudentScope; seesTeachers: boolean };

/**
 * Who an actor may read by id or e-mail: themself, the students of their scope, every teacher
 * when `seesTeachers`; undefined (no limit) for the `all` scope.
 */
export function visibilitySql({ actorId, scope, seesTeachers }: Visibility): SQL | undefined {
  if (scope.kind === 'all') return undefined;
  return or(
    eq(users.id, actorId),
    and(eq(users.type, 'student'), studentScopeSql(scope)),
    seesTeachers ? eq(users.type, 'teacher') : undefined,
  );
}

export type PersonKey = { id: string } | { email: string };
const byKey = (key: PersonKey) =>
  'id' in key ? eq(users.id, key.id) : eq(users.email, key.email.trim().toLowerCase());

/** The live user with this id or e-mail, if the actor may see them. */
export async function findVisibleUser(
  db: Db,
  key: PersonKey,
  visibility: Visibility,
): Promise<UserRow | undefined> {
  const [row] = await db
    .select()
    .from(users)
    .where(and(byKey(key), isNull(users.deletedAt), visibilitySql(visibility)));
  return row;
}

/** As findVisibleUser, with the row locked for the rest of the transaction. */
export async function lockVisibleUser(
  db: Db,
  key: PersonKey,
  visibility: Visibility,
): Promise<UserRow | undefined> {
  const [row] = await db
    .select()
    .from(users)
    .where(and(byKey(key), isNull(users.deletedAt), visibilitySql(visibility)))
    .for('update', { of: users });
  return row;
}

export type LockedPerson = UserRow & { visible: boolean };

/**
 * The live accounts with these e-mails, locked for the transaction (in id order, so two bulk
 * changes cannot deadlock), each with whether the actor may see it.
 */
export async function lockPeopleByEmail(
  db: Db,
  emails: string[],
  visibility: Visibility,
): Promise<LockedPerson[]> {
  if (emails.length === 0) return [];
  return db
    .select({
      ...getTableColumns(users),
      visible: sql<boolean>`${visibilitySql(visibility) ?? sql`true`}`,
    })
    .from(users)
    .where(and(inArray(users.email, emails), isNull(users.deletedAt)))
    .orderBy(users.id)
    .for('update', { of: users });
}

/** The query counting the people matching `condition`. */
export const countQuery = (db: Db, condition: SQL) =>
  db.select({ n: sql<number>`count(*)::int` }).from(users).where(condition);

export async function countPeople(db: Db, condition: SQL): Promise<number> {
  const [row] = await countQuery(db, condition);
  return row?.n ?? 0;
}

export async function setStates(db: Db, ids: string[], state: UserRow['state']): Promise<void> {
  if (ids.length === 0) return;
  await db.update(users).set({ state, updatedAt: sql`now()` }).where(inArray(users.id, ids));
}

/**
 * Whether removing the person would lose results or roles: enrolments, phase results, roles on
 * competitions, coordinated editions, or live students who name them as their teacher.
 */
export async function hasResults(db: Db, userId: string): Promise<boolean> {
  const id = sql`${userId}::uuid`;
  const [row] = await db
    .select({
      has: sql<boolean>`(
        exists (select 1 from ${editionStudents} where ${editionStudents.studentId} = ${id})
        or exists (select 1 from ${phaseStudents} where ${phaseStudents.studentId} = ${id})
        or exists (select 1 from ${examTeachers} where ${examTeachers.teacherId} = ${id})
        or exists (select 1 from ${editionCoordinators} where ${editionCoordinators.teacherId} = ${id})
        or exists (select 1 from ${coordinatedFrom}
          where ${coordinated.teacherRef} = ${id} and ${coordinated.deletedAt} is null))`,
    })
    .from(users)
    .where(eq(users.id, userId));
  return row?.has === true;
}

/** Soft-deletes: marked deleted, e-mail and team code freed. */
export async function softDeleteUser(db: Db, id: string): Promise<void> {
  await db
    .update(users)
    .set({
      deletedAt: sql`now()`,
      updatedAt: sql`now()`,
      email: placeholderEmail('deleted', id),
      teacherCode: null,
    })
    .where(eq(users.id, id));
}

/** What anonymising changes: names, e-mail, credentials and every personal detail. */
export const ANONYMOUS: Partial<NewUserRow> = {
  givenName: 'Anonim',
  familyName: 'Anonim',
  givenNameNormalized: 'anonim',
  familyNameNormalized: 'anonim',
  passwordHash: null,
  emailConfirmedAt: null,
  picture: null,
  city: null,
  school: null,
  dateOfBirth: null,
  occupation: null,
  discipline: null,
  teacherCode: null,
  data: { shortcuts: [] },
  state: 'inactive',
};

export async function anonymiseUser(db: Db, id: string): Promise<UserRow | undefined> {
  const [row] = await db
    .update(users)
    .set({ ...ANONYMOUS, email: placeholderEmail('anonim', id), updatedAt: sql`now()` })
    .where(eq(users.id, id))
    .returning();
  return row;
}

/** Each student's enrolments (live editions), for `include: studentEditions`; one query. */
export async function editionsOfStudents(
  db: Db,
  studentIds: string[],
): Promise<Map<string, { editionId: string }[]>> {
  const byStudent = new Map<string, { editionId: string }[]>();
  if (studentIds.length === 0) return byStudent;
  const rows = await db
    .select({ studentId: editionStudents.studentId, editionId: editionStudents.editionId })
    .from(editionStudents)
    .innerJoin(editions, eq(editions.id, editionStudents.editionId))
    .where(and(inArray(editionStudents.studentId, studentIds), isNull(editions.deletedAt)))
    .orderBy(editionStudents.createdAt, editionStudents.editionId);
  for (const r of rows) {
    const list = byStudent.get(r.studentId) ?? [];
    list.push({ editionId: r.editionId });
    byStudent.set(r.studentId, list);
  }
  return byStudent;
}
