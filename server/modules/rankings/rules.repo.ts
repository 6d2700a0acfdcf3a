// A phase's rules (phase_rules), what they decide on, and the prizes they give (phase_prizes).
import { and, desc, eq, sql } from 'drizzle-orm';
import type { PhaseResult } from '../../../shared/schemas/exams.js';
import type { PhaseRules, Prize, TieBreak } from '../../../shared/schemas/rankings.js';
import { type Db, rowsOf } from '../../db/client.js';
import { auditEvents, phasePrizes, phaseRules } from '../../db/schema.js';
import { rankedCte } from './ranks.repo.js';

export async function findRules(db: Db, phaseId: string): Promise<PhaseRules | undefined> {
  const [row] = await db
    .select({ rules: phaseRules.rules })
    .from(phaseRules)
    .where(eq(phaseRules.phaseId, phaseId));
  return row?.rules;
}

export async function saveRules(db: Db, phaseId: string, rules: PhaseRules, actorId: string) {
  await db
    .insert(phaseRules)
    .values({ phaseId, rules, updatedBy: actorId })
    .onConflictDoUpdate({
      target: phaseRules.phaseId,
      set: { rules, updatedBy: actorId, updatedAt: sql`now()` },
    });
}

/** When the phase's rules last wrote its decisions (the apply's audit event); null: never. */
export async function lastAppliedAt(db: Db, phaseId: string): Promise<Date | null> {
  const [row] = await db
    .select({ at: auditEvents.at })
    .from(auditEvents)
    .where(
      and(
        eq(auditEvents.entityType, 'phase'),
        eq(auditEvents.entityId, phaseId),
        eq(auditEvents.action, 'phase.rules.apply'),
      ),
    )
    .orderBy(desc(auditEvents.at))
    .limit(1);
  return row?.at ?? null;
}

/** Every participant of a phase as the rules see them: rank and total when ranked. */
export type RuleInputRow = {
  studentId: string;
  familyName: string | null;
  givenName: string | null;
  studentCounty: string | null;
  studentSector: number | null;
  studentGrade: number | null;
  rank: number | null;
  total: number | null;
  status: PhaseResult | null;
  prize: Prize | null;
};

/**
 * Participants (live accounts) with their decision and prize, and their rank as `tieBreak`
 * makes it, computed now from the phase totals (not the maintained ranking), so a dry run of
 * another tie-break and an apply inside its transaction both see the truth of the moment.
 */
export async function findRuleInputs(
  db: Db,
  phaseId: string,
  tieBreak: TieBreak,
): Promise<RuleInputRow[]> {
  const result = await db.execute(sql`
    with ${rankedCte(phaseId, tieBreak)}
    select ps.student_id, u.family_name, u.given_name, u.county, u.bucharest_sector,
      coalesce(k.grade, es.grade, u.grade) as grade, k.rank, k.points::float8 as total,
      ps.result, pz.prize
    from phase_students ps
    join users u on u.id = ps.student_id and u.deleted_at is null
    join phases p on p.id = ps.phase_id
    left join edition_students es on es.edition_id = p.edition_id
      and es.student_id = ps.student_id
    left join ranked k on k.student_id = ps.student_id
    left join phase_prizes pz on pz.phase_id = ps.phase_id and pz.student_id = ps.student_id
    where ps.phase_id = ${phaseId}
    order by 6 nulls last, k.rank nulls last, u.family_name_normalized, u.given_name_normalized,
      ps.student_id`);
  return rowsOf<{
    student_id: string;
    family_name: string | null;
    given_name: string | null;
    county: string | null;
    bucharest_sector: number | null;
    grade: number | null;
    rank: number | null;
    total: number | null;
    result: PhaseResult | null;
    prize: Prize | null;
  }>(result).map((r) => ({
    studentId: r.student_id,
    familyName: r.family_name,
    givenName: r.given_name,
    studentCounty: r.county,
    studentSector: r.bucharest_sector === null ? null : Number(r.bucharest_sector),
    studentGrade: r.grade === null ? null : Number(r.grade),
    rank: r.rank === null ? null : Number(r.rank),
    total: r.total === null ? null : Number(r.total),
    status: r.result,
    prize: r.prize,
  }));
}

/** Sets (or replaces) prizes and removes others, in the caller's transaction. */
export async function writePrizes(
  tx: Db,
  phaseId: string,
  set: readonly { studentId: string; prize: Prize }[],
  removed: readonly string[],
  actorId: string,
): Promise<void> {
  if (set.length > 0) {
    await tx
      .insert(phasePrizes)
      .values(
        set.map((s) => ({ phaseId, studentId: s.studentId, prize: s.prize, awardedBy: actorId })),
      )
      .onConflictDoUpdate({
        target: [phasePrizes.phaseId, phasePrizes.studentId],
        set: { prize: sql`excluded.prize`, awardedBy: actorId, awardedAt: sql`now()` },
      });
  }
  if (removed.length > 0) {
    await tx.execute(sql`delete from ${phasePrizes} where phase_id = ${phaseId}
      and student_id = any(${`{${removed.join(',')}}`}::uuid[])`);
  }
}

/** A student's prize in a phase (null: none). */
export async function findPrize(db: Db, phaseId: string, studentId: string) {
  const [row] = await db
    .select({ prize: phasePrizes.prize })
    .from(phasePrizes)
    .where(and(eq(phasePrizes.phaseId, phaseId), eq(phasePrizes.studentId, studentId)));
  return row?.prize ?? null;
}
