import type { PhaseRules, RulesApplyResult } from '../../../shared/schemas/rankings.js';
import type { Db } from '../../db/client.js';
import { appendAudit } from '../../lib/audit.js';
import { writePhaseResults } from '../exams/index.js';
import * as rulesRepo from './rules.repo.js';
import { applyRules, changesOf, fingerprintOf, type RulesResult } from './rules-engine.js';

// What a phase's rules give against today's lists, and writing it: shared by the organiser's
// apply and by a phase closing again after a reopening (the corrected totals may move them).

export const hasRules = (rules: PhaseRules) =>
  rules.qualification !== null || rules.awards !== null;

/** What the rules give against today's lists, computed from the phase totals of now. */
export async function evaluateRules(db: Db, phaseId: string, rules: PhaseRules) {
  const inputs = await rulesRepo.findRuleInputs(db, phaseId, rules.tieBreak);
  const result: RulesResult = applyRules(inputs, rules);
  const changes = changesOf(
    inputs.map((i) => ({ studentId: i.studentId, status: i.status, prize: i.prize })),
    result,
    rules,
  );
  return { inputs, result, changes, fingerprint: fingerprintOf(rules, changes) };
}

type Changes = Awaited<ReturnType<typeof evaluateRules>>['changes'];

/**
 * Writes the decisions and prizes that differ from today, in the caller's transaction after
 * `holdOpenPhase`, with one audit event (`reason`: the dry run's fingerprint, or why else).
 */
export async function writeRuleOutcome(
  tx: Db,
  phaseId: string,
  rules: PhaseRules,
  changes: Changes,
  actorId: string,
  reason: string,
): Promise<RulesApplyResult> {
  const statusChanges = changes.flatMap((c) =>
    c.statusAfter !== c.statusBefore && c.statusAfter !== null
      ? [{ studentId: c.studentId, result: c.statusAfter }]
      : [],
  );
  await writePhaseResults(tx, phaseId, statusChanges, actorId, 'rules');
  const prizeChanges = changes.filter((c) => c.prizeAfter !== c.prizeBefore);
  const set = prizeChanges.flatMap((c) =>
    c.prizeAfter ? [{ studentId: c.studentId, prize: c.prizeAfter }] : [],
  );
  const removed = prizeChanges.filter((c) => c.prizeAfter === null).map((c) => c.studentId);
  await rulesRepo.writePrizes(tx, phaseId, set, removed, actorId);
  await appendAudit(tx, {
    actorId,
    action: 'phase.rules.apply',
    entityType: 'phase',
    entityId: phaseId,
    before: changes.map((c) => ({
      studentId: c.studentId,
      status: c.statusBefore,
      prize: c.prizeBefore,
    })),
    after: {
      rules,
      changes: changes.map((c) => ({
        studentId: c.studentId,
        status: c.statusAfter,
        prize: c.prizeAfter,
      })),
    },
    reason,
  });
  return {
    changed: changes.length,
    admitted: statusChanges.filter((c) => c.result === 'admitted').length,
    rejected: statusChanges.filter((c) => c.result === 'rejected').length,
    prizesSet: set.length,
    prizesRemoved: removed.length,
  };
}
