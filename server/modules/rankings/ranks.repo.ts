// The maintained ranking of each phase (phase_ranks): when it is stale, rebuilding it, and the
// background job's requests. rankings.repo.ts reads it; rules.repo.ts ranks with the same CTE (`rankedCte`).
import { performance } from 'node:perf_hooks';
import { eq, type SQL, sql } from 'drizzle-orm';
import type { PhaseRules, TieBreak } from '../../../shared/schemas/rankings.js';
import { type Db, rowsOf } from '../../db/client.js';
import {
  phaseRanks,
  phaseResults,
  phaseRules,
  rankingChanges,
  rankingState,
} from '../../db/schema.js';

const staleSql = (phaseId: string) => sql`(
  coalesce((select computed_at is null from ${rankingState} where phase_id = ${phaseId}), true)
  or exists (select 1 from ${rankingChanges} where phase_id = ${phaseId}))`;

/** Whether a phase's ranking must be rebuilt before it is read: never made, or changed since. */
async function isStale(db: Db, phaseId: string): Promise<boolean> {
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
export function rankedCte(phaseId: string, tieBreak: TieBreak): SQL {
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
