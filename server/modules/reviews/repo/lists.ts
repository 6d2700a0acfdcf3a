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

export async function listEntries(
  db: Db,
  phaseId: string,
  type: string,
  viewer: { id: string; whole: boolean },
  where: ListWhere,
  /** Without: every row (a list the service narrows further, deciders.ts). */
  page?: { limit: number; skip: number },
): Promise<EntryRow[]> {
  const rows = db
    .select()
    .from(reviewEntries)
    .where(and(...listConditions(reviewEntries, 'review', phaseId, type, viewer, where)))
    .orderBy(asc(reviewEntries.testId), asc(reviewEntries.itemIndexInTest), asc(reviewEntries.code))
    .$dynamic();
  return page ? rows.limit(page.limit).offset(page.skip) : rows;
}

export async function countEntries(
  db: Db,
  phaseId: string,
  type: string,
  viewer: { id: string; whole: boolean },
  where: ListWhere,
): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(reviewEntries)
    .where(and(...listConditions(reviewEntries, 'review', phaseId, type, viewer, where)));
  return Number(row?.n ?? 0);
}

export async function listAppeals(
  db: Db,
  phaseId: string,
  type: string,
  viewer: { id: string; whole: boolean },
  where: ListWhere,
  /** Without: every row (a list the service narrows further, deciders.ts). */
  page?: { limit: number; skip: number },
): Promise<AppealRow[]> {
  const rows = db
    .select()
    .from(reviewAppeals)
    .where(and(...listConditions(reviewAppeals, 'appeal', phaseId, type, viewer, where)))
    .orderBy(asc(reviewAppeals.testId), asc(reviewAppeals.itemIndexInTest), asc(reviewAppeals.code))
    .$dynamic();
  return page ? rows.limit(page.limit).offset(page.skip) : rows;
}

export async function countAppeals(
  db: Db,
  phaseId: string,
  type: string,
  viewer: { id: string; whole: boolean },
  where: ListWhere,
): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(reviewAppeals)
    .where(and(...listConditions(reviewAppeals, 'appeal', phaseId, type, viewer, where)));
  return Number(row?.n ?? 0);
}
