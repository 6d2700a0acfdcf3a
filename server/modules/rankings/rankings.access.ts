import { DEFAULT_PHASE_RULES, type PhaseRules } from '../../../shared/schemas/rankings.js';
import type { Db } from '../../db/client.js';
import { withStatementTimeout } from '../../db/statement-timeout.js';
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
import * as ranks from './ranks.repo.js';
import * as rulesRepo from './rules.repo.js';

type PhasePath = NonNullable<Awaited<ReturnType<typeof findPhasePath>>>;

/**
 * Who looks at a phase's ranking: staff (the whole of it), a coordinator (their own students,
 * ranked among everyone) or a participating student. Outside that: 404. `freshness`: the
 * ranking's, as seen when the viewer was found.
 */
export type RankingViewer = PhasePath & {
  access: ExamAccess;
  kind: 'staff' | 'coordinator' | 'student';
  rules: PhaseRules;
  freshness: ranks.Freshness;
};

export async function findRules(db: Db, phaseId: string): Promise<PhaseRules> {
  return (await rulesRepo.findRules(db, phaseId)) ?? DEFAULT_PHASE_RULES;
}

/**
 * The viewer of a phase's ranking, or 404 outside their scope. The phase's rules and
 * freshness are read beside the access checks (by the phase id asked for, used only once
 * the checks pass), so a page costs the round trips of the checks and of the page.
 */
export async function requireViewer(db: Db, actor: Actor, ids: PhaseIds): Promise<RankingViewer> {
  const state = ranks.findRankingState(db, ids.phaseId);
  if (actor.type === 'student') {
    const [path, participants, { rules, ...freshness }] = await Promise.all([
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
      freshness,
    };
  }
  const [context, { rules, ...freshness }] = await Promise.all([
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
    freshness,
  };
}

/** Rows a rebuild writes or removes beyond which the planner's statistics are refreshed. */
const ANALYZE_AFTER_ROWS = 1000;

/** A rebuild that last took longer than this runs in the background, not in a request. */
export const INLINE_REBUILD_MS = 5000;
/**
 * A phase never ranked with more results than this is first ranked in the background: about
 * 3 s for 100,000 on the benchmark machine, over a minute for 1,000,000.
 */
export const INLINE_FIRST_RANKING_RESULTS = 200_000;

/** Whether bringing the phase's ranking up to date would take longer than a request may. */
async function tooLongForRequest(db: Db, phaseId: string, freshness: ranks.Freshness) {
  if (freshness.rebuildMs !== null) return freshness.rebuildMs > INLINE_REBUILD_MS;
  return (await ranks.countResults(db, phaseId)) > INLINE_FIRST_RANKING_RESULTS;
}

/**
 * Brings the phase's maintained ranking up to date when something it is made of changed since
 * it was last made (or it never was), so the read that follows sees every committed change; a
 * read of an unchanged phase costs one indexed look-up (none when the caller has just looked:
 * `known`). A phase whose rebuild takes longer than a request may (a first ranking of hundreds
 * of thousands) is rebuilt by the background job instead, and reads show its last ranking
 * meanwhile. Answers whether that is the case (the ranking is being updated).
 */
export async function ensureFreshRanks(
  db: Db,
  clock: Clock,
  phaseId: string,
  rules: PhaseRules,
  known?: ranks.Freshness,
): Promise<boolean> {
  const freshness = known ?? (await ranks.findRankingState(db, phaseId));
  if (!freshness.stale) return false;
  if (freshness.wanted) return true;
  if (await tooLongForRequest(db, phaseId, freshness)) {
    await ranks.askForRebuild(db, phaseId);
    return true;
  }
  const moved = await db.transaction(async (tx) => {
    if (!(await ranks.lockForRebuild(tx, phaseId))) return 0;
    return ranks.rebuildRanks(tx, phaseId, rules.tieBreak, clock.now());
  });
  if (moved >= ANALYZE_AFTER_ROWS) await ranks.refreshRankStatistics(db);
  return false;
}

/**
 * The background job: rebuilds every ranking a read asked for, oldest first, one phase per
 * transaction and without a statement limit (processes share the work: a phase another one is
 * rebuilding is skipped). Answers how many it rebuilt.
 */
export async function rebuildWantedRanks(db: Db, clock: Clock): Promise<number> {
  let rebuilt = 0;
  for (;;) {
    const done = await withStatementTimeout(0, () =>
      db.transaction(async (tx) => {
        const phaseId = await ranks.takeWantedRebuild(tx);
        if (phaseId === undefined) return undefined;
        const rules = (await rulesRepo.findRules(tx, phaseId)) ?? DEFAULT_PHASE_RULES;
        return ranks.rebuildRanks(tx, phaseId, rules.tieBreak, clock.now());
      }),
    );
    if (done === undefined) return rebuilt;
    if (done >= ANALYZE_AFTER_ROWS) {
      await withStatementTimeout(0, () => ranks.refreshRankStatistics(db));
    }
    rebuilt += 1;
  }
}
