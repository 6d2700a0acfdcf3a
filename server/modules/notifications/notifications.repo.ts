import { and, count, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { notifications } from '../../db/schema.js';
import { uuidv7 } from '../../lib/ids.js';

export type NotificationRow = typeof notifications.$inferSelect;
export type NewNotification = {
  userId: string;
  kind: string;
  params?: Record<string, string>;
  link?: string | null;
  /** Set for an event that may be noticed more than once: one row per person and key. */
  dedupeKey?: string | null;
};

/** Inserts the notifications; a row whose person and `dedupeKey` exist already is skipped. */
export async function insertNotifications(db: Db, rows: readonly NewNotification[], at?: Date) {
  if (rows.length === 0) return;
  await db
    .insert(notifications)
    .values(
      rows.map((r) => ({
        id: uuidv7(at?.getTime()),
        userId: r.userId,
        kind: r.kind,
        params: r.params ?? {},
        link: r.link ?? null,
        dedupeKey: r.dedupeKey ?? null,
        ...(at ? { createdAt: at } : {}),
      })),
    )
    .onConflictDoNothing();
}

/** The person's newest notifications. */
export async function listNotifications(db: Db, userId: string, limit: number) {
  return db
    .select()
    .from(notifications)
    .where(eq(notifications.userId, userId))
    .orderBy(desc(notifications.createdAt), desc(notifications.id))
    .limit(limit);
}

export async function countUnread(db: Db, userId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(notifications)
    .where(and(eq(notifications.userId, userId), isNull(notifications.readAt)));
  return Number(row?.n ?? 0);
}

/** Marks one of the person's notifications read; false when it is not theirs. */
export async function markRead(db: Db, userId: string, id: string, now: Date): Promise<boolean> {
  const rows = await db
    .update(notifications)
    .set({ readAt: sql`coalesce(${notifications.readAt}, ${now})` })
    .where(and(eq(notifications.id, id), eq(notifications.userId, userId)))
    .returning({ id: notifications.id });
  return rows.length > 0;
}

export async function markAllRead(db: Db, userId: string, now: Date): Promise<number> {
  const rows = await db
    .update(notifications)
    .set({ readAt: now })
    .where(and(eq(notifications.userId, userId), isNull(notifications.readAt)))
    .returning({ id: notifications.id });
  return rows.length;
}

/** Which of these dedupe keys the person has a notification for already. */
export async function findDedupeKeys(db: Db, userId: string, keys: string[]): Promise<Set<string>> {
  if (keys.length === 0) return new Set();
  const rows = await db
    .select({ key: notifications.dedupeKey })
    .from(notifications)
    .where(and(eq(notifications.userId, userId), inArray(notifications.dedupeKey, keys)));
  return new Set(rows.map((r) => r.key ?? ''));
}

export async function deleteOfUser(db: Db, userId: string): Promise<void> {
  await db.delete(notifications).where(eq(notifications.userId, userId));
}
