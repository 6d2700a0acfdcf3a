import { sql } from 'drizzle-orm';
import {
  MAX_DRY_RUN_ROWS,
  type PhaseRules,
  RULE_PRESET_IDS,
  type RuleChange,
  type RuleOutcomeRow,
  type RulePreset,
  type RulesApplyRequest,
  type RulesApplyResult,
  type RulesDryRun,
  type RulesDryRunRequest,
  type RulesStatus,
} from '../../../shared/schemas/rankings.js';
import type { Db } from '../../db/client.js';
import { phaseRules } from '../../db/schema.js';
import { appendAudit } from '../../lib/audit.js';
import type { Actor } from '../../lib/auth-guard.js';
import type { Clock } from '../../lib/clock.js';
import { AppError, fieldError, forbidden, notFound } from '../../lib/errors.js';
import type { PhaseIds } from '../../lib/route-params.js';
import { holdOpenPhase } from '../exams/index.js';
import { phaseCompleteness, resultState } from '../results/index.js';
import { findRules, requireViewer } from './rankings.access.js';
import { canSetRules } from './rankings.policy.js';
import * as ranks from './ranks.repo.js';
import { RULE_PRESETS } from './rule-presets.js';
import * as rulesRepo from './rules.repo.js';
import { canonicalJson, missingSectors } from './rules-engine.js';
import { evaluateRules, hasRules, writeRuleOutcome } from './rules-outcome.js';

export type RulesDeps = { db: Db; clock: Clock };

/** The parts of the rules a closed phase still lets change: only how its ranking is shown. */
const withoutPublication = ({ publication: _, ...rest }: PhaseRules) => canonicalJson(rest);

export function rulesService({ db, clock }: RulesDeps) {
  /** The phase for someone who may set its rules (else 403; outside their scope 404). */
  async function requireRuleSetter(actor: Actor, ids: PhaseIds) {
    const viewer = await requireViewer(db, actor, ids);
    if (viewer.kind === 'student' || !canSetRules(viewer.access)) throw forbidden();
    return viewer;
  }

  return {
    /** The olympiad rule sets to start from, in a fixed order. */
    listPresets(): RulePreset[] {
      return RULE_PRESET_IDS.map((id) => RULE_PRESETS[id]);
    },

    /** One preset by its id (404 for another). */
    getPreset(presetId: string): RulePreset {
      const preset = RULE_PRESET_IDS.find((id) => id === presetId);
      if (!preset) throw notFound('preset');
      return RULE_PRESETS[preset];
    },

    /** The phase's rules (the defaults until set); staff and coordinators read them. */
    async getRules(actor: Actor, ids: PhaseIds): Promise<PhaseRules> {
      const viewer = await requireViewer(db, actor, ids);
      if (viewer.kind === 'student') throw forbidden();
      return viewer.rules;
    },

    /**
     * Stores the phase's rules, audited. A closed phase keeps all but `publication`
     * (PHASE_CLOSED). A new tie-break moves ranks, so the ranking is rebuilt on its next read.
     */
    async putRules(actor: Actor, ids: PhaseIds, rules: PhaseRules): Promise<PhaseRules> {
      const viewer = await requireRuleSetter(actor, ids);
      const phaseId = viewer.phase.id;
      return db.transaction(async (tx) => {
        await tx.execute(sql`select 1 from ${phaseRules} where phase_id = ${phaseId} for update`);
        const before = await findRules(tx, phaseId);
        if (
          viewer.phase.state === 'closed' &&
          withoutPublication(before) !== withoutPublication(rules)
        ) {
          throw new AppError('PHASE_CLOSED', 'A closed phase keeps its rules');
        }
        await rulesRepo.saveRules(tx, phaseId, rules, actor.id);
        if (before.tieBreak !== rules.tieBreak) await ranks.noteChange(tx, phaseId);
        await appendAudit(tx, {
          actorId: actor.id,
          action: 'phase.rules.set',
          entityType: 'phase',
          entityId: phaseId,
          before,
          after: rules,
        });
        return rules;
      });
    },

    /**
     * Whether the decisions the rules wrote are out of date: applied before, the phase still
     * open, and the stored rules now give something else (an appeal or a key fix moved a score,
     * or someone changed a decision by hand since). Changes nothing.
     */
    async status(actor: Actor, ids: PhaseIds): Promise<RulesStatus> {
      const viewer = await requireRuleSetter(actor, ids);
      const phaseId = viewer.phase.id;
      const appliedAt = await rulesRepo.lastAppliedAt(db, phaseId);
      if (!appliedAt || viewer.phase.state !== 'open' || !hasRules(viewer.rules)) {
        return { appliedAt: appliedAt?.toISOString() ?? null, outOfDate: false, changeCount: 0 };
      }
      const { changes } = await evaluateRules(db, phaseId, viewer.rules);
      return {
        appliedAt: appliedAt.toISOString(),
        outOfDate: changes.length > 0,
        changeCount: changes.length,
      };
    },

    /**
     * Who the rules (given, or the stored ones) would admit and award, and how that differs
     * from today's decisions and prizes. Changes nothing.
     */
    async dryRun(actor: Actor, ids: PhaseIds, input: RulesDryRunRequest): Promise<RulesDryRun> {
      const viewer = await requireRuleSetter(actor, ids);
      const phaseId = viewer.phase.id;
      const rules = (input.rules as PhaseRules | undefined) ?? viewer.rules;
      const isStoredRules = canonicalJson(rules) === canonicalJson(viewer.rules);
      const { inputs, result, changes, fingerprint } = await evaluateRules(db, phaseId, rules);
      const gaps = await phaseCompleteness(db, phaseId, undefined);
      const incomplete = gaps.awaitingItems + gaps.runningAttempts;
      const byId = new Map(inputs.map((i) => [i.studentId, i]));
      const outcomeRows: RuleOutcomeRow[] = inputs.map((i) => {
        const o = result.outcomes.get(i.studentId);
        return {
          studentId: i.studentId,
          familyName: i.familyName,
          givenName: i.givenName,
          studentCounty: i.studentCounty,
          studentSector: i.studentSector,
          studentGrade: i.studentGrade,
          rank: i.rank,
          total: i.total,
          admitted: o?.admitted ?? null,
          qualifiedBy: o?.qualifiedBy ?? null,
          prize: o?.prize ?? null,
        };
      });
      const changeRows: RuleChange[] = changes.flatMap((c) => {
        const i = byId.get(c.studentId);
        if (!i) return [];
        return [
          {
            ...c,
            familyName: i.familyName,
            givenName: i.givenName,
            studentCounty: i.studentCounty,
            studentSector: i.studentSector,
            studentGrade: i.studentGrade,
            rank: i.rank,
            total: i.total,
          },
        ];
      });
      const admitted = outcomeRows.filter((r) => r.admitted === true);
      const awarded = outcomeRows.filter((r) => r.prize !== null);
      const unplaced = new Set(missingSectors(inputs, rules).map((i) => i.studentId));
      const noSector = outcomeRows.filter((r) => unplaced.has(r.studentId));
      return {
        rules,
        isStoredRules,
        scoreState: resultState(
          incomplete,
          { state: viewer.phase.state, appealEndDate: viewer.phase.appealEndDate },
          clock.now(),
        ),
        awaitingItems: gaps.awaitingItems,
        runningAttempts: gaps.runningAttempts,
        phaseState: viewer.phase.state,
        canApply:
          isStoredRules && hasRules(rules) && viewer.phase.state === 'open' && incomplete === 0,
        fingerprint,
        grades: result.grades,
        admitted: admitted.slice(0, MAX_DRY_RUN_ROWS),
        awarded: awarded.slice(0, MAX_DRY_RUN_ROWS),
        changes: changeRows.slice(0, MAX_DRY_RUN_ROWS),
        changeCount: changeRows.length,
        missingSectors: noSector.slice(0, MAX_DRY_RUN_ROWS),
        truncated: [admitted, awarded, changeRows, noSector].some(
          (list) => list.length > MAX_DRY_RUN_ROWS,
        ),
      };
    },

    /**
     * Applies the stored rules: admitted/rejected through the exams module and prizes, only
     * where they differ from today, in one transaction, audited. Refused when the outcome is
     * no longer the dry run's (RULES_OUTCOME_CHANGED), while results are incomplete
     * (RESULTS_INCOMPLETE), on a closed phase (PHASE_CLOSED), without rules, or while
     * Bucharest participants have no sector under the sectors rule (SECTOR_MISSING) unless
     * the caller accepts it.
     */
    async apply(actor: Actor, ids: PhaseIds, input: RulesApplyRequest): Promise<RulesApplyResult> {
      const viewer = await requireRuleSetter(actor, ids);
      const phaseId = viewer.phase.id;
      return db.transaction(async (tx) => {
        // One apply (or rule change) at a time per phase; closing waits for the hold below.
        await tx.execute(sql`select 1 from ${phaseRules} where phase_id = ${phaseId} for update`);
        await holdOpenPhase(tx, phaseId);
        const rules = await findRules(tx, phaseId);
        if (!hasRules(rules)) throw fieldError({ rules: ['required'] }, 'The phase has no rules');
        const gaps = await phaseCompleteness(tx, phaseId, undefined);
        if (gaps.awaitingItems > 0 || gaps.runningAttempts > 0) {
          throw new AppError('RESULTS_INCOMPLETE', 'Some results are not complete yet', gaps);
        }
        const { inputs, changes, fingerprint } = await evaluateRules(tx, phaseId, rules);
        if (fingerprint !== input.fingerprint) {
          throw new AppError('RULES_OUTCOME_CHANGED', 'Run the dry run again', { fingerprint });
        }
        // Students the sectors rule cannot place would lose a sector place they may be owed.
        const unplaced = missingSectors(inputs, rules);
        if (unplaced.length > 0 && input.acceptMissingSectors !== true) {
          throw new AppError('SECTOR_MISSING', 'Some Bucharest students have no sector', {
            students: unplaced.map((i) => i.studentId),
          });
        }
        return writeRuleOutcome(tx, phaseId, rules, changes, actor.id, fingerprint);
      });
    },
  };
}

export type RulesService = ReturnType<typeof rulesService>;
