import type { Db } from '../../db/client.js';
import { AppError } from '../../lib/errors.js';
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

/** A removal that found, after its delete, a test the student started meanwhile: roll back. */
export const startedMeanwhile = () =>
  new AppError('STUDENT_HAS_RESULTS', 'The student started a test meanwhile');
