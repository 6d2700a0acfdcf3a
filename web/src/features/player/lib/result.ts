import type { FINISHED_BY } from '../../../../../shared/schemas/player.js';
import type { ResultState } from '../../../../../shared/schemas/results.js';

/** What the student reads about a known score (My tests, the end screen). */
export type ScoreReading = {
  /** The heading's key: the plain score, or the same points called provisional. */
  scoreKey: 'scores.final' | 'scores.provisional';
  /**
   * The note under it: how many questions still wait for marking (plural on `count`), or
   * that appeals may still change it; none for a final score.
   */
  note: { key: 'scores.awaiting'; count: number } | { key: 'scores.untilAppeals' } | null;
};

/**
 * A score is final only when every question is decided and the appeals are over: until then
 * the points known so far are shown as provisional, with the reason (DESIGN.md: results).
 * An unknown state (a copy kept on the device before states existed) reads as final, as it
 * did then.
 */
export function readScore(result: {
  scoreState: ResultState | null;
  awaitingItems: number;
}): ScoreReading {
  if (result.scoreState === 'awaiting_marking') {
    return {
      scoreKey: 'scores.provisional',
      note: { key: 'scores.awaiting', count: Math.max(1, result.awaitingItems) },
    };
  }
  if (result.scoreState === 'provisional') {
    return { scoreKey: 'scores.provisional', note: { key: 'scores.untilAppeals' } };
  }
  return { scoreKey: 'scores.final', note: null };
}

/** The end screen's sentence: how the attempt ended, and whether marking is still to come. */
export function finishedTextKey(
  finishedBy: (typeof FINISHED_BY)[number] | null,
  scoreState: ResultState | null,
): string {
  if (finishedBy === 'sweeper') return 'player.finished.byTime';
  if (finishedBy === 'closed') return 'player.finished.byClosing';
  return scoreState === 'awaiting_marking'
    ? 'player.finished.textAwaiting'
    : 'player.finished.text';
}
