import { and, eq, isNull } from 'drizzle-orm';
import type { PhaseResult } from '../../../shared/schemas/exams.js';
import type { Db } from '../../db/client.js';
import { editions, exams, phases } from '../../db/schema.js';
import { appendAudit } from '../../lib/audit.js';
import { AppError, notFound } from '../../lib/errors.js';
import type { EditionRow } from './editions.repo.js';
import type { ExamRow } from './exams.repo.js';
import * as repo from './phase-students.repo.js';
import { lockPhase, type PhaseRow } from './phases.repo.js';

// What other modules may do with a phase's students' decisions (the rankings module applies
// qualification rules through these), and a phase found by its path without anyone's scope
// (modules that decide their own rights, such as diplomas and students' rankings, use it).

/** A live exam, edition and phase that belong together, or undefined. Decides no rights. */
export async function findPhasePath(
  db: Db,
  examId: string,
  editionId: string,
  phaseId: string,
): Promise<{ exam: ExamRow; edition: EditionRow; phase: PhaseRow } | undefined> {
  const [row] = await db
    .select({ exam: exams, edition: editions, phase: phases })
    .from(phases)
    .innerJoin(editions, eq(editions.id, phases.editionId))
    .innerJoin(exams, eq(exams.id, editions.examId))
    .where(
      and(
        eq(phases.id, phaseId),
        eq(editions.id, editionId),
        eq(exams.id, examId),
        isNull(phases.deletedAt),
        isNull(editions.deletedAt),
        isNull(exams.deletedAt),
      ),
    );
  return row;
}

/**
 * Takes the open phase for a write of its scores, appeals or decisions, first in the caller's
 * transaction: closing (which takes the row `for update`) waits until it commits, and a write
 * after closing sees it closed and fails with PHASE_CLOSED. `update` also serialises writes
 * that must not overlap each other (a key fix computes whose scores change under it).
 */
export async function holdOpenPhase(
  tx: Db,
  phaseId: string,
  mode: 'share' | 'update' = 'share',
): Promise<PhaseRow> {
  const phase = await lockPhase(tx, phaseId, mode);
  if (!phase) throw notFound('phase');
  if (phase.state === 'closed') throw new AppError('PHASE_CLOSED', 'The phase is closed');
  return phase;
}

/**
 * Writes participants' decisions (admitted or rejected) in the caller's transaction, after
 * `holdOpenPhase`; ids not taking part are left out. One audit event per decision written,
 * with the decisions before, the actor and the reason (e.g. `rules`).
 */
export async function writePhaseResults(
  tx: Db,
  phaseId: string,
  changes: readonly { studentId: string; result: PhaseResult }[],
  actorId: string,
  reason: string,
): Promise<void> {
  for (const result of ['admitted', 'rejected'] as const) {
    const ids = changes.filter((c) => c.result === result).map((c) => c.studentId);
    if (ids.length === 0) continue;
    const before = await repo.findResults(tx, phaseId, ids);
    const present = before.map((b) => b.studentId);
    await repo.setResults(tx, phaseId, present, result);
    await appendAudit(tx, {
      actorId,
      action: 'phase.results.set',
      entityType: 'phase',
      entityId: phaseId,
      before,
      after: { result, studentIds: present },
      reason,
    });
  }
}

/** Whether these students take part in the phase (ids of those who do). */
export async function findParticipants(
  db: Db,
  phaseId: string,
  studentIds: readonly string[],
): Promise<string[]> {
  if (studentIds.length === 0) return [];
  return (await repo.findResults(db, phaseId, [...studentIds])).map((r) => r.studentId);
}
