// The marking and appeal lists, paged and counted under the viewer's scope.

import { and, asc, eq, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client.js';
import { questions, reviewAppeals, reviewEntries, reviewMarks } from '../../../db/schema.js';
import type { AppealRow, EntryRow, Round } from './rows.js';

/** Narrowing of a list, as the contract's `where`. */
export type ListWhere = {
  testId?: string;
  itemId?: string;
  status?: string;
  marked?: boolean;
};

type ListTable = typeof reviewEntries | typeof reviewAppeals;

function listConditions(
  table: ListTable,
  round: Round,
  phaseId: string,
  type: string,
  viewer: { id: string; whole: boolean },
  where: ListWhere,
): SQL[] {
  const mine = (given?: boolean) => sql`exists (select 1 from ${reviewMarks} m
    where m.parent_id = ${table.id} and m.round = ${round} and m.reviewer_id = ${viewer.id}
    ${given === undefined ? sql`` : given ? sql`and m.score is not null` : sql`and m.score is null`})`;
  const mediates = sql`exists (select 1 from ${questions} q
    where q.id = ${table.itemId} and q.mediator_teacher_id = ${viewer.id})`;
  const mediated =
    table === reviewEntries
      ? sql`${reviewEntries.finalBy} = 'mediator'`
      : sql`${reviewAppeals.mediatorScore} is not null`;
  // An appeal short of re-markers waits for a decision as one whose marks differ (deciders.ts
  // `lacksMarkers`, here in SQL for the list's paging).
  const waitsForDecision =
    table === reviewAppeals
      ? sql`(${reviewAppeals.status} = 'needs_mediation' or (${reviewAppeals.status} = 'pending'
          and (select count(*) from ${reviewMarks} m where m.parent_id = ${reviewAppeals.id}
            and m.round = 'appeal') < 2))`
      : sql`${reviewEntries.status} = 'needs_mediation'`;
  const conditions: SQL[] = [eq(table.phaseId, phaseId)];
  if (round === 'appeal') {
    conditions.push(
      type === 'COMMITTEE_ITEMS'
        ? sql`${reviewAppeals.kind} = 'committee'`
        : sql`${reviewAppeals.kind} = 'remark'`,
    );
  }
  switch (type) {
    case 'MEDIATION_ITEMS':
      conditions.push(sql`(${waitsForDecision} or ${mediated})`);
      if (!viewer.whole) conditions.push(mediates);
      break;
    case 'NEEDS_MEDIATION_ITEMS':
      conditions.push(waitsForDecision);
      if (!viewer.whole) conditions.push(mediates);
      break;
    case 'COMMITTEE_ITEMS':
      if (!viewer.whole) conditions.push(sql`false`);
      break;
    default:
      if (!viewer.whole) conditions.push(mine());
  }
  if (where.testId) conditions.push(eq(table.testId, where.testId));
  if (where.itemId) conditions.push(eq(table.itemId, where.itemId));
  if (where.status) conditions.push(sql`${table.status} = ${where.status}`);
  if (where.marked !== undefined) conditions.push(mine(where.marked));
  return conditions;
}

type Viewer = { id: string; whole: boolean };
/** The list of one round: the marking entries or the appeals, as the same table shape. */
const ROUND_TABLE = { review: reviewEntries, appeal: reviewAppeals } as const;
type RoundRow = { review: EntryRow; appeal: AppealRow };

/** One page of a round's list (or every row), ordered by test, question and code. */
async function listOf<R extends Round>(
  db: Db,
  round: R,
  phaseId: string,
  type: string,
  viewer: Viewer,
  where: ListWhere,
  page?: { limit: number; skip: number },
): Promise<RoundRow[R][]> {
  // Both tables have the columns used here; typed as one to build the query once.
  const table = ROUND_TABLE[round] as typeof reviewEntries;
  const rows = db
    .select()
    .from(table)
    .where(and(...listConditions(table, round, phaseId, type, viewer, where)))
    .orderBy(asc(table.testId), asc(table.itemIndexInTest), asc(table.code))
    .$dynamic();
  return (await (page ? rows.limit(page.limit).offset(page.skip) : rows)) as RoundRow[R][];
}

async function countOf(
  db: Db,
  round: Round,
  phaseId: string,
  type: string,
  viewer: Viewer,
  where: ListWhere,
): Promise<number> {
  const table = ROUND_TABLE[round];
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(table as typeof reviewEntries)
    .where(and(...listConditions(table, round, phaseId, type, viewer, where)));
  return Number(row?.n ?? 0);
}

/** A list's arguments after the database: the phase, the list type, who asks, the narrowing, and
 *  the page (without: every row, a list the service narrows further, deciders.ts). */
type ListArgs = [
  phaseId: string,
  type: string,
  viewer: Viewer,
  where: ListWhere,
  page?: { limit: number; skip: number },
];
type CountArgs = [phaseId: string, type: string, viewer: Viewer, where: ListWhere];

export const listEntries = (db: Db, ...args: ListArgs) => listOf(db, 'review', ...args);
export const countEntries = (db: Db, ...args: CountArgs) => countOf(db, 'review', ...args);
export const listAppeals = (db: Db, ...args: ListArgs) => listOf(db, 'appeal', ...args);
export const countAppeals = (db: Db, ...args: CountArgs) => countOf(db, 'appeal', ...args);
