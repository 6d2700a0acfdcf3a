import { and, asc, eq, isNull, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { editionStudents, phaseStudents, phases, tests, users } from '../../db/schema.js';
import { compileFilter, type ListResource, type ParsedFilter } from '../../lib/filter/index.js';

export type PhaseRow = typeof phases.$inferSelect;
export type NewPhaseRow = typeof phases.$inferInsert;
type PhaseSource = (typeof phaseStudents.$inferInsert)['source'];

const livePhase = isNull(phases.deletedAt);

/** `GET …/editions/{editionId}/phases?filter=`. */
export const phasesResource: ListResource = {
  name: 'phases',
  fields: {
    _id: { column: phases.id, type: 'uuid' },
    editionId: { column: phases.editionId, type: 'uuid' },
    examId: { column: sql`null`, type: 'uuid', filterable: false, sortable: false },
    name: { column: phases.name, type: 'string' },
    type: { column: phases.type, type: 'string' },
    startDate: { column: phases.startDate, type: 'date' },
    endDate: { column: phases.endDate, type: 'date' },
    state: { column: phases.state, type: 'string' },
    registrationOpen: { column: phases.registrationOpen, type: 'boolean' },
    reviewStarted: { column: phases.reviewStarted, type: 'boolean' },
    allPublished: { column: phases.allPublished, type: 'boolean' },
    mediationThreshold: { column: phases.mediationThreshold, type: 'number' },
    closedAt: { column: phases.closedAt, type: 'date' },
    createdAt: { column: phases.createdAt, type: 'date' },
  },
  defaultOrder: ['startDate ASC'],
};

export async function findPhase(
  db: Db,
  editionId: string,
  phaseId: string,
): Promise<PhaseRow | undefined> {
  const [row] = await db
    .select()
    .from(phases)
    .where(and(eq(phases.id, phaseId), eq(phases.editionId, editionId), livePhase));
  return row;
}

/** A phase by id alone, for the phase page whose route does not carry the edition. */
export async function findPhaseById(db: Db, phaseId: string): Promise<PhaseRow | undefined> {
  const [row] = await db
    .select()
    .from(phases)
    .where(and(eq(phases.id, phaseId), livePhase));
  return row;
}

/**
 * Locks the phase row; callers lock its edition first (editions.repo `lockEdition`). The
 * write lock is NO KEY UPDATE so that enrolments, which only reference the phase, can go on.
 */
export async function lockPhase(
  db: Db,
  phaseId: string,
  mode: 'update' | 'share',
): Promise<PhaseRow | undefined> {
  const [row] = await db
    .select()
    .from(phases)
    .where(and(eq(phases.id, phaseId), livePhase))
    .for(mode === 'update' ? 'no key update' : 'share');
  return row;
}

export async function insertPhase(db: Db, row: NewPhaseRow): Promise<PhaseRow> {
  const [created] = await db.insert(phases).values(row).returning();
  if (!created) throw new Error('phase not inserted');
  return created;
}

export async function updatePhase(
  db: Db,
  id: string,
  patch: Partial<NewPhaseRow>,
): Promise<PhaseRow | undefined> {
  const [row] = await db
    .update(phases)
    .set({ ...patch, updatedAt: sql`now()` })
    .where(and(eq(phases.id, id), livePhase))
    .returning();
  return row;
}

export async function listPhases(
  db: Db,
  editionId: string,
  filter: ParsedFilter,
): Promise<PhaseRow[]> {
  const q = compileFilter(filter, phasesResource);
  return db
    .select()
    .from(phases)
    .where(and(eq(phases.editionId, editionId), livePhase, q.where))
    .orderBy(...q.orderBy)
    .limit(q.limit)
    .offset(q.offset);
}

/** Every live phase of the edition in their order: start date, then id. */
export async function findEditionPhases(db: Db, editionId: string): Promise<PhaseRow[]> {
  return db
    .select()
    .from(phases)
    .where(and(eq(phases.editionId, editionId), livePhase))
    .orderBy(asc(phases.startDate), asc(phases.id));
}

/** Adds students to a phase from a query of their ids; returns how many were new. */
async function addParticipants(
  db: Db,
  phaseId: string,
  source: PhaseSource,
  studentIds: SQL,
): Promise<number> {
  const added = await db
    .insert(phaseStudents)
    .select(
      sql`select ${phaseId}::uuid, s.id, null, ${source}::text, now(), now()
        from (${studentIds}) as s(id)`,
    )
    .onConflictDoNothing()
    .returning({ studentId: phaseStudents.studentId });
  return added.length;
}

/**
 * Keeps the rule "the first phase takes every student enrolled in the edition": enrolled
 * students join the first phase when it is open, and rows put into a phase that is no longer
 * the first (a phase was created or moved before it) leave it unless already decided.
 */
export async function syncFirstPhase(db: Db, editionId: string): Promise<void> {
  const [first, ...rest] = await findEditionPhases(db, editionId);
  if (!first) return;
  if (first.state === 'open') {
    await addParticipants(
      db,
      first.id,
      'enrolment',
      sql`select ${editionStudents.studentId} from ${editionStudents}
        join ${users} on ${users.id} = ${editionStudents.studentId}
        where ${editionStudents.editionId} = ${editionId} and ${users.deletedAt} is null`,
    );
  }
  for (const phase of rest) {
    if (phase.state !== 'open') continue;
    await db
      .delete(phaseStudents)
      .where(
        and(
          eq(phaseStudents.phaseId, phase.id),
          eq(phaseStudents.source, 'enrolment'),
          isNull(phaseStudents.result),
        ),
      );
  }
}

/** Puts these students into the edition's first phase if it is open; returns how many. */
export async function addToFirstPhase(
  db: Db,
  editionId: string,
  studentIds: string[],
  source: PhaseSource,
): Promise<number> {
  const [first] = await findEditionPhases(db, editionId);
  if (first?.state !== 'open' || studentIds.length === 0) return 0;
  return addParticipants(db, first.id, source, idsQuery(studentIds));
}

/** Puts these students into one phase; returns how many were new. */
export async function addToPhase(
  db: Db,
  phaseId: string,
  studentIds: string[],
  source: PhaseSource,
): Promise<number> {
  if (studentIds.length === 0) return 0;
  return addParticipants(db, phaseId, source, idsQuery(studentIds));
}

const idsQuery = (ids: string[]) => sql`select unnest(${`{${ids.join(',')}}`}::uuid[])`;

/** Registers every admitted student of `fromPhaseId` in `toPhaseId`; returns how many. */
export async function advanceAdmitted(
  db: Db,
  fromPhaseId: string,
  toPhaseId: string,
): Promise<number> {
  return addParticipants(
    db,
    toPhaseId,
    'advanced',
    sql`select ${phaseStudents.studentId} from ${phaseStudents}
      where ${phaseStudents.phaseId} = ${fromPhaseId} and ${phaseStudents.result} = 'admitted'`,
  );
}

/** Students the closing of the phase before enrolled in this one (source `advanced`). */
export async function countAdvanced(db: Db, phaseId: string): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(phaseStudents)
    .where(and(eq(phaseStudents.phaseId, phaseId), eq(phaseStudents.source, 'advanced')));
  return row?.n ?? 0;
}

export async function countAdmitted(db: Db, phaseId: string): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(phaseStudents)
    .where(and(eq(phaseStudents.phaseId, phaseId), eq(phaseStudents.result, 'admitted')));
  return row?.n ?? 0;
}

/** Recomputes the phase's `allPublished`: it has tests and every one is published. */
export async function syncAllPublished(db: Db, phaseId: string): Promise<boolean> {
  const [row] = await db
    .update(phases)
    .set({
      allPublished: sql`exists (select 1 from ${tests} where ${tests.phaseId} = ${phaseId})
        and not exists (select 1 from ${tests}
          where ${tests.phaseId} = ${phaseId} and ${tests.published} = false)`,
      updatedAt: sql`now()`,
    })
    .where(eq(phases.id, phaseId))
    .returning({ allPublished: phases.allPublished });
  return row?.allPublished ?? false;
}
