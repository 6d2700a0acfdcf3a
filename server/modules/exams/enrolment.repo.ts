import { and, asc, eq, inArray, isNull, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import {
  answers,
  attempts,
  editionStudents,
  editions,
  exams,
  phaseStudents,
  phases,
  tests,
  users,
} from '../../db/schema.js';
import {
  compileFilter,
  compileWhere,
  type ListResource,
  type ParsedFilter,
  type WhereNode,
} from '../../lib/filter/index.js';
import { toUuidArray } from './exams.repo.js';

export type EnrolmentRow = typeof editionStudents.$inferSelect;
export type NewEnrolmentRow = typeof editionStudents.$inferInsert;

/** `GET …/editions/{editionId}/students?filter=`: the edition student list. */
export const editionStudentsResource: ListResource = {
  name: 'editionStudents',
  fields: {
    studentId: { column: editionStudents.studentId, type: 'uuid' },
    familyName: { column: users.familyName, type: 'string' },
    givenName: { column: users.givenName, type: 'string' },
    familyNameNormalized: { column: users.familyNameNormalized, type: 'string' },
    givenNameNormalized: { column: users.givenNameNormalized, type: 'string' },
    email: { column: users.email, type: 'string' },
    studentCounty: { column: users.county, type: 'string' },
    // Bucharest's sector (1–6); null elsewhere or not set yet.
    studentSector: { column: users.bucharestSector, type: 'number' },
    city: { column: users.city, type: 'string' },
    school: { column: users.school, type: 'string' },
    studentGrade: { column: editionStudents.grade, type: 'number' },
    studentCentre: { column: editionStudents.studentCentre, type: 'string' },
    teacherRef: { column: users.teacherRef, type: 'uuid' },
    cmsUsername: { column: editionStudents.cmsUsername, type: 'string' },
    createdAt: { column: editionStudents.createdAt, type: 'date' },
  },
  defaultOrder: ['familyName ASC'],
  tiebreak: 'studentId',
};

/** Live enrolments of one edition; `ownerId`: only that teacher's students. */
const inEdition = (editionId: string, ownerId: string | undefined, extra?: SQL) =>
  and(
    eq(editionStudents.editionId, editionId),
    isNull(users.deletedAt),
    ownerId === undefined ? undefined : eq(users.teacherRef, ownerId),
    extra,
  );

const listFields = {
  studentId: editionStudents.studentId,
  familyName: users.familyName,
  givenName: users.givenName,
  email: users.email,
  studentCounty: users.county,
  studentSector: users.bucharestSector,
  city: users.city,
  school: users.school,
  studentGrade: editionStudents.grade,
  studentCentre: editionStudents.studentCentre,
  teacherRef: users.teacherRef,
  cmsUsername: editionStudents.cmsUsername,
  createdAt: editionStudents.createdAt,
};

export async function listEditionStudents(
  db: Db,
  editionId: string,
  filter: ParsedFilter,
  ownerId: string | undefined,
) {
  const q = compileFilter(filter, editionStudentsResource);
  return db
    .select(listFields)
    .from(editionStudents)
    .innerJoin(users, eq(users.id, editionStudents.studentId))
    .where(inEdition(editionId, ownerId, q.where))
    .orderBy(...q.orderBy)
    .limit(q.limit)
    .offset(q.offset);
}

export async function countEditionStudents(
  db: Db,
  editionId: string,
  where: WhereNode | undefined,
  ownerId: string | undefined,
): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(editionStudents)
    .innerJoin(users, eq(users.id, editionStudents.studentId))
    .where(inEdition(editionId, ownerId, compileWhere(where, editionStudentsResource)));
  return row?.n ?? 0;
}

/** What enrolment rules look at about a person. */
export type StudentFacts = {
  id: string;
  type: 'student' | 'teacher' | 'admin';
  state: 'active' | 'inactive';
  registered: boolean;
  teacherRef: string | null;
  grade: number | null;
  studentCentre: string | null;
};

export async function findStudentFacts(db: Db, ids: string[]): Promise<StudentFacts[]> {
  if (ids.length === 0) return [];
  return db
    .select({
      id: users.id,
      type: users.type,
      state: users.state,
      registered: users.registered,
      teacherRef: users.teacherRef,
      grade: users.grade,
      studentCentre: users.studentCentre,
    })
    .from(users)
    .where(and(inArray(users.id, ids), isNull(users.deletedAt)));
}

export async function findEnrolments(
  db: Db,
  editionId: string,
  studentIds: string[],
): Promise<EnrolmentRow[]> {
  if (studentIds.length === 0) return [];
  return db
    .select()
    .from(editionStudents)
    .where(
      and(eq(editionStudents.editionId, editionId), inArray(editionStudents.studentId, studentIds)),
    );
}

/**
 * Inserts the enrolments that do not exist yet. A clash on the edition and student or on the
 * CMS user name skips the row; returns the ids actually inserted.
 */
export async function insertEnrolments(db: Db, rows: NewEnrolmentRow[]): Promise<string[]> {
  if (rows.length === 0) return [];
  const inserted = await db
    .insert(editionStudents)
    .values(rows)
    .onConflictDoNothing()
    .returning({ studentId: editionStudents.studentId });
  return inserted.map((r) => r.studentId);
}

/** Of these students, the ones with an admitted/rejected decision in a phase of the edition. */
export async function findStudentsWithResults(
  db: Db,
  editionId: string,
  studentIds: string[],
): Promise<Set<string>> {
  if (studentIds.length === 0) return new Set();
  const ids = toUuidArray(studentIds);
  // A result in a phase, or any trace of a test of the edition: an attempt (running or over)
  // or an uploaded answer. Removing such a student would lose work or let a test run on
  // without a registration.
  const editionTests = sql`select ${tests.id} from ${tests}
    join ${phases} on ${phases.id} = ${tests.phaseId} where ${phases.editionId} = ${editionId}`;
  const rows = await db.execute<{ student_id: string }>(sql`
    select ${phaseStudents.studentId} as student_id from ${phaseStudents}
      join ${phases} on ${phases.id} = ${phaseStudents.phaseId}
      where ${phases.editionId} = ${editionId} and ${phaseStudents.studentId} = any(${ids})
        and ${phaseStudents.result} is not null
    union
    select ${attempts.studentId} from ${attempts}
      where ${attempts.testId} in (${editionTests}) and ${attempts.studentId} = any(${ids})
    union
    select ${answers.studentId} from ${answers}
      where ${answers.testId} in (${editionTests}) and ${answers.studentId} = any(${ids})`);
  const list = (rows as unknown as { rows: { student_id: string }[] }).rows;
  return new Set(list.map((r) => r.student_id));
}

/** Removes the students from the edition and from every phase of it (see `removeEnrolments`). */
export async function deleteEnrolments(
  db: Db,
  editionId: string,
  studentIds: string[],
): Promise<void> {
  if (studentIds.length === 0) return;
  await db.delete(phaseStudents).where(
    and(
      inArray(phaseStudents.studentId, studentIds),
      sql`${phaseStudents.phaseId} in (select ${phases.id} from ${phases}
          where ${phases.editionId} = ${editionId})`,
    ),
  );
  await db
    .delete(editionStudents)
    .where(
      and(eq(editionStudents.editionId, editionId), inArray(editionStudents.studentId, studentIds)),
    );
}

export async function updateEnrolment(
  db: Db,
  editionId: string,
  studentId: string,
  patch: { grade?: number; studentCentre?: string | null },
): Promise<void> {
  await db
    .update(editionStudents)
    .set(patch)
    .where(and(eq(editionStudents.editionId, editionId), eq(editionStudents.studentId, studentId)));
}

/** Active, registered students of these teachers whose grade is one of `grades`. */
export async function findEligibleStudentsOf(
  db: Db,
  teacherIds: string[],
  grades: number[],
): Promise<StudentFacts[]> {
  if (teacherIds.length === 0 || grades.length === 0) return [];
  return db
    .select({
      id: users.id,
      type: users.type,
      state: users.state,
      registered: users.registered,
      teacherRef: users.teacherRef,
      grade: users.grade,
      studentCentre: users.studentCentre,
    })
    .from(users)
    .where(
      and(
        sql`${users.teacherRef} = any(${toUuidArray(teacherIds)})`,
        eq(users.type, 'student'),
        eq(users.state, 'active'),
        eq(users.registered, true),
        isNull(users.deletedAt),
        sql`${users.grade} = any(${`{${grades.join(',')}}`}::int[])`,
      ),
    );
}

/** Rows of the credentials spreadsheet, by family then given name. */
export async function findCredentialRows(db: Db, editionId: string, ownerId: string | undefined) {
  return db
    .select({
      familyName: users.familyName,
      givenName: users.givenName,
      email: users.email,
      county: users.county,
      bucharestSector: users.bucharestSector,
      school: users.school,
      grade: editionStudents.grade,
      studentCentre: editionStudents.studentCentre,
      username: editionStudents.cmsUsername,
      password: editionStudents.cmsPassword,
    })
    .from(editionStudents)
    .innerJoin(users, eq(users.id, editionStudents.studentId))
    .where(inEdition(editionId, ownerId))
    .orderBy(asc(users.familyNameNormalized), asc(users.givenNameNormalized), asc(users.id));
}

const liveEnrolmentOf = (studentId: string) =>
  and(
    eq(editionStudents.studentId, studentId),
    isNull(editions.deletedAt),
    isNull(exams.deletedAt),
  );

/** A student's enrolments with their exam and edition names. */
export async function findStudentEnrolments(db: Db, studentId: string) {
  return db
    .select({
      editionId: editions.id,
      editionName: editions.name,
      year: editions.year,
      examId: exams.id,
      examName: exams.name,
      subject: exams.subject,
      grade: editionStudents.grade,
      studentCentre: editionStudents.studentCentre,
      cmsUsername: editionStudents.cmsUsername,
      cmsPassword: editionStudents.cmsPassword,
      createdAt: editionStudents.createdAt,
    })
    .from(editionStudents)
    .innerJoin(editions, eq(editions.id, editionStudents.editionId))
    .innerJoin(exams, eq(exams.id, editions.examId))
    .where(liveEnrolmentOf(studentId))
    .orderBy(asc(exams.name), asc(editions.name), asc(editions.id));
}
