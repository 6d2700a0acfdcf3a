// Closing a phase's review: what is still open, locked.

import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../../db/client.js';
import { reviewAppeals, reviewEntries } from '../../../db/schema.js';

/** The phase's entries still without a final score, locked (closing settles them). */
export async function lockOpenEntries(db: Db, phaseId: string) {
  return db
    .select()
    .from(reviewEntries)
    .where(
      and(
        eq(reviewEntries.phaseId, phaseId),
        inArray(reviewEntries.status, ['marking', 'needs_mediation']),
      ),
    )
    .orderBy(asc(reviewEntries.id))
    .for('update');
}

/** The phase's appeals not yet resolved, locked (closing settles them). */
export async function lockOpenAppeals(db: Db, phaseId: string) {
  return db
    .select()
    .from(reviewAppeals)
    .where(
      and(
        eq(reviewAppeals.phaseId, phaseId),
        inArray(reviewAppeals.status, ['pending', 'needs_mediation']),
      ),
    )
    .orderBy(asc(reviewAppeals.id))
    .for('update');
}
