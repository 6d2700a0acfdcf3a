import { and, eq, getTableColumns, inArray, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { users } from '../../db/schema.js';

export type UserRow = typeof users.$inferSelect;

// What the API's view of a person is made of (users.dto.ts): every column but the password
// hash and the bookkeeping ones. Lists select these, so a page never reads a password hash.
const NOT_IN_VIEW = ['passwordHash', 'updatedAt', 'deletedAt'] as const;
type NotInView = (typeof NOT_IN_VIEW)[number];
export const personColumns = Object.fromEntries(
  Object.entries(getTableColumns(users)).filter(
    ([name]) => !(NOT_IN_VIEW as readonly string[]).includes(name),
  ),
) as Omit<(typeof users)['_']['columns'], NotInView>;
export type PersonRow = Omit<UserRow, NotInView>;
export type NewUserRow = typeof users.$inferInsert;

const live = isNull(users.deletedAt);

export async function findUserById(db: Db, id: string): Promise<UserRow | undefined> {
  const [row] = await db
    .select()
    .from(users)
    .where(and(eq(users.id, id), live));
  return row;
}

export async function findUserByEmail(db: Db, email: string): Promise<UserRow | undefined> {
  const [row] = await db
    .select()
    .from(users)
    .where(and(eq(users.email, email), live));
  return row;
}

/** Locks the user row for the rest of the transaction. */
export async function lockUser(db: Db, id: string): Promise<UserRow | undefined> {
  const [row] = await db
    .select()
    .from(users)
    .where(and(eq(users.id, id), live))
    .for('update');
  return row;
}

export async function findTeacherByCode(db: Db, code: string): Promise<UserRow | undefined> {
  const [row] = await db
    .select()
    .from(users)
    .where(and(eq(users.teacherCode, code), eq(users.type, 'teacher'), live));
  return row;
}

/** The team codes of these teachers, by id (deleted teachers and teachers without one left out). */
export async function teamCodes(
  db: Db,
  teacherIds: readonly string[],
): Promise<Map<string, string>> {
  const ids = [...new Set(teacherIds)];
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ id: users.id, code: users.teacherCode })
    .from(users)
    .where(and(inArray(users.id, ids), eq(users.type, 'teacher'), live));
  return new Map(rows.flatMap((r) => (r.code ? [[r.id, r.code] as const] : [])));
}

export async function teacherCodeTaken(db: Db, code: string): Promise<boolean> {
  const [row] = await db.select({ id: users.id }).from(users).where(eq(users.teacherCode, code));
  return row !== undefined;
}

/** Inserts unless the e-mail exists; returns the new row or undefined. */
export async function insertUserIfNew(db: Db, row: NewUserRow): Promise<UserRow | undefined> {
  const [created] = await db.insert(users).values(row).onConflictDoNothing().returning();
  return created;
}

export async function updateUser(
  db: Db,
  id: string,
  patch: Partial<NewUserRow>,
): Promise<UserRow | undefined> {
  const [row] = await db
    .update(users)
    .set({ ...patch, updatedAt: sql`now()` })
    .where(and(eq(users.id, id), live))
    .returning();
  return row;
}

export async function countAdmins(db: Db): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(users)
    .where(and(eq(users.type, 'admin'), live));
  return row?.n ?? 0;
}

// Any constant works; every instance uses the same one (the migration lock is 727_001).
const ADMIN_BOOTSTRAP_LOCK = 727_002;

/** Serialises first-admin creation across instances until the transaction ends. */
export async function lockAdminBootstrap(tx: Db): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${ADMIN_BOOTSTRAP_LOCK})`);
}
