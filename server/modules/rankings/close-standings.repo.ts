import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Standing } from '../../../shared/schemas/phase-reopen.js';
import type { Db } from '../../db/client.js';
import { phaseCloseStandings, users } from '../../db/schema.js';
import { ANONYMISED_EMAIL_LIKE } from '../users/index.js';

export type KeptStanding = Standing & { studentId: string };

const INSERT_BATCH = 1000;

/** Each student's standing kept at the phase's last close (none before its first). */
export async function findCloseStandings(db: Db, phaseId: string): Promise<KeptStanding[]> {
  const rows = await db
    .select()
    .from(phaseCloseStandings)
    .where(eq(phaseCloseStandings.phaseId, phaseId));
  return rows.map((r) => ({
    studentId: r.studentId,
    total: r.total,
    rank: r.rank,
    status: r.result,
    prize: r.prize,
  }));
}

/** How many standings the phase's last close kept. */
export async function countCloseStandings(db: Db, phaseId: string): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(phaseCloseStandings)
    .where(eq(phaseCloseStandings.phaseId, phaseId));
  return row?.n ?? 0;
}

/** Replaces the kept standings with those of this close, in the closing transaction. */
export async function replaceCloseStandings(
  tx: Db,
  phaseId: string,
  standings: readonly KeptStanding[],
  at: Date,
): Promise<void> {
  await tx.delete(phaseCloseStandings).where(eq(phaseCloseStandings.phaseId, phaseId));
  for (let i = 0; i < standings.length; i += INSERT_BATCH) {
    await tx.insert(phaseCloseStandings).values(
      standings.slice(i, i + INSERT_BATCH).map((s) => ({
        phaseId,
        studentId: s.studentId,
        total: s.total,
        rank: s.rank,
        result: s.status,
        prize: s.prize,
        closedAt: at,
      })),
    );
  }
}

/** Where to tell these students: live, not anonymised accounts only. */
export async function findRecipients(db: Db, ids: readonly string[]) {
  if (ids.length === 0) return [];
  return db
    .select({ id: users.id, email: users.email, locale: users.locale, uiLocale: users.uiLocale })
    .from(users)
    .where(
      and(
        inArray(users.id, [...ids]),
        sql`${users.deletedAt} is null and ${users.email} not like ${ANONYMISED_EMAIL_LIKE}`,
      ),
    );
}

/** A student's kept standings, for their data export. */
export async function findCloseStandingsOf(db: Db, userId: string) {
  return db
    .select({
      phaseId: phaseCloseStandings.phaseId,
      total: phaseCloseStandings.total,
      rank: phaseCloseStandings.rank,
      result: phaseCloseStandings.result,
      prize: phaseCloseStandings.prize,
      closedAt: phaseCloseStandings.closedAt,
    })
    .from(phaseCloseStandings)
    .where(eq(phaseCloseStandings.studentId, userId));
}
