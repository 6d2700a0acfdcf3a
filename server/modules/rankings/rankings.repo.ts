// Reading a phase's maintained ranking (ranks.repo.ts keeps it): pages, counts, elevi.csv's
// rows, a student's standings.
import { and, eq, type SQL, sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { PhaseResult } from '../../../shared/schemas/exams.js';
import type { PhaseRules, Prize } from '../../../shared/schemas/rankings.js';
import { type Db, rowsOf } from '../../db/client.js';
import { phasePrizes, phaseRanks, phaseResults, phaseStudents, users } from '../../db/schema.js';
import {
  compileFilter,
  compileWhere,
  type ListResource,
  type ParsedFilter,
  type WhereNode,
} from '../../lib/filter/index.js';

/** The total as read (a JS number); filters and orders use the column itself, which is indexed. */
const totalSql = sql<number>`${phaseRanks.points}::float8`;
const activeSql = sql<boolean>`(${users.state} = 'active')`;

/** Staff's view: every field of the ranking row (shared/schemas/rankings.ts). */
export const staffRankingResource: ListResource = {
  name: 'rankings',
  fields: {
    _id: { column: phaseRanks.studentId, type: 'uuid' },
    familyName: { column: users.familyName, type: 'string' },
    givenName: { column: users.givenName, type: 'string' },
    familyNameNormalized: { column: users.familyNameNormalized, type: 'string', fold: 'name' },
    givenNameNormalized: { column: users.givenNameNormalized, type: 'string', fold: 'name' },
    studentCounty: { column: users.county, type: 'string' },
    studentSector: { column: users.bucharestSector, type: 'number' },
    studentGrade: { column: phaseRanks.grade, type: 'number' },
    school: { column: users.school, type: 'string' },
    code: { column: phaseRanks.code, type: 'string', sortable: false },
    rank: { column: phaseRanks.rank, type: 'number' },
    total: { column: phaseRanks.points, type: 'number' },
    status: { column: phaseStudents.result, type: 'string' },
    prize: { column: phasePrizes.prize, type: 'string' },
    active: { column: activeSql, type: 'boolean', sortable: false },
  },
  defaultOrder: ['studentGrade ASC', 'rank ASC'],
};

/**
 * A student's view of a published ranking: no names, schools or decisions to search by, and no
 * order that tells who signed up first. A row's `_id` is its random code; neither it nor any id
 * may be filtered or sorted by, and ties are listed by code (then by id, which only separates
 * two equal codes), never by the student's id (UUIDv7s carry their time).
 */
export const studentRankingResource: ListResource = {
  name: 'rankings',
  fields: {
    _id: {
      column: sql`(${phaseRanks.code}, ${phaseRanks.studentId})`,
      type: 'string',
      filterable: false,
      sortable: false,
    },
    studentCounty: { column: users.county, type: 'string' },
    studentGrade: { column: phaseRanks.grade, type: 'number' },
    rank: { column: phaseRanks.rank, type: 'number' },
    total: { column: phaseRanks.points, type: 'number' },
    prize: { column: phasePrizes.prize, type: 'string' },
  },
  defaultOrder: ['studentGrade ASC', 'rank ASC'],
};

export type RankedRow = {
  studentId: string;
  familyName: string | null;
  givenName: string | null;
  studentCounty: string | null;
  studentSector: number | null;
  studentGrade: number | null;
  school: string | null;
  code: string;
  rank: number;
  rankedInGrade: number;
  total: number;
  awaitingItems: number;
  status: PhaseResult | null;
  prize: Prize | null;
};

const rankedFields = {
  studentId: phaseRanks.studentId,
  familyName: users.familyName,
  givenName: users.givenName,
  studentCounty: users.county,
  studentSector: users.bucharestSector,
  studentGrade: phaseRanks.grade,
  school: users.school,
  code: phaseRanks.code,
  rank: phaseRanks.rank,
  rankedInGrade: phaseRanks.rankedInGrade,
  total: totalSql,
  awaitingItems: sql<number>`coalesce(${phaseResults.awaitingItems}, 0)`,
  status: phaseStudents.result,
  prize: phasePrizes.prize,
};

/** Who a list shows: the whole phase, or one teacher's students (ranked among everyone). */
export type RankingScope = { phaseId: string; teacherId?: string };

const scopeWhere = (scope: RankingScope, extra: SQL | undefined) =>
  and(
    eq(phaseRanks.phaseId, scope.phaseId),
    scope.teacherId === undefined ? undefined : eq(users.teacherRef, scope.teacherId),
    extra,
  );

/** The same fields named by alias, for reading raw rows from a cursor. */
const aliasedRankedFields = Object.fromEntries(
  Object.entries(rankedFields).map(([name, column]) => [name, sql`${column}`.as(name)]),
);

/** Ranked rows, read by field name (the same from a query and from a cursor). */
function rankedQuery(db: Db) {
  return db
    .select(aliasedRankedFields)
    .from(phaseRanks)
    .innerJoin(users, eq(users.id, phaseRanks.studentId))
    .innerJoin(
      phaseStudents,
      and(
        eq(phaseStudents.phaseId, phaseRanks.phaseId),
        eq(phaseStudents.studentId, phaseRanks.studentId),
      ),
    )
    .leftJoin(
      phaseResults,
      and(
        eq(phaseResults.phaseId, phaseRanks.phaseId),
        eq(phaseResults.studentId, phaseRanks.studentId),
      ),
    )
    .leftJoin(
      phasePrizes,
      and(
        eq(phasePrizes.phaseId, phaseRanks.phaseId),
        eq(phasePrizes.studentId, phaseRanks.studentId),
      ),
    )
    .$dynamic();
}

/**
 * Fields whose column is phase_ranks' own in both resources: a page filtered and ordered by
 * these alone is found in phase_ranks' indexes before anything is joined.
 */
const RANK_FIELDS = new Set(['_id', 'studentGrade', 'rank', 'total', 'code']);

function whereFields(node: WhereNode | undefined, into: string[] = []): string[] {
  if (!node) return into;
  if ('nodes' in node) {
    for (const child of node.nodes) whereFields(child, into);
  } else {
    into.push(node.field);
  }
  return into;
}

/**
 * Whether a list of the whole phase by these fields is picked from phase_ranks alone. Every
 * ranked student has their account and is a participant (the triggers of migration 0013 make
 * the next read rebuild after any change of either), so joining them first would only add
 * columns, never drop a row.
 */
const ranksAlone = (scope: RankingScope, fields: readonly string[]) =>
  scope.teacherId === undefined && fields.every((f) => RANK_FIELDS.has(f));

/** Whether these fields (or a teacher's scope) need the students' own columns. */
const needsStudents = (scope: RankingScope, fields: readonly string[]) =>
  scope.teacherId !== undefined ||
  fields.some((f) => !RANK_FIELDS.has(f) && f !== 'status' && f !== 'prize');

/** Joins a page's conditions and order need beyond phase_ranks and users. */
function joinsFor(fields: readonly string[]): SQL {
  const joins: SQL[] = [];
  if (fields.includes('status')) {
    joins.push(sql`join ${phaseStudents} on ${phaseStudents.phaseId} = ${phaseRanks.phaseId}
      and ${phaseStudents.studentId} = ${phaseRanks.studentId}`);
  }
  if (fields.includes('prize')) {
    joins.push(sql`left join ${phasePrizes} on ${phasePrizes.phaseId} = ${phaseRanks.phaseId}
      and ${phasePrizes.studentId} = ${phaseRanks.studentId}`);
  }
  return sql.join(joins, sql` `);
}

/**
 * A page's columns (RankedRow's, by name), as SQL text made once: the student's decision,
 * prize and items awaiting marking are read per row of the page by key, so a page joins two
 * tables, not five, and PostgreSQL plans it in a fraction of the time (planning the five-table
 * join took 1.4 ms, three times the page's own 0.4 ms).
 */
const PAGE_COLUMNS = sql.raw(
  new PgDialect().sqlToQuery(sql`select ${phaseRanks.studentId} as "studentId",
    ${users.familyName} as "familyName", ${users.givenName} as "givenName",
    ${users.county} as "studentCounty", ${users.bucharestSector} as "studentSector",
    ${phaseRanks.grade} as "studentGrade",
    ${users.school} as "school", ${phaseRanks.code} as "code", ${phaseRanks.rank} as "rank",
    ${phaseRanks.rankedInGrade} as "rankedInGrade", ${totalSql} as "total",
    coalesce((select r.awaiting_items from ${phaseResults} r
      where r.phase_id = ${phaseRanks.phaseId} and r.student_id = ${phaseRanks.studentId}), 0)
      as "awaitingItems",
    (select s.result from ${phaseStudents} s
      where s.phase_id = ${phaseRanks.phaseId} and s.student_id = ${phaseRanks.studentId})
      as "status",
    (select z.prize from ${phasePrizes} z
      where z.phase_id = ${phaseRanks.phaseId} and z.student_id = ${phaseRanks.studentId})
      as "prize"`).sql,
);

/**
 * The query of one page of a ranking (bench/explain-rankings.ts prints its plans). When the
 * filter and order need only phase_ranks (the whole phase, any grade, ordered by rank or
 * total), the page's students are picked from phase_ranks' index first (the index alone, when
 * the table's pages are all visible) and only they are read and joined, so a page deep down
 * the list (OFFSET 5000) walks index entries, not 5,000 students' rows. Otherwise one query
 * joins and filters as it goes.
 */
export function rankedPageQuery(
  scope: RankingScope,
  filter: ParsedFilter,
  resource: ListResource,
): SQL {
  const q = compileFilter(filter, resource);
  const fields = [...whereFields(filter.where), ...filter.order.map((o) => o.field)];
  const order = sql.join(q.orderBy, sql`, `);
  const students = sql`join ${users} on ${users.id} = ${phaseRanks.studentId}`;
  if (!ranksAlone(scope, fields)) {
    return sql`${PAGE_COLUMNS} from ${phaseRanks} ${students} ${joinsFor(fields)}
      where ${scopeWhere(scope, q.where)}
      order by ${order} limit ${q.limit} offset ${q.offset}`;
  }
  return sql`${PAGE_COLUMNS}
    from (select ${phaseRanks.studentId} as page_student_id from ${phaseRanks}
      where ${and(eq(phaseRanks.phaseId, scope.phaseId), q.where)}
      order by ${order} limit ${q.limit} offset ${q.offset}) as page
    join ${phaseRanks} on ${phaseRanks.phaseId} = ${scope.phaseId}
      and ${phaseRanks.studentId} = page.page_student_id
    ${students}
    order by ${order}`;
}

/** One page of a (fresh) ranking. */
export async function listRanked(
  db: Db,
  scope: RankingScope,
  filter: ParsedFilter,
  resource: ListResource,
): Promise<RankedRow[]> {
  const result = await db.execute(rankedPageQuery(scope, filter, resource));
  return rowsOf<Record<string, unknown>>(result).map(toRankedRow);
}

export async function countRanked(
  db: Db,
  scope: RankingScope,
  where: WhereNode | undefined,
  resource: ListResource,
): Promise<number> {
  const result = await db.execute(countRankedQuery(scope, where, resource));
  return Number(rowsOf<{ n: number }>(result)[0]?.n ?? 0);
}

/**
 * The count's query (bench/explain-rankings.ts prints its plan). Only the tables the condition
 * names are joined: a count of a grade is read from phase_ranks' index alone, one of a county
 * joins the students, not their decisions too.
 */
export function countRankedQuery(
  scope: RankingScope,
  where: WhereNode | undefined,
  resource: ListResource,
): SQL {
  const fields = whereFields(where);
  const students = needsStudents(scope, fields)
    ? sql`join ${users} on ${users.id} = ${phaseRanks.studentId}`
    : sql``;
  return sql`select count(*)::int as n from ${phaseRanks} ${students} ${joinsFor(fields)}
    where ${scopeWhere(scope, compileWhere(where, resource))}`;
}

/** Every row the filter matches, in its order (bench/explain-rankings.ts prints its plan). */
export function exportQuery(
  db: Db,
  scope: RankingScope,
  filter: ParsedFilter,
  resource: ListResource,
) {
  const q = compileFilter(filter, resource);
  return rankedQuery(db)
    .where(scopeWhere(scope, q.where))
    .orderBy(...q.orderBy);
}

/** The export's sort memory: a phase of 100,000 is sorted in memory, larger ones on disk. */
const EXPORT_WORK_MEM = '32MB';

/**
 * Every row the filter matches (no limit), in its order, handed over `batch` rows at a time
 * from a cursor in one read-only transaction: memory holds two batches, whatever the count.
 * `onRows` may wait (the HTTP stream's back-pressure); throwing stops and closes the cursor.
 */
export async function streamRanked(
  db: Db,
  scope: RankingScope,
  filter: ParsedFilter,
  resource: ListResource,
  batch: number,
  onRows: (rows: RankedRow[]) => Promise<void>,
): Promise<void> {
  const query = exportQuery(db, scope, filter, resource);
  await db.transaction(
    async (tx) => {
      // A cursor is planned for its first rows by default (cursor_tuple_fraction 0.1): index
      // scans and a nested loop per student. Every row will be read, so plan for all of them
      // (hash joins and one sort), as a plain query would be; and sort 100,000 rows in memory
      // (about 20 MB) rather than on disk.
      await tx.execute(sql`select set_config('cursor_tuple_fraction', '1', true),
        set_config('work_mem', ${EXPORT_WORK_MEM}, true)`);
      await tx.execute(sql`declare ranking_rows no scroll cursor for ${query}`);
      const fetchBatch = async () =>
        rowsOf<Record<string, unknown>>(
          await tx.execute(sql`fetch ${sql.raw(String(batch))} from ranking_rows`),
        ).map(toRankedRow);
      // The next batch is asked for before this one is handed over, so PostgreSQL sends it
      // while this one is written out: two batches in memory at most.
      let next = fetchBatch();
      for (;;) {
        const rows = await next;
        const more = rows.length === batch;
        if (more) {
          next = fetchBatch();
          // Should onRows fail, the transaction ends and this fetch with it.
          next.catch(() => {});
        }
        if (rows.length > 0) await onRows(rows);
        if (!more) break;
      }
      await tx.execute(sql`close ranking_rows`);
    },
    { accessMode: 'read only' },
  );
}

/** A raw cursor row (aliased by field name) as a ranked row. */
function toRankedRow(r: Record<string, unknown>): RankedRow {
  const text = (v: unknown) => (v === null || v === undefined ? null : String(v));
  return {
    studentId: String(r.studentId),
    familyName: text(r.familyName),
    givenName: text(r.givenName),
    studentCounty: text(r.studentCounty),
    studentSector:
      r.studentSector === null || r.studentSector === undefined ? null : Number(r.studentSector),
    studentGrade: r.studentGrade === null ? null : Number(r.studentGrade),
    school: text(r.school),
    code: String(r.code),
    rank: Number(r.rank),
    rankedInGrade: Number(r.rankedInGrade),
    total: Number(r.total),
    awaitingItems: Number(r.awaitingItems ?? 0),
    status: text(r.status) as PhaseResult | null,
    prize: text(r.prize) as Prize | null,
  };
}

/** Ranked students per grade. */
export async function countByGrade(
  db: Db,
  phaseId: string,
): Promise<{ grade: number | null; ranked: number }[]> {
  return db
    .select({ grade: phaseRanks.grade, ranked: sql<number>`count(*)::int` })
    .from(phaseRanks)
    .where(eq(phaseRanks.phaseId, phaseId))
    .groupBy(phaseRanks.grade)
    .orderBy(phaseRanks.grade);
}

/** One student's row in a (fresh) ranking, or undefined when not ranked. */
export async function findRanked(
  db: Db,
  phaseId: string,
  studentId: string,
): Promise<RankedRow | undefined> {
  const [row] = await rankedQuery(db).where(
    and(eq(phaseRanks.phaseId, phaseId), eq(phaseRanks.studentId, studentId)),
  );
  return row ? toRankedRow(row as Record<string, unknown>) : undefined;
}

/** The phases in which a student is ranked (the caller rebuilds stale ones first). */
export async function phasesOfStudent(db: Db, studentId: string): Promise<string[]> {
  const result = await db.execute(sql`
    select distinct ps.phase_id from phase_students ps
    join phase_results pr on pr.phase_id = ps.phase_id and pr.student_id = ps.student_id
    join phases p on p.id = ps.phase_id and p.deleted_at is null
    where ps.student_id = ${studentId}`);
  return rowsOf<{ phase_id: string }>(result).map((r) => r.phase_id);
}

/** A student's ranked rows with their phase, edition and exam (newest phase first). */
export async function findStudentStandings(db: Db, studentId: string) {
  const result = await db.execute(sql`
    select r.phase_id, p.name as phase_name, p.state as phase_state, p.appeal_end_date,
      e.id as edition_id, e.name as edition_name, x.id as exam_id, x.name as exam_name,
      r.grade, r.rank, r.ranked_in_grade, r.points::float8 as total,
      coalesce(pr.awaiting_items, 0) as awaiting_items, ps.result, pz.prize, rl.rules,
      r.code
    from phase_ranks r
    join phase_students ps on ps.phase_id = r.phase_id and ps.student_id = r.student_id
    join phases p on p.id = r.phase_id and p.deleted_at is null
    join editions e on e.id = p.edition_id and e.deleted_at is null
    join exams x on x.id = e.exam_id and x.deleted_at is null
    left join phase_results pr on pr.phase_id = r.phase_id and pr.student_id = r.student_id
    left join phase_prizes pz on pz.phase_id = r.phase_id and pz.student_id = r.student_id
    left join phase_rules rl on rl.phase_id = r.phase_id
    where r.student_id = ${studentId}
    order by p.start_date desc, p.id`);
  return rowsOf<{
    phase_id: string;
    phase_name: string;
    phase_state: 'open' | 'closed';
    appeal_end_date: string | Date | null;
    edition_id: string;
    edition_name: string;
    exam_id: string;
    exam_name: string;
    grade: number | null;
    rank: number;
    ranked_in_grade: number;
    total: number;
    awaiting_items: number;
    result: PhaseResult | null;
    prize: Prize | null;
    rules: PhaseRules | string | null;
    code: string;
  }>(result);
}
