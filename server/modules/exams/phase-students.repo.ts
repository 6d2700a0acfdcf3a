import { and, eq, inArray, isNull, type SQL, sql } from 'drizzle-orm';
import type { PhaseResult } from '../../../shared/schemas/exams.js';
import type { Db } from '../../db/client.js';
import { editionStudents, phaseResults, phaseStudents, phases, users } from '../../db/schema.js';
import {
  compileFilter,
  compileWhere,
  type ListResource,
  type ParsedFilter,
  type WhereNode,
} from '../../lib/filter/index.js';

/** The grade a student competes in: the edition's record of it, else their profile's. */
const gradeSql = sql<number | null>`coalesce(${editionStudents.grade}, ${users.grade})`;

/**
 * A student's total in the phase and the items still to mark, kept by the results module
 * (`phase_results`, joined on the participant); null: no result in the phase yet.
 */
const phaseTotalSql = sql<number | null>`${phaseResults.points}::float8`;
const awaitingItemsSql = sql<number | null>`${phaseResults.awaitingItems}`;

const resultJoin = and(
  eq(phaseResults.phaseId, phaseStudents.phaseId),
  eq(phaseResults.studentId, phaseStudents.studentId),
);

/** `GET …/phases/{phaseId}/students?filter=` (SPEC.md §3 stage student). */
export const phaseStudentsResource: ListResource = {
  name: 'phaseStudents',
  fields: {
    studentId: { column: phaseStudents.studentId, type: 'uuid' },
    familyName: { column: users.familyName, type: 'string' },
    givenName: { column: users.givenName, type: 'string' },
    // Lower-case without diacritics, for a search that finds "Țurcanu" from "turcanu".
    familyNameNormalized: { column: users.familyNameNormalized, type: 'string' },
    givenNameNormalized: { column: users.givenNameNormalized, type: 'string' },
    studentCounty: { column: users.county, type: 'string' },
    studentSector: { column: users.bucharestSector, type: 'number' },
    studentGrade: { column: gradeSql, type: 'number' },
    studentCentre: { column: editionStudents.studentCentre, type: 'string' },
    school: { column: users.school, type: 'string' },
    status: { column: phaseStudents.result, type: 'string' },
    total: { column: phaseTotalSql, type: 'number' },
    awaitingItems: { column: awaitingItemsSql, type: 'number' },
  },
  defaultOrder: ['givenName ASC'],
  tiebreak: 'studentId',
};

export type PhaseStudentRow = {
  studentId: string;
  familyName: string | null;
  givenName: string | null;
  studentCounty: string | null;
  studentSector: number | null;
  studentGrade: number | null;
  studentCentre: string | null;
  school: string | null;
  status: PhaseResult | null;
  total: number | null;
  awaitingItems: number | null;
};

const enrolmentJoin = and(
  eq(editionStudents.editionId, phases.editionId),
  eq(editionStudents.studentId, phaseStudents.studentId),
);

/** Live participants of one phase; `ownerId`: only the students of that teacher. */
const inPhase = (phaseId: string, ownerId: string | undefined, extra?: SQL) =>
  and(
    eq(phaseStudents.phaseId, phaseId),
    isNull(users.deletedAt),
    ownerId === undefined ? undefined : eq(users.teacherRef, ownerId),
    extra,
  );

const rowFields = {
  studentId: phaseStudents.studentId,
  familyName: users.familyName,
  givenName: users.givenName,
  studentCounty: users.county,
  studentSector: users.bucharestSector,
  studentGrade: gradeSql,
  studentCentre: editionStudents.studentCentre,
  school: users.school,
  status: phaseStudents.result,
  total: phaseTotalSql,
  awaitingItems: awaitingItemsSql,
};

export async function listPhaseStudents(
  db: Db,
  phaseId: string,
  filter: ParsedFilter,
  ownerId: string | undefined,
): Promise<PhaseStudentRow[]> {
  const q = compileFilter(filter, phaseStudentsResource);
  return db
    .select(rowFields)
    .from(phaseStudents)
    .innerJoin(users, eq(users.id, phaseStudents.studentId))
    .innerJoin(phases, eq(phases.id, phaseStudents.phaseId))
    .leftJoin(editionStudents, enrolmentJoin)
    .leftJoin(phaseResults, resultJoin)
    .where(inPhase(phaseId, ownerId, q.where))
    .orderBy(...q.orderBy)
    .limit(q.limit)
    .offset(q.offset);
}

export async function countPhaseStudents(
  db: Db,
  phaseId: string,
  where: WhereNode | undefined,
  ownerId: string | undefined,
): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(phaseStudents)
    .innerJoin(users, eq(users.id, phaseStudents.studentId))
    .innerJoin(phases, eq(phases.id, phaseStudents.phaseId))
    .leftJoin(editionStudents, enrolmentJoin)
    .leftJoin(phaseResults, resultJoin)
    .where(inPhase(phaseId, ownerId, compileWhere(where, phaseStudentsResource)));
  return row?.n ?? 0;
}

/** Current decisions of these participants (absent ids are not in the phase). */
export async function findResults(
  db: Db,
  phaseId: string,
  studentIds: string[],
): Promise<{ studentId: string; result: PhaseResult | null }[]> {
  return db
    .select({ studentId: phaseStudents.studentId, result: phaseStudents.result })
    .from(phaseStudents)
    .innerJoin(users, eq(users.id, phaseStudents.studentId))
    .where(
      and(
        eq(phaseStudents.phaseId, phaseId),
        inArray(phaseStudents.studentId, studentIds),
        isNull(users.deletedAt),
      ),
    );
}

export async function setResults(
  db: Db,
  phaseId: string,
  studentIds: string[],
  result: PhaseResult,
): Promise<void> {
  if (studentIds.length === 0) return;
  await db
    .update(phaseStudents)
    .set({ result, updatedAt: sql`now()` })
    .where(and(eq(phaseStudents.phaseId, phaseId), inArray(phaseStudents.studentId, studentIds)));
}

/**
 * Participants not yet admitted whose phase total qualifies: in the best `top` of their grade
 * (ties at the cut all qualify, as olympiads do) and/or at least `minScore`.
 */
export async function findQualifying(
  db: Db,
  phaseId: string,
  rule: { grade?: number; top?: number; minScore?: number },
): Promise<string[]> {
  const ranked = db
    .select({
      studentId: phaseStudents.studentId,
      result: phaseStudents.result,
      score: sql<number | null>`${phaseTotalSql}`.as('score'),
      rank: sql<number>`rank() over (partition by ${gradeSql} order by ${phaseTotalSql} desc)`.as(
        'rank',
      ),
    })
    .from(phaseStudents)
    .innerJoin(users, eq(users.id, phaseStudents.studentId))
    .innerJoin(phases, eq(phases.id, phaseStudents.phaseId))
    .leftJoin(editionStudents, enrolmentJoin)
    .leftJoin(phaseResults, resultJoin)
    .where(
      inPhase(
        phaseId,
        undefined,
        and(
          sql`${phaseTotalSql} is not null`,
          rule.grade === undefined ? undefined : sql`${gradeSql} = ${rule.grade}`,
        ),
      ),
    )
    .as('ranked');
  const rows = await db
    .select({ studentId: ranked.studentId })
    .from(ranked)
    .where(
      and(
        sql`${ranked.result} is distinct from 'admitted'`,
        rule.top === undefined ? undefined : sql`${ranked.rank} <= ${rule.top}`,
        rule.minScore === undefined ? undefined : sql`${ranked.score} >= ${rule.minScore}`,
      ),
    );
  return rows.map((r) => r.studentId);
}

/** Takes the registration row FOR KEY SHARE (see `holdRegistration`); false when there is none. */
export async function holdPhaseStudent(db: Db, phaseId: string, studentId: string) {
  const [row] = await db
    .select({ studentId: phaseStudents.studentId })
    .from(phaseStudents)
    .where(and(eq(phaseStudents.phaseId, phaseId), eq(phaseStudents.studentId, studentId)))
    .for('key share');
  return row !== undefined;
}
