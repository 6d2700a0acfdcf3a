import { DEFAULT_PHASE_RULES, type PhaseRules } from '../../../shared/schemas/rankings.js';
import type { Db } from '../../db/client.js';
import type { Actor } from '../../lib/auth-guard.js';
import type { Clock } from '../../lib/clock.js';
import { notFound } from '../../lib/errors.js';
import type { PhaseIds } from '../../lib/route-params.js';
import {
  type ExamAccess,
  findParticipants,
  findPhasePath,
  NO_ACCESS,
  requirePhase,
} from '../exams/index.js';
import { seesWholeRanking } from './rankings.policy.js';
import * as repo from './rankings.repo.js';

type PhasePath = NonNullable<Awaited<ReturnType<typeof findPhasePath>>>;

/**
 * Who looks at a phase's ranking: staff (the whole of it), a coordinator (their own students,
 * ranked among everyone) or a participating student. Outside that: 404. `stale`: whether the
 * ranking must be rebuilt before it is read (as seen when the viewer was found).
 */
export type RankingViewer = PhasePath & {
  access: ExamAccess;
  kind: 'staff' | 'coordinator' | 'student';
  rules: PhaseRules;
  stale: boolean;
};

export async function findRules(db: Db, phaseId: string): Promise<PhaseRules> {
  return (await repo.findRules(db, phaseId)) ?? DEFAULT_PHASE_RULES;
}

/**
 * The viewer of a phase's ranking, or 404 outside their scope. The phase's rules and
 * freshness are read beside the access checks (by the phase id asked for, used only once
 * the checks pass), so a page costs the round trips of the checks and of the page.
 */
export async function requireViewer(db: Db, actor: Actor, ids: PhaseIds): Promise<RankingViewer> {
  const state = repo.findRankingState(db, ids.phaseId);
  if (actor.type === 'student') {
    const [path, participants, { rules, stale }] = await Promise.all([
      findPhasePath(db, ids.examId, ids.editionId, ids.phaseId),
      findParticipants(db, ids.phaseId, [actor.id]),
      state,
    ]);
    if (!path || participants.length === 0) throw notFound('phase');
    return {
      ...path,
      access: NO_ACCESS,
      kind: 'student',
      rules: rules ?? DEFAULT_PHASE_RULES,
      stale,
    };
  }
  const [context, { rules, stale }] = await Promise.all([
    requirePhase(db, actor, ids.examId, ids.editionId, ids.phaseId),
    state,
  ]);
  return {
    exam: context.exam,
    edition: context.edition,
    phase: context.phase,
    access: context.access,
    kind: seesWholeRanking(context.access) ? 'staff' : 'coordinator',
    rules: rules ?? DEFAULT_PHASE_RULES,
    stale,
  };
}

/** Rows a rebuild writes or removes beyond which the planner's statistics are refreshed. */
const ANALYZE_AFTER_ROWS = 1000;

/**
 * Rebuilds the phase's maintained ranking when something it is made of changed since it was
 * last made (or it never was), so the read that follows sees every committed change; a read
 * of an unchanged phase costs one indexed look-up (none when the caller has just looked:
 * `stale`).
 */
export async function ensureFreshRanks(
  db: Db,
  clock: Clock,
  phaseId: string,
  rules: PhaseRules,
  stale?: boolean,
): Promise<void> {
  if (!(stale ?? (await repo.isStale(db, phaseId)))) return;
  const moved = await db.transaction(async (tx) => {
    if (!(await repo.lockForRebuild(tx, phaseId))) return 0;
    return repo.rebuildRanks(tx, phaseId, rules.tieBreak, clock.now());
  });
  if (moved >= ANALYZE_AFTER_ROWS) await repo.refreshRankStatistics(db);
}
