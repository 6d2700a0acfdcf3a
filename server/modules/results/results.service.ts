import type {
  ResultState,
  ScoreChangeCause,
  ScoreOrigin,
} from '../../../shared/schemas/results.js';
import type { Db } from '../../db/client.js';
import { uuidv7 } from '../../lib/ids.js';
import * as repo from './results.repo.js';
import { autoOutcome, totalScore } from './scoring.js';

// The one writer of scores (DESIGN.md "Scores have one owner"): each item's points, origin and
// state, a test's result and a student's phase total. Every function that changes points takes
// the caller's transaction and leaves the totals in line before it returns, so a reader never
// sees an item's change without its totals.

export type { ResultKey } from './results.repo.js';

/** An online attempt that has just ended, locked by the caller (the player). */
export type EndedAttempt = { attemptId: string; testId: string; studentId: string };

/** A test's result for one student as readers show it. */
export type TestResult = {
  /** The points already known. */
  score: number;
  scoreState: ResultState;
  awaitingItems: number;
  /** Items whose points are known (0: nothing is known yet, e.g. a hybrid test being marked). */
  decidedItems: number;
};

/** What of a phase decides whether its results are still provisional. */
export type PhaseTiming = { state: 'open' | 'closed'; appealEndDate: Date | null };

/**
 * The state a result is shown in: items still to mark first; a closed phase is final (its
 * results have been decided on); else provisional until the phase's appeal window has ended
 * (a phase without one is final at once).
 */
export function resultState(awaitingItems: number, phase: PhaseTiming, now: Date): ResultState {
  if (awaitingItems > 0) return 'awaiting_marking';
  if (phase.state === 'closed') return 'final';
  if (phase.appealEndDate && now.getTime() < phase.appealEndDate.getTime()) return 'provisional';
  return 'final';
}

const keyOf = (k: repo.ResultKey) => `${k.testId}:${k.studentId}`;

/**
 * Scores every item of online attempts that have just ended (the finish, the sweeper, a closed
 * phase): points from the key, open items answered with text to marking; an item never answered
 * gets a row with 0, so every item of a finished attempt has its score. Totals follow.
 * Answers each attempt's result.
 */
export async function scoreEndedAttempts(
  tx: Db,
  ended: readonly EndedAttempt[],
  at: Date,
): Promise<Map<string, { points: number; awaitingItems: number }>> {
  if (ended.length === 0) return new Map();
  const rows = await repo.scoringRows(tx, ended);
  const attemptOf = new Map(ended.map((e) => [keyOf(e), e.attemptId]));
  const writes: repo.ItemScoreWrite[] = [];
  const outcomes = new Map<string, { points: (number | null)[]; awaitingItems: number }>();
  for (const row of rows) {
    const outcome = autoOutcome(
      { itemType: row.itemType, itemCorrectAnswers: row.itemCorrectAnswers, score: row.itemPoints },
      row.submittedAnswer,
    );
    const attemptId = attemptOf.get(keyOf(row)) ?? null;
    writes.push({
      answerId: row.answerId ?? uuidv7(at.getTime()),
      testId: row.testId,
      studentId: row.studentId,
      itemId: row.itemId,
      attemptId,
      score: outcome.points,
      origin: outcome.origin,
      state: outcome.state,
    });
    const sum = outcomes.get(attemptId ?? '') ?? { points: [], awaitingItems: 0 };
    sum.points.push(outcome.points);
    if (outcome.state === 'awaiting_marking') sum.awaitingItems += 1;
    outcomes.set(attemptId ?? '', sum);
  }
  await repo.writeItemScores(tx, writes, at);
  await repo.refreshTotals(tx, ended, at);
  return new Map(
    [...outcomes].map(([attemptId, o]) => [
      attemptId,
      { points: totalScore(o.points), awaitingItems: o.awaitingItems },
    ]),
  );
}

/** A reopened attempt runs again: its items' points are withdrawn until it ends again. */
export async function withdrawAttemptScores(tx: Db, key: repo.ResultKey, at: Date) {
  await repo.clearItemScores(tx, key);
  await repo.refreshTotals(tx, [key], at);
}

/** The student's hybrid answer to an item, created if missing, locked for the caller's change. */
export const openHybridAnswer = repo.lockOrCreateAnswer;

/** Sets a hybrid answer's pages; the item awaits marking and the totals say so. */
export async function setHybridAnswerFiles(
  tx: Db,
  answer: Pick<repo.AnswerRow, 'id' | 'testId' | 'studentId'>,
  fileIds: string[],
  enteredBy: string | null,
  at: Date,
): Promise<repo.AnswerRow> {
  const updated = await repo.setAnswerFiles(tx, answer.id, fileIds, enteredBy);
  await repo.refreshTotals(tx, [answer], at);
  return updated;
}

/** Whether people already scored an answer of any of these items (their worth is then fixed). */
export const hasMarkedItems = repo.hasMarkedItems;

/**
 * Scores again, with the test's current points and key, every item scored from the key, of
 * every student with a result in the test (an item's worth or its key changed); totals follow.
 * Items scored by people are left as they are. Answers how many items' points changed and how
 * many students they belong to.
 */
export async function rescoreTest(
  tx: Db,
  testId: string,
  at: Date,
): Promise<{ changedItems: number; students: number }> {
  const keys = await repo.resultKeysOfTest(tx, testId);
  const rows = await repo.scoringRows(tx, keys);
  const writes: repo.ItemScoreWrite[] = [];
  const changes: repo.ScoreChangeWrite[] = [];
  const touched = new Map<string, repo.ResultKey>();
  for (const row of rows) {
    if (!row.answerId || row.scoreOrigin !== 'auto') continue;
    const outcome = autoOutcome(
      { itemType: row.itemType, itemCorrectAnswers: row.itemCorrectAnswers, score: row.itemPoints },
      row.submittedAnswer,
    );
    if (outcome.points === row.score && outcome.state === row.scoreState) continue;
    if (row.scoreState === 'decided' && row.score !== null && outcome.points !== null) {
      changes.push({
        answerId: row.answerId,
        testId: row.testId,
        studentId: row.studentId,
        itemId: row.itemId,
        before: Number(row.score),
        after: outcome.points,
        cause: 'key_fix',
      });
    }
    writes.push({
      answerId: row.answerId,
      testId: row.testId,
      studentId: row.studentId,
      itemId: row.itemId,
      attemptId: null,
      score: outcome.points,
      origin: outcome.origin,
      state: outcome.state,
    });
    touched.set(keyOf(row), row);
  }
  await repo.writeItemScores(tx, writes, at);
  await repo.appendScoreChanges(tx, changes, at);
  await repo.refreshTotals(tx, [...touched.values()], at);
  return { changedItems: writes.length, students: touched.size };
}

const CHANGE_CAUSE = {
  marked: 'marking',
  mediated: 'mediation',
  appealed: 'appeal',
} as const satisfies Record<string, ScoreChangeCause>;

/** An answer whose points people decided (reviewers, a mediator, an appeal). */
export type MarkedAnswer = repo.ResultKey & { answerId: string; itemId: string };

/**
 * Records the points people gave an answer (`marked`: the two reviewers' average, `mediated`:
 * the mediator's, `appealed`: an appeal's result), decided; the totals follow in the caller's
 * transaction. Answers the points it had before.
 */
export async function recordMarkedScore(
  tx: Db,
  answer: MarkedAnswer,
  score: number,
  origin: 'marked' | 'mediated' | 'appealed',
  at: Date,
): Promise<{ before: number | null }> {
  const [current] = (await repo.findItemScores(tx, answer.testId, answer.studentId)).filter(
    (r) => r.answerId === answer.answerId,
  );
  if (!current) throw new Error('answer not found');
  await repo.writeItemScores(
    tx,
    [
      {
        answerId: answer.answerId,
        testId: answer.testId,
        studentId: answer.studentId,
        itemId: answer.itemId,
        attemptId: null,
        score,
        origin,
        state: 'decided',
      },
    ],
    at,
  );
  const before = current.score === null ? null : Number(current.score);
  if (current.scoreState === 'decided' && before !== null && before !== score) {
    await repo.appendScoreChanges(
      tx,
      [{ ...answer, before, after: score, cause: CHANGE_CAUSE[origin] }],
      at,
    );
  }
  await repo.refreshTotals(tx, [answer], at);
  return { before };
}

/**
 * When the marking of a hybrid test starts: each item of a student with a result in it that
 * has no page (or none left) is decided at 0 from the key's side (`auto`: nothing was handed
 * in), so totals can become complete. Answers how many items it decided.
 */
export async function settleUnhandedItems(tx: Db, testId: string, at: Date): Promise<number> {
  const keys = await repo.resultKeysOfTest(tx, testId);
  const rows = await repo.scoringRows(tx, keys);
  const pagesOf = await repo.answerPageCounts(tx, testId);
  const writes: repo.ItemScoreWrite[] = [];
  const touched = new Map<string, repo.ResultKey>();
  for (const row of rows) {
    if (row.scoreState === 'decided') continue;
    if (row.answerId && (pagesOf.get(row.answerId) ?? 0) > 0) continue;
    writes.push({
      answerId: row.answerId ?? uuidv7(at.getTime()),
      testId: row.testId,
      studentId: row.studentId,
      itemId: row.itemId,
      attemptId: null,
      score: 0,
      origin: 'auto',
      state: 'decided',
    });
    touched.set(keyOf(row), row);
  }
  await repo.writeItemScores(tx, writes, at);
  await repo.refreshTotals(tx, [...touched.values()], at);
  return writes.length;
}

/** The student's results in these tests, by test id (absent: nothing handed over yet). */
export async function findTestResults(
  db: Db,
  studentId: string,
  testIds: readonly string[],
  now: Date,
): Promise<Map<string, TestResult>> {
  const rows = await repo.findTestResults(db, studentId, testIds);
  return new Map(
    rows.map((r) => [
      r.testId,
      {
        score: Number(r.points),
        scoreState: resultState(r.awaitingItems, r, now),
        awaitingItems: r.awaitingItems,
        decidedItems: Number(r.decidedItems),
      },
    ]),
  );
}

/** One item's points as a reader shows them. */
/** A decided item's points that moved: from, to, why (never who) and when. */
export type ScoreChange = { before: number; after: number; cause: ScoreChangeCause; at: Date };

export type ItemScore = {
  score: number | null;
  scoreState: ResultState | null;
  origin: ScoreOrigin | null;
  /** Oldest first; empty when the first decided points still stand. */
  changes: ScoreChange[];
};

/**
 * The items' points of one student's test, by item id; the phase's timing decides provisional
 * against final. Items not handed over yet are absent.
 */
export async function findItemScores(
  db: Db,
  key: repo.ResultKey,
  phase: PhaseTiming,
  now: Date,
): Promise<Map<string, ItemScore>> {
  const [rows, changeRows] = await Promise.all([
    repo.findItemScores(db, key.testId, key.studentId),
    repo.findScoreChanges(db, key.testId, key.studentId),
  ]);
  const scores = new Map<string, ItemScore>();
  for (const row of rows) {
    if (row.scoreState === null) continue;
    scores.set(row.itemId, {
      score: row.score === null ? null : Number(row.score),
      scoreState:
        row.scoreState === 'awaiting_marking' ? 'awaiting_marking' : resultState(0, phase, now),
      origin: row.scoreOrigin,
      changes: changeRows
        .filter((c) => c.itemId === row.itemId)
        .map((c) => ({
          before: Number(c.before),
          after: Number(c.after),
          cause: c.cause,
          at: c.at,
        })),
    });
  }
  return scores;
}

/**
 * Whether a phase's totals are complete for one grade (or all): no item awaits marking and no
 * attempt still runs. Admission by rule refuses otherwise.
 */
export const phaseCompleteness = repo.phaseCompleteness;
