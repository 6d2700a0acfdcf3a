import { and, eq, gt, isNull, lt, ne, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { authLinks, oidcIdentities, oidcStates, sessions, users } from '../../db/schema.js';
import { uuidv7 } from '../../lib/ids.js';

export type LinkPurpose = (typeof authLinks.$inferInsert)['purpose'];

export async function insertSession(
  db: Db,
  s: { userId: string; tokenHash: string; expiresAt: Date; ip?: string; userAgent?: string },
) {
  const id = uuidv7();
  await db.insert(sessions).values({ id, ...s });
  return id;
}

/**
 * The live session for a token hash with its user, or undefined. Every signed-in request runs
 * it, so it is built once and prepared (on PostgreSQL parsed and planned once per connection).
 */
export function liveSessionQuery(db: Db) {
  const prepared = db
    .select({
      sessionId: sessions.id,
      lastSeenAt: sessions.lastSeenAt,
      id: users.id,
      email: users.email,
      type: users.type,
      state: users.state,
      registered: users.registered,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(
      and(
        eq(sessions.tokenHash, sql.placeholder('tokenHash')),
        isNull(sessions.revokedAt),
        gt(sessions.expiresAt, sql.placeholder('now')),
        isNull(users.deletedAt),
      ),
    )
    .prepare('auth_live_session_v1');
  return async (tokenHash: string, now: Date) => {
    const [row] = await prepared.execute({ tokenHash, now });
    return row;
  };
}

export async function touchSession(db: Db, sessionId: string, now: Date) {
  await db.update(sessions).set({ lastSeenAt: now }).where(eq(sessions.id, sessionId));
}

export async function revokeSession(db: Db, sessionId: string, now: Date) {
  await db.update(sessions).set({ revokedAt: now }).where(eq(sessions.id, sessionId));
}

export async function revokeUserSessions(db: Db, userId: string, now: Date) {
  await db
    .update(sessions)
    .set({ revokedAt: now })
    .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt)));
}

export async function insertLink(
  db: Db,
  l: { userId: string; purpose: LinkPurpose; codeHash: string; expiresAt: Date },
) {
  await db.insert(authLinks).values({ id: uuidv7(), ...l });
}

/**
 * Marks an unused, unexpired link used and returns it; a second use (even concurrent)
 * finds nothing, so each code works once.
 */
export async function consumeLink(
  db: Db,
  q: { userId: string; codeHash: string; purposes: LinkPurpose[]; now: Date },
) {
  const [row] = await db
    .update(authLinks)
    .set({ usedAt: q.now })
    .where(
      and(
        eq(authLinks.userId, q.userId),
        eq(authLinks.codeHash, q.codeHash),
        isNull(authLinks.usedAt),
        gt(authLinks.expiresAt, q.now),
        sql`${authLinks.purpose} in ${q.purposes}`,
      ),
    )
    .returning({ purpose: authLinks.purpose });
  return row;
}

/** Spends every unused link of the user (their codes stop working). */
export async function spendLinks(db: Db, userId: string, now: Date) {
  await db
    .update(authLinks)
    .set({ usedAt: now })
    .where(and(eq(authLinks.userId, userId), isNull(authLinks.usedAt)));
}

export async function insertOidcState(
  db: Db,
  s: {
    state: string;
    codeVerifier: string;
    nonce: string;
    browserHash: string;
    signupType: 'student' | 'teacher';
    expiresAt: Date;
  },
) {
  await db.insert(oidcStates).values(s);
}

/** The account a school identity signs in, if it was linked before. */
export async function findOidcIdentity(db: Db, issuer: string, subject: string) {
  const [row] = await db
    .select()
    .from(oidcIdentities)
    .where(and(eq(oidcIdentities.issuer, issuer), eq(oidcIdentities.subject, subject)));
  return row;
}

/** Links a school identity to an account (again, if it pointed to one since deleted). */
export async function linkOidcIdentity(
  db: Db,
  link: { issuer: string; subject: string; userId: string },
) {
  await db
    .insert(oidcIdentities)
    .values(link)
    .onConflictDoUpdate({
      target: [oidcIdentities.issuer, oidcIdentities.subject],
      set: { userId: link.userId },
    });
}

export async function takeOidcState(db: Db, state: string, now: Date) {
  const [row] = await db.delete(oidcStates).where(eq(oidcStates.state, state)).returning();
  await db.delete(oidcStates).where(lt(oidcStates.expiresAt, now));
  return row && row.expiresAt > now ? row : undefined;
}

/** Ends every session of the user and spends their unused e-mail links. */
export async function cutAccess(db: Db, userId: string): Promise<void> {
  await db
    .update(sessions)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt)));
  await db
    .update(authLinks)
    .set({ usedAt: sql`now()` })
    .where(and(eq(authLinks.userId, userId), isNull(authLinks.usedAt)));
}

/** The user's sessions that still sign in (not ended, not expired), most recently seen first. */
export async function listLiveSessions(db: Db, userId: string, now: Date) {
  return db
    .select({
      id: sessions.id,
      userAgent: sessions.userAgent,
      createdAt: sessions.createdAt,
      lastSeenAt: sessions.lastSeenAt,
    })
    .from(sessions)
    .where(
      and(eq(sessions.userId, userId), isNull(sessions.revokedAt), gt(sessions.expiresAt, now)),
    )
    .orderBy(sql`${sessions.lastSeenAt} desc`, sql`${sessions.id} desc`)
    .limit(200);
}

/** Ends one live session of this user; false when it is not theirs or already ended. */
export async function revokeOwnSession(db: Db, userId: string, sessionId: string, now: Date) {
  const rows = await db
    .update(sessions)
    .set({ revokedAt: now })
    .where(
      and(
        eq(sessions.id, sessionId),
        eq(sessions.userId, userId),
        isNull(sessions.revokedAt),
        gt(sessions.expiresAt, now),
      ),
    )
    .returning({ id: sessions.id });
  return rows.length > 0;
}

/** Ends every live session of the user but `keep`; how many it ended. */
export async function revokeOtherSessions(db: Db, userId: string, keep: string, now: Date) {
  const rows = await db
    .update(sessions)
    .set({ revokedAt: now })
    .where(
      and(
        eq(sessions.userId, userId),
        ne(sessions.id, keep),
        isNull(sessions.revokedAt),
        gt(sessions.expiresAt, now),
      ),
    )
    .returning({ id: sessions.id });
  return rows.length;
}
