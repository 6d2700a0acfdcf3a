import { and, eq, inArray, isNull, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { editionCoordinators, editions } from '../../db/schema.js';
import {
  compileFilter,
  compileWhere,
  type ListResource,
  type ParsedFilter,
  type WhereNode,
} from '../../lib/filter/index.js';
import { toUuidArray } from './exams.repo.js';

export type EditionRow = typeof editions.$inferSelect;
export type NewEditionRow = typeof editions.$inferInsert;

const liveEdition = isNull(editions.deletedAt);

/** `GET /exams/{examId}/editions?filter=`. */
export const editionsResource: ListResource = {
  name: 'editions',
  fields: {
    _id: { column: editions.id, type: 'uuid' },
    examId: { column: editions.examId, type: 'uuid' },
    name: { column: editions.name, type: 'string' },
    year: { column: editions.year, type: 'number' },
    state: { column: editions.state, type: 'string' },
    termsUrl: { column: editions.termsUrl, type: 'string', sortable: false },
    registrationOpen: { column: editions.registrationOpen, type: 'boolean' },
    teacherIds: { column: sql`null`, type: 'uuid', filterable: false, sortable: false },
    createdAt: { column: editions.createdAt, type: 'date' },
  },
  defaultOrder: ['name ASC'],
};

/** Only these editions (a coordinator's), or every edition when undefined. */
const onlyEditions = (ids: readonly string[] | undefined): SQL | undefined =>
  ids === undefined ? undefined : sql`${editions.id} = any(${toUuidArray(ids)})`;

export async function findEdition(
  db: Db,
  examId: string,
  editionId: string,
): Promise<EditionRow | undefined> {
  const [row] = await db
    .select()
    .from(editions)
    .where(and(eq(editions.id, editionId), eq(editions.examId, examId), liveEdition));
  return row;
}

/**
 * Locks the edition row. Every change to an edition's phases or enrolments takes it first
 * (share for enrolments, update for phases), so phase order and first-phase membership are
 * decided one at a time.
 */
export async function lockEdition(
  db: Db,
  editionId: string,
  mode: 'update' | 'share',
): Promise<EditionRow | undefined> {
  const [row] = await db
    .select()
    .from(editions)
    .where(and(eq(editions.id, editionId), liveEdition))
    .for(mode);
  return row;
}

export async function insertEdition(db: Db, row: NewEditionRow): Promise<EditionRow> {
  const [created] = await db.insert(editions).values(row).returning();
  if (!created) throw new Error('edition not inserted');
  return created;
}

export async function updateEdition(
  db: Db,
  id: string,
  patch: Partial<NewEditionRow>,
): Promise<EditionRow | undefined> {
  const [row] = await db
    .update(editions)
    .set({ ...patch, updatedAt: sql`now()` })
    .where(and(eq(editions.id, id), liveEdition))
    .returning();
  return row;
}

export async function listEditions(
  db: Db,
  examId: string,
  filter: ParsedFilter,
  onlyIds: readonly string[] | undefined,
): Promise<EditionRow[]> {
  const q = compileFilter(filter, editionsResource);
  return db
    .select()
    .from(editions)
    .where(and(eq(editions.examId, examId), liveEdition, onlyEditions(onlyIds), q.where))
    .orderBy(...q.orderBy)
    .limit(q.limit)
    .offset(q.offset);
}

export async function countEditions(
  db: Db,
  examId: string,
  where: WhereNode | undefined,
  onlyIds: readonly string[] | undefined,
): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(editions)
    .where(
      and(
        eq(editions.examId, examId),
        liveEdition,
        onlyEditions(onlyIds),
        compileWhere(where, editionsResource),
      ),
    );
  return row?.n ?? 0;
}

/** Coordinators of these editions, oldest first. */
export async function findCoordinators(
  db: Db,
  editionIds: string[],
): Promise<{ editionId: string; teacherId: string }[]> {
  if (editionIds.length === 0) return [];
  return db
    .select({
      editionId: editionCoordinators.editionId,
      teacherId: editionCoordinators.teacherId,
    })
    .from(editionCoordinators)
    .where(inArray(editionCoordinators.editionId, editionIds))
    .orderBy(editionCoordinators.createdAt, editionCoordinators.teacherId);
}

/** Makes the edition's coordinators exactly `teacherIds`, keeping existing links. */
export async function replaceCoordinators(
  db: Db,
  editionId: string,
  teacherIds: string[],
): Promise<void> {
  const scope = eq(editionCoordinators.editionId, editionId);
  await db
    .delete(editionCoordinators)
    .where(
      teacherIds.length > 0
        ? and(scope, sql`${editionCoordinators.teacherId} <> all(${toUuidArray(teacherIds)})`)
        : scope,
    );
  if (teacherIds.length > 0) {
    await db
      .insert(editionCoordinators)
      .values(teacherIds.map((teacherId) => ({ editionId, teacherId })))
      .onConflictDoNothing();
  }
}
