import { and, eq, isNull, type SQL, sql } from 'drizzle-orm';
import { SEARCH_PER_KIND } from '../../../shared/schemas/home.js';
import type { Db } from '../../db/client.js';
import {
  editionCoordinators,
  editions,
  exams,
  examTeachers,
  phaseStudents,
  phases,
  questions,
  tests,
  users,
} from '../../db/schema.js';

/** `%text%` for LIKE, with the pattern's own characters taken literally. */
export const containing = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

const livePath = sql`${phases.deletedAt} is null and ${editions.deletedAt} is null
  and ${exams.deletedAt} is null`;

/** Teachers see a competition's phases through a role on it or an edition they coordinate. */
const teacherSeesEdition = (teacherId: string): SQL => sql`(
  exists (select 1 from ${examTeachers} where ${examTeachers.examId} = ${exams.id}
    and ${examTeachers.teacherId} = ${teacherId})
  or exists (select 1 from ${editionCoordinators}
    where ${editionCoordinators.editionId} = ${editions.id}
    and ${editionCoordinators.teacherId} = ${teacherId}))`;

/** Tests and the bank: the competition's admins and staff (tests.policy, questions.policy). */
const teacherHasExamRole = (teacherId: string): SQL =>
  sql`exists (select 1 from ${examTeachers} where ${examTeachers.examId} = ${exams.id}
    and ${examTeachers.teacherId} = ${teacherId})`;

export async function searchPeople(
  db: Db,
  pattern: string,
  scope: SQL | undefined,
  teachers: boolean,
) {
  // Either order of the names, or the address.
  const given = sql`coalesce(${users.givenNameNormalized}, '')`;
  const family = sql`coalesce(${users.familyNameNormalized}, '')`;
  const name = sql`(${given} || ' ' || ${family} || ' | ' || ${family} || ' ' || ${given}
    || ' | ' || ${users.email}) like ${pattern}`;
  const kinds = teachers
    ? sql`(${users.type} = 'teacher' or (${users.type} = 'student' and ${scope ?? sql`true`}))`
    : and(eq(users.type, 'student'), scope);
  return db
    .select({
      id: users.id,
      type: users.type,
      givenName: users.givenName,
      familyName: users.familyName,
      email: users.email,
      school: users.school,
    })
    .from(users)
    .where(and(isNull(users.deletedAt), kinds, name))
    .orderBy(users.familyNameNormalized, users.givenNameNormalized, users.id)
    .limit(SEARCH_PER_KIND);
}

export async function searchExams(db: Db, pattern: string, scope: SQL | undefined) {
  return db
    .select({ id: exams.id, name: exams.name, subject: exams.subject })
    .from(exams)
    .where(and(isNull(exams.deletedAt), scope, sql`${exams.nameNormalized} like ${pattern}`))
    .orderBy(exams.nameNormalized, exams.id)
    .limit(SEARCH_PER_KIND);
}

const pathColumns = {
  examId: exams.id,
  examName: exams.name,
  editionId: editions.id,
  editionName: editions.name,
  phaseId: phases.id,
  phaseName: phases.name,
};

export async function searchPhases(db: Db, pattern: string, actor: { id: string; type: string }) {
  const scope = actor.type === 'admin' ? undefined : teacherSeesEdition(actor.id);
  return db
    .select(pathColumns)
    .from(phases)
    .innerJoin(editions, eq(editions.id, phases.editionId))
    .innerJoin(exams, eq(exams.id, editions.examId))
    .where(and(livePath, scope, sql`lower(${phases.name}) like lower(${pattern})`))
    .orderBy(phases.startDate, phases.id)
    .limit(SEARCH_PER_KIND);
}

/** Tests by name: staff's of their competitions, a student's own (published, in their phase). */
export async function searchTests(db: Db, pattern: string, actor: { id: string; type: string }) {
  const scope =
    actor.type === 'admin'
      ? undefined
      : actor.type === 'teacher'
        ? teacherHasExamRole(actor.id)
        : sql`${tests.published} and exists (select 1 from ${phaseStudents}
            where ${phaseStudents.phaseId} = ${phases.id}
            and ${phaseStudents.studentId} = ${actor.id})`;
  return db
    .select({ ...pathColumns, id: tests.id, name: tests.name })
    .from(tests)
    .innerJoin(phases, eq(phases.id, tests.phaseId))
    .innerJoin(editions, eq(editions.id, phases.editionId))
    .innerJoin(exams, eq(exams.id, editions.examId))
    .where(and(livePath, scope, sql`lower(${tests.name}) like lower(${pattern})`))
    .orderBy(tests.startDate, tests.id)
    .limit(SEARCH_PER_KIND);
}

/** Bank questions by statement: admins, and the competition's admins and staff. */
export async function searchQuestions(
  db: Db,
  pattern: string,
  actor: { id: string; type: string },
) {
  const scope = actor.type === 'admin' ? undefined : teacherHasExamRole(actor.id);
  return db
    .select({ ...pathColumns, id: questions.id, text: questions.itemQ })
    .from(questions)
    .innerJoin(phases, eq(phases.id, questions.phaseId))
    .innerJoin(editions, eq(editions.id, phases.editionId))
    .innerJoin(exams, eq(exams.id, editions.examId))
    .where(
      and(
        livePath,
        isNull(questions.deletedAt),
        scope,
        sql`lower(${questions.itemQ}) like lower(${pattern})`,
      ),
    )
    .orderBy(questions.createdAt, questions.id)
    .limit(SEARCH_PER_KIND);
}
