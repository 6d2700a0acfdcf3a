import type { Db } from '../../db/client.js';
import { AppError } from '../../lib/errors.js';
import { deleteEnrolments, findStudentsWithResults } from './enrolment.repo.js';
import { holdPhaseStudent } from './phase-students.repo.js';

/**
 * Holds the student's registration in the phase until the transaction ends (FOR KEY SHARE), so
 * whatever the caller then writes for the student (an attempt, an uploaded answer) cannot race
 * a removal from the phase: the removal waits, and afterwards sees what was written and keeps
 * the student. False when the student is not (or no longer) registered.
 */
export async function holdRegistration(tx: Db, phaseId: string, studentId: string) {
  return holdPhaseStudent(tx, phaseId, studentId);
}

/**
 * Removes the students from the edition and its phases, inside the caller's transaction, and
 * refuses (STUDENT_HAS_RESULTS, so the caller's transaction rolls back) when one of them turns
 * out to have a trace in the edition after all: a start or an upload that held a registration
 * while the caller checked commits before the delete goes on, and is seen by the look after it.
 */
export async function removeEnrolments(tx: Db, editionId: string, studentIds: string[]) {
  await deleteEnrolments(tx, editionId, studentIds);
  const started = await findStudentsWithResults(tx, editionId, studentIds);
  if (started.size > 0) {
    throw new AppError('STUDENT_HAS_RESULTS', 'The student started a test meanwhile');
  }
}
