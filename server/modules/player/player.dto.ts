import { createHash } from 'node:crypto';
import type {
  Incident,
  MyTest,
  MyTestState,
  PlayerItem,
  PlayerResultItem,
  PlayerState,
  StartResponse,
  SubmittedAnswer,
  TestWindow,
} from '../../../shared/schemas/player.js';
import type { ItemScore, TestResult } from '../results/index.js';
import type { AttemptItemRow, AttemptRow, ItemContentRow, StudentTestRow } from './player.repo.js';

/** What a player's state needs of its test: the window, and the phase's appeal window. */
export type TestTimes = Pick<StudentTestRow, 'testId' | 'startDate' | 'endDate' | 'phaseState'>;

/** Whole seconds left until `deadline` (never negative). */
export const secondsLeft = (deadline: Date, now: Date) =>
  Math.max(0, Math.floor((deadline.getTime() - now.getTime()) / 1000));

export function testWindow(
  test: Pick<StudentTestRow, 'startDate' | 'endDate' | 'phaseState'>,
  now: Date,
): TestWindow {
  if (now.getTime() < test.startDate.getTime()) return 'upcoming';
  if (now.getTime() < test.endDate.getTime() && test.phaseState === 'open') return 'open';
  return 'closed';
}

/**
 * The student's stable order of the test's items: sorted by a hash of the test's seed, the
 * student and the item, so it is the same on every start and reproducible in an appeal.
 */
export function stableItemOrder(seed: string, studentId: string, itemIds: readonly string[]) {
  return itemIds
    .map((id) => ({
      id,
      key: createHash('sha256').update(`${seed}:${studentId}:${id}`).digest('hex'),
    }))
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
    .map((x) => x.id);
}

const asAnswer = (value: unknown): SubmittedAnswer =>
  Array.isArray(value) || typeof value === 'string' ? (value as SubmittedAnswer) : null;

/** Items in the attempt's order; anything not in the order (never expected) is left out. */
export function toPlayerItems(
  order: readonly string[],
  rows: readonly AttemptItemRow[],
): PlayerItem[] {
  const byId = new Map(rows.map((r) => [r.itemId, r]));
  const items: PlayerItem[] = [];
  for (const itemId of order) {
    const row = byId.get(itemId);
    if (!row) continue;
    items.push({
      itemId,
      position: items.length + 1,
      itemQ: row.itemQ,
      itemType: row.itemType,
      itemAnswers: row.itemAnswers,
      imageFileId: row.imageFileId,
      score: row.score,
      submittedAnswer: asAnswer(row.submittedAnswer),
      seq: row.seq ?? 0,
    });
  }
  return items;
}

/**
 * Each item of a test as the JSON text of a `PlayerItem` without an answer, less its opening
 * brace and its `position`: written once per test, so the start of a new attempt (thousands in
 * the same minute, none with an answer yet) only joins texts in the student's order.
 */
export function unansweredItemsJson(rows: readonly ItemContentRow[]): Map<string, string> {
  return new Map(
    rows.map((row) => {
      const item: Omit<PlayerItem, 'position'> = {
        itemId: row.itemId,
        itemQ: row.itemQ,
        itemType: row.itemType,
        itemAnswers: row.itemAnswers,
        imageFileId: row.imageFileId,
        score: row.score,
        submittedAnswer: null,
        seq: 0,
      };
      return [row.itemId, JSON.stringify(item).slice(1)];
    }),
  );
}

/**
 * The start answer of a new attempt as JSON text: `head` with its items in `order`, each from
 * `unansweredItemsJson`, numbered 1, 2, … The same document as serialising the StartResponse
 * (an API test compares them).
 */
export function newStartJson(
  head: Omit<StartResponse, 'shuffledStudentItems'>,
  order: readonly string[],
  itemsJson: ReadonlyMap<string, string>,
): string {
  const items: string[] = [];
  for (const itemId of order) {
    const rest = itemsJson.get(itemId);
    if (rest !== undefined) items.push(`{"position":${items.length + 1},${rest}`);
  }
  const text = JSON.stringify(head);
  return `${text.slice(0, -1)},"shuffledStudentItems":[${items.join(',')}]}`;
}

/** Items with their correct answers and earned points, for a reviewed attempt only. */
export function toResultItems(
  items: readonly PlayerItem[],
  keys: readonly { itemId: string; itemCorrectAnswers: number[] | string | null }[],
  scores: ReadonlyMap<string, ItemScore>,
): PlayerResultItem[] {
  // A numeric answer is text in the contract; a driver may hand back a JSON number.
  const correct = new Map(
    keys.map((k) => {
      const value: unknown = k.itemCorrectAnswers;
      return [k.itemId, typeof value === 'number' ? String(value) : k.itemCorrectAnswers];
    }),
  );
  return items.map((item) => {
    const scored = scores.get(item.itemId);
    return {
      ...item,
      itemCorrectAnswers: correct.get(item.itemId) ?? null,
      awardedScore: scored?.score ?? null,
      scoreState: scored?.scoreState ?? null,
    };
  });
}

/** The result fields of a finished attempt (none before it ends). */
function resultFields(attempt: AttemptRow | undefined, result: TestResult | undefined) {
  if (attempt?.state !== 'finished' || !result) {
    return { score: null, scoreState: null, awaitingItems: 0 };
  }
  return {
    score: result.score,
    scoreState: result.scoreState,
    awaitingItems: result.awaitingItems,
  };
}

export function toPlayerState(
  test: TestTimes,
  attempt: AttemptRow | undefined,
  result: TestResult | undefined,
  now: Date,
): PlayerState {
  return {
    testId: test.testId,
    state: attempt ? attempt.state : 'not_started',
    window: testWindow(test, now),
    timer: attempt?.state === 'in_progress' ? secondsLeft(attempt.deadlineAt, now) : 0,
    deadline: attempt ? attempt.deadlineAt.toISOString() : null,
    serverNow: now.toISOString(),
    ...resultFields(attempt, result),
    finishedAt: attempt?.finishedAt ? attempt.finishedAt.toISOString() : null,
    finishedBy: attempt?.finishedBy ?? null,
  };
}

function myTestState(
  test: StudentTestRow,
  attempt: AttemptRow | undefined,
  result: TestResult | undefined,
  now: Date,
): MyTestState {
  if (attempt?.state === 'in_progress') return 'in_progress';
  // Points known for at least one item: a result, final, provisional or partly awaiting marks.
  if (result && result.decidedItems > 0 && (attempt || test.phaseType === 'hybrid')) {
    return 'result_available';
  }
  if (attempt) return 'finished';
  const window = testWindow(test, now);
  if (window !== 'closed') return window;
  // A hybrid test with pages handed in has a result row awaiting every mark.
  return test.phaseType === 'hybrid' && result ? 'finished' : 'missed';
}

export function toMyTest(
  test: StudentTestRow,
  attempt: AttemptRow | undefined,
  result: TestResult | undefined,
  now: Date,
): MyTest {
  const state = myTestState(test, attempt, result, now);
  const shown = state === 'result_available' && result;
  return {
    testId: test.testId,
    name: test.name,
    subject: test.subject,
    grades: [...test.grades].sort((a, b) => a - b),
    type: test.phaseType,
    examId: test.examId,
    examName: test.examName,
    editionId: test.editionId,
    editionName: test.editionName,
    phaseId: test.phaseId,
    phaseName: test.phaseName,
    startDate: test.startDate.toISOString(),
    endDate: test.endDate.toISOString(),
    duration: test.durationMinutes,
    totalScore: test.totalScore,
    state,
    score: shown ? result.score : null,
    scoreState: shown ? result.scoreState : null,
    awaitingItems: shown ? result.awaitingItems : 0,
    timer: state === 'in_progress' && attempt ? secondsLeft(attempt.deadlineAt, now) : null,
    finishedAt: attempt?.finishedAt ? attempt.finishedAt.toISOString() : null,
  };
}

export function toIncident(attempt: AttemptRow, now: Date): Incident {
  return {
    attemptId: attempt.id,
    testId: attempt.testId,
    studentId: attempt.studentId,
    state: attempt.state,
    deadline: attempt.deadlineAt.toISOString(),
    timer: attempt.state === 'in_progress' ? secondsLeft(attempt.deadlineAt, now) : 0,
    extraSeconds: attempt.extraSeconds,
    serverNow: now.toISOString(),
  };
}

/** The start answer without its items. */
export function startHead(test: StudentTestRow, attempt: AttemptRow, now: Date) {
  return {
    testId: test.testId,
    attemptId: attempt.id,
    state: 'in_progress' as const,
    timer: secondsLeft(attempt.deadlineAt, now),
    subject: test.subject,
    grade: [...test.grades].sort((a, b) => a - b),
    testName: test.name,
    startedAt: attempt.startedAt.toISOString(),
    deadline: attempt.deadlineAt.toISOString(),
    serverNow: now.toISOString(),
  };
}
