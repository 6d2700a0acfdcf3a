import type { AffectedDiploma } from '../../../shared/schemas/phase-reopen.js';
import type { Db } from '../../db/client.js';
import { findIssuedIn, markStale } from './diplomas.repo.js';

/**
 * The diplomas already printed for students whose result changed when their phase closed
 * again. Their facts stay as printed (a paper in someone's hands is never rewritten behind
 * them, and the public check keeps confirming what it says); they, and their teachers'
 * diplomas listing them, are flagged out of date for the organiser to reissue, and the
 * students' own are answered.
 */
export async function findDiplomasOfChanged(
  db: Db,
  phaseId: string,
  studentIds: readonly string[],
  now: Date,
): Promise<AffectedDiploma[]> {
  await markStale(db, phaseId, studentIds, now);
  const rows = await findIssuedIn(db, phaseId, studentIds);
  return rows.map((r) => ({ code: r.code, studentId: r.userId, prize: r.prize }));
}
