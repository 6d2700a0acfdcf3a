import { and, asc, eq, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client.js';
import { editionStudents, editions, users } from '../../db/schema.js';
import {
  compileOrder,
  compileWhere,
  type ListResource,
  type ParsedFilter,
  type WhereNode,
} from '../../lib/filter/index.js';
import type { StudentScope } from './people.policy.js';
import {
  compilePeopleWhere,
  enrolledInExamSql,
  livePeople,
  studentScopeSql,
} from './people.repo.js';
import { type PersonRow, personColumns } from './users.repo.js';

/**
 * The students list's allow-list. Names map to the normalized columns, so search and order are
 * case- and accent-insensitive and use the trigram and (type, family name, id) indexes.
 */
export const studentsResource: ListResource = {
  name: 'students',
  fields: {
    _id: { column: users.id, type: 'uuid' },
    email: { column: users.email, type: 'string', fold: 'lower' },
    familyName: { column: users.familyNameNormalized, type: 'string', fold: 'name' },
    givenName: { column: users.givenNameNormalized, type: 'string', fold: 'name' },
    county: { column: users.county, type: 'string' },
    bucharestSector: { column: users.bucharestSector, type: 'number' },
    country: { column: users.country, type: 'string' },
    city: { column: users.city, type: 'string' },
    school: { column: users.school, type: 'string' },
    grade: { column: users.grade, type: 'number' },
    state: { column: users.state, type: 'string' },
    teacherRef: { column: users.teacherRef, type: 'uuid' },
    studentCentre: { column: users.studentCentre, type: 'string' },
    registered: { column: users.registered, type: 'boolean' },
    createdAt: { column: users.createdAt, type: 'date' },
    // A relation, compiled by `enrolmentCondition`; the column is only its value type.
    editionId: { column: editionStudents.editionId, type: 'uuid', sortable: false },
  },
  defaultOrder: ['familyName ASC'],
};

const enrolmentResource: ListResource = {
  name: 'enrolments',
  fields: {
    _id: { column: editionStudents.editionId, type: 'uuid' },
    editionId: { column: editionStudents.editionId, type: 'uuid' },
  },
  defaultOrder: [],
};

const enrolled = (condition?: SQL) => sql`${users.id} in (
  select ${editionStudents.studentId} from ${editionStudents}
  join ${editions} on ${editions.id} = ${editionStudents.editionId}
  where ${editions.deletedAt} is null${condition ? sql` and ${condition}` : sql``})`;

/** `editionId` conditions: enrolled (or, for negations, not enrolled) in those editions. */
function enrolmentCondition(c: Extract<WhereNode, { field: string }>): SQL {
  const on = (node: WhereNode) => compileWhere(node, enrolmentResource);
  switch (c.op) {
    case 'eq':
      return c.value === null ? sql`not (${enrolled()})` : enrolled(on(c));
    case 'neq':
      return c.value === null ? enrolled() : sql`not (${enrolled(on({ ...c, op: 'eq' }))})`;
    case 'nin':
      return sql`not (${enrolled(on({ ...c, op: 'inq' }))})`;
    case 'exists':
      return c.value ? enrolled() : sql`not (${enrolled()})`;
    default:
      return enrolled(on(c));
  }
}

/** The whole condition of a students query: live students, scope, competition and `where`. */
export function studentsCondition(
  where: WhereNode | undefined,
  scope: StudentScope,
  examId?: string,
): SQL {
  const filter = compilePeopleWhere(where, studentsResource, {
    editionId: enrolmentCondition,
  });
  return and(
    livePeople('student'),
    studentScopeSql(scope),
    examId ? enrolledInExamSql(examId) : undefined,
    filter,
  ) as SQL;
}

/** The query of one page of students, in the filter's order (ties broken by id). */
export const studentsPageQuery = (db: Db, filter: ParsedFilter, condition: SQL) =>
  db
    .select(personColumns)
    .from(users)
    .where(condition)
    .orderBy(...compileOrder(filter.order, studentsResource))
    .limit(filter.limit)
    .offset(filter.skip);

export async function listStudents(
  db: Db,
  filter: ParsedFilter,
  condition: SQL,
): Promise<PersonRow[]> {
  return studentsPageQuery(db, filter, condition);
}

const teacher = alias(users, 'teacher');

export type StudentExportRow = PersonRow & {
  teacherCodeOfTeacher: string | null;
  teacherFamilyName: string | null;
  teacherGivenName: string | null;
};

/** Active students for the spreadsheet, by county then names, at most `max` rows. */
export async function studentsForDownload(
  db: Db,
  condition: SQL,
  max: number,
): Promise<StudentExportRow[]> {
  return db
    .select({
      ...personColumns,
      teacherCodeOfTeacher: teacher.teacherCode,
      teacherFamilyName: teacher.familyName,
      teacherGivenName: teacher.givenName,
    })
    .from(users)
    .leftJoin(teacher, eq(teacher.id, users.teacherRef))
    .where(and(condition, eq(users.state, 'active')))
    .orderBy(
      sql`${users.county} asc nulls last`,
      asc(users.familyNameNormalized),
      asc(users.givenNameNormalized),
      asc(users.id),
    )
    .limit(max);
}
