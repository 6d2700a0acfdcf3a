import type { Db } from '../../db/client.js';
import * as repo from './phases.repo.js';

/**
 * Recomputes the phase's "all tests published" flag (SPEC.md §4) in the caller's transaction:
 * true when the phase has tests and every one is published. Test-mgmt calls it after it
 * creates, deletes or publishes tests; the flag itself is the phase's, kept here.
 */
export function syncAllPublished(tx: Db, phaseId: string): Promise<boolean> {
  return repo.syncAllPublished(tx, phaseId);
}
