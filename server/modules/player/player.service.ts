import type { WarmableClient } from '../../lib/hot-statement.js';
import { warmAnswerStatements } from '../results/index.js';
import { examDayStats } from './exam-day-stats.js';
import { careful } from './player.attempts.js';
import { type PlayerDeps, playerContext } from './player.context.js';
import { attemptEnding } from './player.ending.js';
import { examDayPath } from './player.exam-day.js';
import { warmStartStatement } from './player.hot.repo.js';
import { incidents } from './player.incidents.js';
import { livePanel } from './player.live.js';

export type { PlayerDeps } from './player.context.js';
export { attemptTopic } from './player.incidents.js';

/** Plans exam day's statements on one database connection (the server warms its pool). */
export async function warmPlayerConnection(client: WarmableClient): Promise<void> {
  await warmStartStatement(client);
  await warmAnswerStatements(client);
}

/**
 * The test player (SPEC.md §4 Test-taking; DESIGN.md "Exam day"), assembled from its parts:
 * exam day's fast path (player.exam-day.ts), the careful path that decides everything else on
 * fresh rows (player.attempts.ts), how attempts end (player.ending.ts: the finish, the sweeper,
 * a closed phase) and the staff's incidents (player.incidents.ts).
 */
export function playerService(deps: PlayerDeps) {
  const ctx = playerContext(deps);
  const ending = attemptEnding(ctx);
  const fast = examDayPath(ctx);
  const slow = careful(ctx, ending, fast);
  const staff = incidents(ctx);
  const stats = examDayStats({ db: ctx.db, clock: ctx.clock });
  const panel = livePanel(ctx, stats.flush);
  return {
    ...fast,
    myTests: slow.myTests,
    start: slow.start,
    explainAnswer: slow.explainAnswer,
    answerUnsequenced: slow.answerUnsequenced,
    finish: slow.finish,
    state: slow.state,
    items: slow.items,
    file: slow.file,
    extraTime: staff.extraTime,
    reopen: staff.reopen,
    live: panel.live,
    /** This process's answer-write counts for the exam-day panel (see registerExamDayStats). */
    answerStats: stats,
    sweep: ending.sweep,
    endRunningAttemptsOfPhase: ending.endRunningAttemptsOfPhase,
  };
}

export type PlayerService = ReturnType<typeof playerService>;
