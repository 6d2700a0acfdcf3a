import type { Db } from '../../db/client.js';
import { hasAttempts } from './tests.repo.js';

/**
 * Whether any student has started one of these tests: an attempt (online) or an answer
 * (online or uploaded for a hybrid test) exists. Rules that must not change what a student
 * has seen (deleting a test, editing its questions) ask this inside their transaction.
 */
export async function hasStartedAttempts(db: Db, testIds: readonly string[]): Promise<boolean> {
  return hasAttempts(db, testIds);
}
