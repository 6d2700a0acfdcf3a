import type { FINISHED_BY } from '../../../../../shared/schemas/player.js';
import type { ResultState } from '../../../../../shared/schemas/results.js';

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
