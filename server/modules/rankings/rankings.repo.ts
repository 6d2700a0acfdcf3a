import { performance } from 'node:perf_hooks';
import { and, eq, type SQL, sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { PhaseResult } from '../../../shared/schemas/exams.js';
import type { PhaseRules, Prize, TieBreak } from '../../../shared/schemas/rankings.js';
import type { Db } from '../../db/client.js';
import {
  phasePrizes,
  phaseRanks,
  phaseResults,
  phaseRules,
  phaseStudents,
  rankingChanges,
  rankingState,
  users,
} from '../../db/schema.js';
import {
  compileFilter,
  compileWhere,
  type ListResource,
  type ParsedFilter,
  type WhereNode,
} from '../../lib/filter/index.js';

type Rows<T> = { rows: T[] };
const rowsOf = <T>(result: unknown) => (result as Rows<T>).rows;

// ---------------------------------------------------------------------------------------
// The maintained ranking

const staleSql = (phaseId: string) => sql`(
  coalesce((select computed_at is null from ${rankingState} where phase_id = ${phaseId}), true)
  or exists (select 1 from ${rankingChanges} where phase_id = ${phaseId}))`;

/** Whether a phase's ranking must be rebuilt before it is read: never made, or changed since. */
export async function isStale(db: Db, phaseId: string): Promise<boolean> {
  const result = await db.execute(sql`select ${staleSql(phaseId)} as stale`);
  return rowsOf<{ stale: boolean }>(result)[0]?.stale !== false;
}

/**
 * Whether a phase's ranking is stale, how long its last rebuild took (null: never made) and
 * whether a rebuild in the background is already asked for.
 */
export type Freshness = { stale: boolean; rebuildMs: number | null; wanted: boolean };

/** The phase's rules (undefined: the defaults) and the freshness of its ranking, in one look-up. */
export async function findRankingState(
  db: Db,
  phaseId: string,
): Promise<Freshness & { rules: PhaseRules | undefined }> {
  const result = await db.execute(sql`
    select (select ${phaseRules.rules} from ${phaseRules} where ${phaseRules.phaseId} = ${phaseId})
        as rules,
      ${staleSql(phaseId)} as stale,
      (select ${rankingState.rebuildMs} from ${rankingState}
        where ${rankingState.phaseId} = ${phaseId}) as rebuild_ms,
      exists (select 1 from ${rankingState} where ${rankingState.phaseId} = ${phaseId}
        and ${rankingState.wantedAt} is not null) as wanted`);
  const [row] = rowsOf<{
    rules: PhaseRules | string | null;
    stale: boolean;
    rebuild_ms: number | null;
    wanted: boolean;
  }>(result);
  const rules = typeof row?.rules === 'string' ? (JSON.parse(row.rules) as PhaseRules) : row?.rules;
  return {
    rules: rules ?? undefined,
    stale: row?.stale !== false,
    rebuildMs: row?.rebuild_ms ?? null,
    wanted: row?.wanted === true,
  };
}

/** How many students have a phase total: what a first ranking of the phase will rank. */
export async function countResults(db: Db, phaseId: string): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(phaseResults)
    .where(eq(phaseResults.phaseId, phaseId));
  return row?.n ?? 0;
}

/**
 * Asks the background job to rebuild the phase's ranking. Never waits on a rebuild in
 * progress: the job holds the state row while `wanted_at` is set, and this writes only where
 * it is not.
 */
export async function askForRebuild(db: Db, phaseId: string): Promise<void> {
  await db.execute(sql`insert into ${rankingState} (phase_id, wanted_at)
    values (${phaseId}, now()) on conflict (phase_id) do nothing`);
  await db.execute(sql`update ${rankingState} set wanted_at = now()
    where phase_id = ${phaseId} and wanted_at is null`);
}

/**
 * Takes one phase whose rebuild the background job was asked for (oldest first), locked for
 * the caller's transaction; one another process holds is skipped.
 */
export async function takeWantedRebuild(tx: Db): Promise<string | undefined> {
  const result = await tx.execute(sql`select phase_id from ${rankingState}
    where wanted_at is not null order by wanted_at limit 1 for update skip locked`);
  return rowsOf<{ phase_id: string }>(result)[0]?.phase_id;
}

/**
 * Takes the phase's ranking for a rebuild (one at a time per phase; others wait here) and
 * answers whether it still needs one once taken.
 */
export async function lockForRebuild(tx: Db, phaseId: string): Promise<boolean> {
  await tx.execute(sql`insert into ${rankingState} (phase_id) values (${phaseId})
    on conflict (phase_id) do nothing`);
  await tx.execute(sql`select 1 from ${rankingState} where phase_id = ${phaseId} for update`);
  return isStale(tx, phaseId);
}

/**
 * The items' points of each student's tests in the phase, from the last item back: the key of
 * the `items_from_last` tie-break (compared element by element, higher first).
 */
const itemsFromLastKey = (phaseId: SQL) => sql`(
  select array_agg(coalesce(a.score, 0) order by t.id, ti.position desc)
  from test_results tr
  join tests t on t.id = tr.test_id
  join test_items ti on ti.test_id = tr.test_id
  left join answers a on a.test_id = tr.test_id and a.student_id = tr.student_id
    and a.question_id = ti.question_id and a.score_state = 'decided'
  where tr.phase_id = ${phaseId} and tr.student_id = ps.student_id)`;

/**
 * Every live participant of the phase with a phase total, ranked in their grade (rank(): ties
 * share it, 1, 2, 2, 4), with the tie-break's key when there is one. The one definition of a
 * rank, used to rebuild the maintained ranking and by the rules' dry run and apply.
 */
function rankedCte(phaseId: string, tieBreak: TieBreak): SQL {
  const phase = sql`${phaseId}::uuid`;
  const tieKey = tieBreak === 'items_from_last' ? itemsFromLastKey(phase) : sql`null::numeric[]`;
  return sql`base as (
      select ps.student_id, coalesce(es.grade, u.grade) as grade, pr.points, ${tieKey} as tie_key
      from phase_students ps
      join users u on u.id = ps.student_id and u.deleted_at is null
      join phases p on p.id = ps.phase_id
      join phase_results pr on pr.phase_id = ps.phase_id and pr.student_id = ps.student_id
      left join edition_students es on es.edition_id = p.edition_id
        and es.student_id = ps.student_id
      where ps.phase_id = ${phase}
    ),
    ranked as (
      select student_id, grade, points, tie_key,
        rank() over (partition by grade order by points desc, tie_key desc nulls last)::int
          as rank,
        count(*) over (partition by grade)::int as ranked_in_grade
      from base
    )`;
}

/**
 * Rebuilds a phase's ranking in the caller's transaction (after `lockForRebuild`): the change
 * notes seen now are dropped first, then the ranks are made again; only rows whose rank, grade
 * or total moved are written. A change committed after the first statement leaves its note,
 * so the next read rebuilds again. Notes how long it took and that no rebuild is wanted any
 * more. Answers how many rows were written or removed.
 */
export async function rebuildRanks(
  tx: Db,
  phaseId: string,
  tieBreak: TieBreak,
  at: Date,
): Promise<number> {
  const started = performance.now();
  await tx.execute(sql`delete from ${rankingChanges} where phase_id = ${phaseId}`);
  const moved = await tx.execute(sql`
    with ${rankedCte(phaseId, tieBreak)},
    written as (
      insert into phase_ranks as r
        (phase_id, student_id, grade, points, tie_key, rank, ranked_in_grade)
      select ${phaseId}::uuid, student_id, grade, points, tie_key, rank, ranked_in_grade
      from ranked
      on conflict (phase_id, student_id) do update
        set grade = excluded.grade, points = excluded.points, tie_key = excluded.tie_key,
          rank = excluded.rank, ranked_in_grade = excluded.ranked_in_grade
        where (r.grade, r.points, r.tie_key, r.rank, r.ranked_in_grade)
          is distinct from (excluded.grade, excluded.points, excluded.tie_key, excluded.rank,
            excluded.ranked_in_grade)
      returning 1
    ),
    removed as (
      delete from phase_ranks r
      where r.phase_id = ${phaseId}::uuid
        and not exists (select 1 from ranked k where k.student_id = r.student_id)
      returning 1
    )
    select ((select count(*) from written) + (select count(*) from removed))::int as moved`);
  await tx.execute(sql`update ${rankingState} set computed_at = ${at.toISOString()}::timestamptz,
      rebuild_ms = ${Math.round(performance.now() - started)}, wanted_at = null
    where phase_id = ${phaseId}`);
  return Number(rowsOf<{ moved: number }>(moved)[0]?.moved ?? 0);
}

/**
 * Refreshes the planner's statistics of phase_ranks. After a phase of thousands was ranked at
 * once, the table's statistics still describe it without them until autovacuum comes by (a
 * minute or more): the planner then takes the phase for a few hundred rows and reads a whole
 * export through a nested loop of index look-ups (6 s instead of 1 s for 100,000 rows).
 */
export async function refreshRankStatistics(db: Db): Promise<void> {
  await db.execute(sql`analyze ${phaseRanks}`);
}

/** Notes a change of the ranking's own making (a new tie-break) so the next read rebuilds. */
export async function noteChange(db: Db, phaseId: string): Promise<void> {
  await db.insert(rankingChanges).values({ phaseId });
}

// ---------------------------------------------------------------------------------------
// Reading the ranking

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

/** A student's view of a published ranking: no names, schools or decisions to search by. */
export const studentRankingResource: ListResource = {
  name: 'rankings',
  fields: {
    _id: { column: phaseRanks.studentId, type: 'uuid', filterable: false },
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
    ${users.county} as "studentCounty", ${phaseRanks.grade} as "studentGrade",
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

// ---------------------------------------------------------------------------------------
// Rules and prizes

export async function findRules(db: Db, phaseId: string): Promise<PhaseRules | undefined> {
  const [row] = await db
    .select({ rules: phaseRules.rules })
    .from(phaseRules)
    .where(eq(phaseRules.phaseId, phaseId));
  return row?.rules;
}

export async function saveRules(db: Db, phaseId: string, rules: PhaseRules, actorId: string) {
  await db
    .insert(phaseRules)
    .values({ phaseId, rules, updatedBy: actorId })
    .onConflictDoUpdate({
      target: phaseRules.phaseId,
      set: { rules, updatedBy: actorId, updatedAt: sql`now()` },
    });
}

/** Every participant of a phase as the rules see them: rank and total when ranked. */
export type RuleInputRow = {
  studentId: string;
  familyName: string | null;
  givenName: string | null;
  studentCounty: string | null;
  studentGrade: number | null;
  rank: number | null;
  total: number | null;
  status: PhaseResult | null;
  prize: Prize | null;
};

/**
 * Participants (live accounts) with their decision and prize, and their rank as `tieBreak`
 * makes it, computed now from the phase totals (not the maintained ranking), so a dry run of
 * another tie-break and an apply inside its transaction both see the truth of the moment.
 */
export async function findRuleInputs(
  db: Db,
  phaseId: string,
  tieBreak: TieBreak,
): Promise<RuleInputRow[]> {
  const result = await db.execute(sql`
    with ${rankedCte(phaseId, tieBreak)}
    select ps.student_id, u.family_name, u.given_name, u.county,
      coalesce(k.grade, es.grade, u.grade) as grade, k.rank, k.points::float8 as total,
      ps.result, pz.prize
    from phase_students ps
    join users u on u.id = ps.student_id and u.deleted_at is null
    join phases p on p.id = ps.phase_id
    left join edition_students es on es.edition_id = p.edition_id
      and es.student_id = ps.student_id
    left join ranked k on k.student_id = ps.student_id
    left join phase_prizes pz on pz.phase_id = ps.phase_id and pz.student_id = ps.student_id
    where ps.phase_id = ${phaseId}
    order by 5 nulls last, k.rank nulls last, u.family_name_normalized, u.given_name_normalized,
      ps.student_id`);
  return rowsOf<{
    student_id: string;
    family_name: string | null;
    given_name: string | null;
    county: string | null;
    grade: number | null;
    rank: number | null;
    total: number | null;
    result: PhaseResult | null;
    prize: Prize | null;
  }>(result).map((r) => ({
    studentId: r.student_id,
    familyName: r.family_name,
    givenName: r.given_name,
    studentCounty: r.county,
    studentGrade: r.grade === null ? null : Number(r.grade),
    rank: r.rank === null ? null : Number(r.rank),
    total: r.total === null ? null : Number(r.total),
    status: r.result,
    prize: r.prize,
  }));
}

/** Sets (or replaces) prizes and removes others, in the caller's transaction. */
export async function writePrizes(
  tx: Db,
  phaseId: string,
  set: readonly { studentId: string; prize: Prize }[],
  removed: readonly string[],
  actorId: string,
): Promise<void> {
  if (set.length > 0) {
    await tx
      .insert(phasePrizes)
      .values(
        set.map((s) => ({ phaseId, studentId: s.studentId, prize: s.prize, awardedBy: actorId })),
      )
      .onConflictDoUpdate({
        target: [phasePrizes.phaseId, phasePrizes.studentId],
        set: { prize: sql`excluded.prize`, awardedBy: actorId, awardedAt: sql`now()` },
      });
  }
  if (removed.length > 0) {
    await tx.execute(sql`delete from ${phasePrizes} where phase_id = ${phaseId}
      and student_id = any(${`{${removed.join(',')}}`}::uuid[])`);
  }
}

/** A student's prize in a phase (null: none). */
export async function findPrize(db: Db, phaseId: string, studentId: string) {
  const [row] = await db
    .select({ prize: phasePrizes.prize })
    .from(phasePrizes)
    .where(and(eq(phasePrizes.phaseId, phaseId), eq(phasePrizes.studentId, studentId)));
  return row?.prize ?? null;
}
