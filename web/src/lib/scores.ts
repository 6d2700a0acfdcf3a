import type { ResultState } from '../../../shared/schemas/results.js';

/**
 * How the web app shows points, wherever they appear (the player, My tests, the phase list,
 * tests, answers, marking, rankings): the server decides every score (results module); this
 * file only reads them out, in one way.
 */

/** Points in the interface language: '57,5' in Romanian, '57.5' in English, at most 2 decimals. */
export const formatScore = (score: number, language: string) =>
  new Intl.NumberFormat(language, { maximumFractionDigits: 2 }).format(score);

/** A phase total, a dash when the student has none yet. */
export const formatTotal = (total: number | null, language: string) =>
  total === null ? '—' : formatScore(total, language);

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
