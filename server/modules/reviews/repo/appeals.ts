// Appeals: locking, reading, filing, updating; the committee appeals on a question.

import { and, asc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client.js';
import { reviewAppeals } from '../../../db/schema.js';
import type { AppealRow } from './rows.js';

export async function lockAppeal(db: Db, phaseId: string, id: string) {
  const [row] = await db
    .select()
    .from(reviewAppeals)
    .where(and(eq(reviewAppeals.id, id), eq(reviewAppeals.phaseId, phaseId)))
    .for('update');
  return row;
}

export async function findAppeal(db: Db, phaseId: string, id: string) {
  const [row] = await db
    .select()
    .from(reviewAppeals)
    .where(and(eq(reviewAppeals.id, id), eq(reviewAppeals.phaseId, phaseId)));
  return row;
}

/** Inserts the appeal unless the item already has one; answers the new row or undefined. */
export async function insertAppeal(db: Db, row: typeof reviewAppeals.$inferInsert) {
  const [inserted] = await db.insert(reviewAppeals).values(row).onConflictDoNothing().returning();
  return inserted;
}

export async function updateAppeal(db: Db, id: string, patch: Partial<AppealRow>) {
  const [row] = await db
    .update(reviewAppeals)
    .set({ ...patch, version: sql`${reviewAppeals.version} + 1`, updatedAt: sql`now()` })
    .where(eq(reviewAppeals.id, id))
    .returning();
  if (!row) throw new Error('appeal not updated');
  return row;
}

/** Holds one student's paper (test) for the transaction while its appeals are weighed. */
export async function lockPaperAppeals(db: Db, testId: string, studentId: string) {
  await db.execute(
    sql`select pg_advisory_xact_lock(hashtext(${`paper-appeals:${testId}:${studentId}`}))`,
  );
}

export async function findStudentAppeals(db: Db, testId: string, studentId: string) {
  return db
    .select()
    .from(reviewAppeals)
    .where(and(eq(reviewAppeals.testId, testId), eq(reviewAppeals.studentId, studentId)));
}

/** How many committee appeals on an item wait for the exam's admins. */
export async function countCommitteeAppeals(db: Db, itemId: string): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(reviewAppeals)
    .where(
      and(
        eq(reviewAppeals.itemId, itemId),
        eq(reviewAppeals.kind, 'committee'),
        eq(reviewAppeals.status, 'pending'),
      ),
    );
  return Number(row?.n ?? 0);
}

/** Pending committee appeals on an item, locked. */
export async function lockCommitteeAppeals(db: Db, itemId: string) {
  return db
    .select()
    .from(reviewAppeals)
    .where(
      and(
        eq(reviewAppeals.itemId, itemId),
        eq(reviewAppeals.kind, 'committee'),
        eq(reviewAppeals.status, 'pending'),
      ),
    )
    .orderBy(asc(reviewAppeals.id))
    .for('update');
}
