import { and, asc, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { exams, examTeachers, users } from '../../db/schema.js';
import {
  compileOrder,
  type ListResource,
  type ParsedFilter,
  type WhereNode,
} from '../../lib/filter/index.js';
import { compilePeopleWhere, livePeople } from './people.repo.js';
import { type PersonRow, personColumns } from './users.repo.js';

/** Teachers with a role of this kind on a live competition. */
const hasExamRole = (role: 'admin' | 'staff') => sql`exists (
  select 1 from ${examTeachers}
  join ${exams} on ${exams.id} = ${examTeachers.examId} and ${exams.deletedAt} is null
  where ${examTeachers.teacherId} = ${users.id} and ${examTeachers.role} = ${role})`;

const isStaffSql = hasExamRole('staff');
const isExamAdminSql = hasExamRole('admin');

/** The teachers list's allow-list, with the computed "staff" and "exam admin" flags. */
export const teachersResource: ListResource = {
  name: 'teachers',
  fields: {
    _id: { column: users.id, type: 'uuid' },
    email: { column: users.email, type: 'string', fold: 'lower' },
    familyName: { column: users.familyNameNormalized, type: 'string', fold: 'name' },
    givenName: { column: users.givenNameNormalized, type: 'string', fold: 'name' },
    county: { column: users.county, type: 'string' },
    country: { column: users.country, type: 'string' },
    city: { column: users.city, type: 'string' },
    school: { column: users.school, type: 'string' },
    state: { column: users.state, type: 'string' },
    discipline: { column: users.discipline, type: 'string' },
    teacherCode: { column: users.teacherCode, type: 'string', fold: 'upper' },
    registered: { column: users.registered, type: 'boolean' },
    createdAt: { column: users.createdAt, type: 'date' },
    isStaff: { column: isStaffSql, type: 'boolean' },
    isExamAdmin: { column: isExamAdminSql, type: 'boolean' },
  },
  defaultOrder: ['familyName ASC'],
};

/** Live teachers matching `where` (every active teacher and admin sees all of them). */
export function teachersCondition(where: WhereNode | undefined): SQL {
  return and(livePeople('teacher'), compilePeopleWhere(where, teachersResource)) as SQL;
}

export type TeacherRow = PersonRow & { isStaff: boolean; isExamAdmin: boolean };

const withFlags = {
  isStaff: sql<boolean>`${isStaffSql}`,
  isExamAdmin: sql<boolean>`${isExamAdminSql}`,
};

export async function listTeachers(
  db: Db,
  filter: ParsedFilter,
  condition: SQL,
): Promise<TeacherRow[]> {
  return db
    .select({ ...personColumns, ...withFlags })
    .from(users)
    .where(condition)
    .orderBy(...compileOrder(filter.order, teachersResource))
    .limit(filter.limit)
    .offset(filter.skip);
}

/** Teachers for the spreadsheet, by county then names, at most `max` rows. */
export async function teachersForDownload(
  db: Db,
  condition: SQL,
  max: number,
): Promise<TeacherRow[]> {
  return db
    .select({ ...personColumns, ...withFlags })
    .from(users)
    .where(condition)
    .orderBy(
      sql`${users.county} asc nulls last`,
      asc(users.familyNameNormalized),
      asc(users.givenNameNormalized),
      asc(users.id),
    )
    .limit(max);
}
