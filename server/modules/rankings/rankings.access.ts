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
 * ranked among everyone) or a participating student. Outside that: 404.
 */
export type RankingViewer = PhasePath & {
  access: ExamAccess;
  kind: 'staff' | 'coordinator' | 'student';
  rules: PhaseRules;
};

export async function findRules(db: Db, phaseId: string): Promise<PhaseRules> {
  return (await repo.findRules(db, phaseId)) ?? DEFAULT_PHASE_RULES;
}

/** The viewer of a phase's ranking, or 404 outside their scope. */
export async function requireViewer(db: Db, actor: Actor, ids: PhaseIds): Promise<RankingViewer> {
  if (actor.type === 'student') {
    const path = await findPhasePath(db, ids.examId, ids.editionId, ids.phaseId);
    if (!path) throw notFound('phase');
    const [self] = await findParticipants(db, path.phase.id, [actor.id]);
    if (!self) throw notFound('phase');
    return {
      ...path,
      access: NO_ACCESS,
      kind: 'student',
      rules: await findRules(db, path.phase.id),
    };
  }
  const context = await requirePhase(db, actor, ids.examId, ids.editionId, ids.phaseId);
  return {
    exam: context.exam,
    edition: context.edition,
    phase: context.phase,
    access: context.access,
    kind: seesWholeRanking(context.access) ? 'staff' : 'coordinator',
    rules: await findRules(db, context.phase.id),
  };
}

/** Rows a rebuild writes or removes beyond which the planner's statistics are refreshed. */
const ANALYZE_AFTER_ROWS = 1000;

/**
 * Rebuilds the phase's maintained ranking when something it is made of changed since it was
 * last made (or it never was), so the read that follows sees every committed change; a read
 * of an unchanged phase costs one indexed look-up.
 */
export async function ensureFreshRanks(
  db: Db,
  clock: Clock,
  phaseId: string,
  rules: PhaseRules,
): Promise<void> {
  if (!(await repo.isStale(db, phaseId))) return;
  const moved = await db.transaction(async (tx) => {
    if (!(await repo.lockForRebuild(tx, phaseId))) return 0;
    return repo.rebuildRanks(tx, phaseId, rules.tieBreak, clock.now());
  });
  if (moved >= ANALYZE_AFTER_ROWS) await repo.refreshRankStatistics(db);
}
