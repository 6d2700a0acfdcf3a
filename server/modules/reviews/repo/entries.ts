// Entries (one answer to mark) and their marks: locking, reading, updating, reminders.

import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client.js';
import {
  auditEvents,
  phases,
  questions,
  reviewAppeals,
  reviewEntries,
  reviewMarks,
} from '../../../db/schema.js';
import type { EntryRow, MarkRow } from './rows.js';

export async function lockEntry(db: Db, phaseId: string, id: string) {
  const [row] = await db
    .select()
    .from(reviewEntries)
    .where(and(eq(reviewEntries.id, id), eq(reviewEntries.phaseId, phaseId)))
    .for('update');
  return row;
}

export async function findEntry(db: Db, phaseId: string, id: string) {
  const [row] = await db
    .select()
    .from(reviewEntries)
    .where(and(eq(reviewEntries.id, id), eq(reviewEntries.phaseId, phaseId)));
  return row;
}

export async function findEntryOfAnswer(db: Db, answerId: string) {
  const [row] = await db.select().from(reviewEntries).where(eq(reviewEntries.answerId, answerId));
  return row;
}

export async function updateEntry(db: Db, id: string, patch: Partial<EntryRow>) {
  const [row] = await db
    .update(reviewEntries)
    .set({ ...patch, version: sql`${reviewEntries.version} + 1`, updatedAt: sql`now()` })
    .where(eq(reviewEntries.id, id))
    .returning();
  if (!row) throw new Error('entry not updated');
  return row;
}

/** The marks of these entries or appeals, by parent, in slot order. */
export async function findMarks(db: Db, parentIds: readonly string[]) {
  const byParent = new Map<string, MarkRow[]>();
  if (parentIds.length === 0) return byParent;
  const rows = await db
    .select()
    .from(reviewMarks)
    .where(inArray(reviewMarks.parentId, [...parentIds]))
    .orderBy(asc(reviewMarks.parentId), asc(reviewMarks.slot));
  for (const r of rows) byParent.set(r.parentId, [...(byParent.get(r.parentId) ?? []), r]);
  return byParent;
}

/** Who mediated these entries in the first round (those never mediated are left out). */
export async function findEntryMediators(db: Db, entryIds: readonly string[]) {
  const byEntry = new Map<string, string>();
  if (entryIds.length === 0) return byEntry;
  const rows = await db
    .select({ id: reviewEntries.id, mediatorId: reviewEntries.mediatorId })
    .from(reviewEntries)
    .where(inArray(reviewEntries.id, [...new Set(entryIds)]));
  for (const r of rows) if (r.mediatorId) byEntry.set(r.id, r.mediatorId);
  return byEntry;
}

/**
 * When each teacher was last reminded of the phase's marking (the time the reminder recorded in
 * its audit event, on the service's clock).
 */
export async function findLastReminders(db: Db, phaseId: string) {
  const rows = await db
    .select({ after: auditEvents.after, at: auditEvents.at })
    .from(auditEvents)
    .where(
      and(
        eq(auditEvents.entityType, 'phase'),
        eq(auditEvents.entityId, phaseId),
        eq(auditEvents.action, 'review.reminded'),
      ),
    );
  const last = new Map<string, Date>();
  for (const r of rows) {
    const after = r.after as { teacherIds?: unknown; sentAt?: unknown } | null;
    const at = typeof after?.sentAt === 'string' ? new Date(after.sentAt) : r.at;
    const ids = Array.isArray(after?.teacherIds) ? after.teacherIds : [];
    for (const id of ids) {
      if (typeof id !== 'string') continue;
      const known = last.get(id);
      if (!known || known < at) last.set(id, at);
    }
  }
  return last;
}

/** Holds the phase's row until the transaction ends: one reminder round at a time. */
export async function lockPhase(db: Db, phaseId: string) {
  await db.select({ id: phases.id }).from(phases).where(eq(phases.id, phaseId)).for('update');
}

export async function updateMark(
  db: Db,
  id: string,
  patch: { score: number; criteria: string[]; note: string | null; markedAt: Date },
) {
  await db.update(reviewMarks).set(patch).where(eq(reviewMarks.id, id));
}

export async function moveMark(db: Db, id: string, reviewerId: string) {
  await db.update(reviewMarks).set({ reviewerId }).where(eq(reviewMarks.id, id));
}

/** Which of these entries have an appeal filed. */
export async function entriesWithAppeal(db: Db, entryIds: readonly string[]) {
  if (entryIds.length === 0) return new Set<string>();
  const rows = await db
    .select({ id: reviewAppeals.entryId })
    .from(reviewAppeals)
    .where(inArray(reviewAppeals.entryId, [...entryIds]));
  return new Set(rows.flatMap((r) => (r.id ? [r.id] : [])));
}

/** The current mediators of these questions. */
export async function findMediators(db: Db, itemIds: readonly string[]) {
  if (itemIds.length === 0) return new Map<string, string | null>();
  const rows = await db
    .select({ id: questions.id, mediator: questions.mediatorTeacherId })
    .from(questions)
    .where(inArray(questions.id, [...new Set(itemIds)]));
  return new Map(rows.map((r) => [r.id, r.mediator]));
}
