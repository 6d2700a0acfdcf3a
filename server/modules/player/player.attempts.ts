import type {
  AnswerAck,
  AnswerRequest,
  MyTest,
  PlayerItemsResponse,
  PlayerState,
  SequencedAnswer,
  StartRequest,
  StartResponse,
} from '../../../shared/schemas/player.js';
import type { Actor } from '../../lib/auth-guard.js';
import { AppError, forbidden, notFound, validationFailed } from '../../lib/errors.js';
import { uuidv7 } from '../../lib/ids.js';
import { findItemScores, findTestResults, resultState } from '../results/index.js';
import type { PlayerContext } from './player.context.js';
import {
  stableItemOrder,
  startHead,
  testWindow,
  toMyTest,
  toPlayerItems,
  toPlayerState,
  toResultItems,
} from './player.dto.js';
import { type AttemptEnding, endLocked } from './player.ending.js';
import type { ExamDayPath } from './player.exam-day.js';
import { noteSeen } from './player.live.repo.js';
import { isStudentsTest } from './player.policy.js';
import type { AttemptRow, StudentTestRow } from './player.repo.js';
import * as repo from './player.repo.js';

// The careful path of the test player (SPEC.md §4 Test-taking; DESIGN.md "Exam day"): every
// call decided on fresh rows, with the reason for a refusal. Exam day's fast path answers most
// starts, answers and finishes; whatever it cannot, comes here. The server's clock decides
// every window and deadline; any read of an attempt past its deadline plus grace finalises it
// first, so what a student sees never depends on when the sweeper last ran.

const notActive = (why: string) => new AppError('TEST_NOT_ACTIVE', why);
const alreadyReviewed = () => new AppError('TEST_ALREADY_REVIEWED', 'The test is finished');

export function careful(ctx: PlayerContext, ending: AttemptEnding, examDay: ExamDayPath) {
  const { db, clock, queries } = ctx;

  /** The test's items with this student's stored answers (none to read for a new attempt). */
  async function attemptItems(
    testId: string,
    forStudent: string,
    isNew = false,
  ): Promise<repo.AttemptItemRow[]> {
    const [items, stored] = await Promise.all([
      ctx.testContent(testId),
      isNew ? [] : queries.storedAnswers(testId, forStudent),
    ]);
    const byItem = new Map(stored.map((a) => [a.itemId, a]));
    return items.map((item) => {
      const answer = byItem.get(item.itemId);
      return {
        ...item,
        submittedAnswer: answer?.submittedAnswer ?? null,
        seq: answer?.seq ?? null,
      };
    });
  }

  /**
   * The test, if it is one of the student's (else 404, whatever the reason), with their
   * attempt as it stands now (one overdue is finalised first).
   */
  async function studentTest(actor: Actor, testId: string, now: Date) {
    const found = await queries.studentTest(actor.id, testId);
    if (!found || !isStudentsTest(found.test)) throw notFound('test');
    return { test: found.test, attempt: await ending.settle(found.attempt, now) };
  }

  async function startResponse(
    test: StudentTestRow,
    attempt: AttemptRow,
    now: Date,
    known?: repo.AttemptItemRow[],
  ): Promise<StartResponse> {
    const rows = known ?? (await attemptItems(test.testId, attempt.studentId));
    return {
      ...startHead(test, attempt, now),
      shuffledStudentItems: toPlayerItems(attempt.itemOrder, rows),
    };
  }

  /** The student's result in the test, once their attempt is over. */
  async function resultOf(test: StudentTestRow, attempt: AttemptRow | undefined, now: Date) {
    if (attempt?.state !== 'finished') return undefined;
    return (await findTestResults(db, attempt.studentId, [test.testId], now)).get(test.testId);
  }

  /** The start once the test is known to be the student's, with their attempt as read. */
  async function begin(
    studentId: string,
    test: StudentTestRow,
    found: AttemptRow | undefined,
    body: StartRequest,
    now: Date,
  ): Promise<StartResponse> {
    if (test.phaseType !== 'online') throw forbidden();
    const existing = await ending.settle(found, now);
    if (existing) {
      if (existing.state === 'finished') throw alreadyReviewed();
      return startResponse(test, existing, now);
    }
    if (testWindow(test, now) !== 'open') throw notActive('Outside the test window');
    if (body.termsAccepted !== true) {
      throw validationFailed([{ code: 'required', path: ['termsAccepted'] }]);
    }
    const rows = await attemptItems(test.testId, studentId, true);
    const deadlineAt = new Date(
      Math.min(now.getTime() + test.durationMinutes * 60_000, test.endDate.getTime()),
    );
    const attemptId = uuidv7(now.getTime());
    const attempt = await repo.insertAttempt(db, test.phaseId, {
      id: attemptId,
      testId: test.testId,
      studentId,
      startedAt: now,
      deadlineAt,
      itemOrder: stableItemOrder(
        test.seed,
        studentId,
        rows.map((r) => r.itemId),
      ),
    });
    // Removed from the phase in the meantime: no longer the student's test.
    if (!attempt) throw notFound('test');
    // Two first starts at once: the loser gets the winner's attempt (same order), whose
    // answers it reads again.
    if (attempt.state === 'finished') throw alreadyReviewed();
    return startResponse(test, attempt, now, attempt.id === attemptId ? rows : undefined);
  }

  /** Why an answer was not written, as an error; or the ack of a stale or repeated write. */
  async function explainAnswer(
    actor: Actor,
    token: string,
    testId: string,
    body: SequencedAnswer,
  ): Promise<AnswerAck> {
    const { test, attempt } = await studentTest(actor, testId, clock.now());
    if (test.phaseType !== 'online') throw forbidden();
    if (!attempt) throw notActive('The test has not been started');
    if (attempt.state === 'finished') {
      // Time ran out (the sweeper's finish) reads differently from a finished test.
      throw attempt.finishedBy === 'sweeper' || attempt.finishedBy === 'closed'
        ? notActive('The time is up')
        : alreadyReviewed();
    }
    if (!attempt.itemOrder.includes(body.itemId)) {
      throw validationFailed([{ code: 'invalid', path: ['itemId'] }]);
    }
    const stored = await repo.storedAnswer(db, testId, actor.id, body.itemId);
    if (stored && stored.seq >= body.seq) {
      return {
        itemId: body.itemId,
        seq: stored.seq,
        savedAt: stored.updatedAt.toISOString(),
        deadline: attempt.deadlineAt.toISOString(),
      };
    }
    // Everything but the answer's shape checks out: either it does not fit the item, or
    // something changed in between (a reopen, a newer write) and one more try settles it.
    const again = await examDay.tryAnswer(token, testId, body);
    if (again) return again;
    throw validationFailed([{ code: 'invalid', path: ['submittedAnswer'] }]);
  }

  return {
    async myTests(actor: Actor): Promise<MyTest[]> {
      const now = clock.now();
      // Tests, attempts and results in one statement (the exam morning's first page).
      const mine = (await queries.studentTests(actor.id)).filter((row) => isStudentsTest(row.test));
      const list: MyTest[] = [];
      for (const { test, attempt, result: row } of mine) {
        const settled = await ending.settle(attempt, now);
        // Settling may have just scored it: read its result again.
        const result =
          settled !== attempt && settled?.state === 'finished'
            ? await resultOf(test, settled, now)
            : row && {
                score: Number(row.points),
                scoreState: resultState(
                  row.awaitingItems,
                  { state: test.phaseState, appealEndDate: test.appealEndDate },
                  now,
                ),
                awaitingItems: row.awaitingItems,
                decidedItems: row.decidedItems,
              };
        list.push(toMyTest(test, settled, result, now));
      }
      return list;
    },

    /**
     * Starts the attempt, or returns the running one with its remaining time. The first start
     * needs the test's window open and the terms accepted; the deadline is
     * min(start + duration, test end).
     */
    async start(actor: Actor, testId: string, body: StartRequest): Promise<StartResponse> {
      const now = clock.now();
      const { test, attempt } = await studentTest(actor, testId, now);
      return begin(actor.id, test, attempt, body, now);
    },

    explainAnswer,

    /**
     * An answer sent without `seq` (SPEC.md §7's body): written as newer than whatever is
     * stored for that item, the stored seq plus one. A write that lands in between (the
     * player's, or another one without seq) is overtaken by trying again past it; answers of
     * one item sent at the same instant without an order end with one of them stored.
     */
    async answerUnsequenced(
      actor: Actor,
      token: string,
      testId: string,
      body: AnswerRequest,
    ): Promise<AnswerAck> {
      const write = async () => {
        const stored = await repo.storedAnswer(db, testId, actor.id, body.itemId);
        const seq = (stored?.seq ?? 0) + 1;
        return { seq, ack: await explainAnswer(actor, token, testId, { ...body, seq }) };
      };
      let { seq, ack } = await write();
      for (let tries = 1; tries < 3 && ack.seq !== seq; tries++) ({ seq, ack } = await write());
      return ack;
    },

    /** Finishes once, under the row lock; repeating returns the same result. */
    async finish(actor: Actor, testId: string): Promise<PlayerState> {
      const now = clock.now();
      const found = await queries.studentTest(actor.id, testId);
      if (!found || !isStudentsTest(found.test)) throw notFound('test');
      const { test } = found;
      if (test.phaseType !== 'online') throw forbidden();
      const attempt =
        found.attempt?.state === 'finished'
          ? found.attempt
          : await db.transaction(async (tx) => {
              const locked = await repo.findAttempt(tx, testId, actor.id, 'update');
              if (!locked) return undefined;
              const [ended] = await endLocked(ctx, tx, [locked], 'student', now, () => actor.id);
              return ended?.attempt ?? locked;
            });
      if (!attempt) throw notActive('The test has not been started');
      return toPlayerState(test, attempt, await resultOf(test, attempt, now), now);
    },

    /** The attempt's state; a running attempt's check is the panel's sign of life. */
    async state(actor: Actor, testId: string): Promise<PlayerState> {
      const now = clock.now();
      const { test, attempt } = await studentTest(actor, testId, now);
      if (attempt?.state === 'in_progress') await noteSeen(db, attempt.id, now);
      return toPlayerState(test, attempt, await resultOf(test, attempt, now), now);
    },

    /**
     * The attempt's items with the stored answers. Correct answers and earned points only
     * once the attempt is over, the window has closed and nobody is still writing the test;
     * the first time a student is shown them is noted (the attempt can no longer reopen).
     */
    async items(actor: Actor, testId: string): Promise<PlayerItemsResponse> {
      const now = clock.now();
      const { test, attempt } = await studentTest(actor, testId, now);
      if (!attempt) return { testId, state: 'not_started', reviewed: false, items: [] };
      const rows = await attemptItems(testId, actor.id);
      const items = toPlayerItems(attempt.itemOrder, rows);
      const reviewed =
        attempt.state === 'finished' &&
        now.getTime() >= test.endDate.getTime() &&
        !(await repo.hasRunningAttempt(db, testId, ctx.cutoffOf(now)));
      if (!reviewed) return { testId, state: attempt.state, reviewed, items };
      const [keys, scores] = await Promise.all([
        repo.answerKeys(db, testId),
        findItemScores(
          db,
          { testId, studentId: actor.id },
          { state: test.phaseState, appealEndDate: test.appealEndDate },
          now,
        ),
      ]);
      if (!attempt.keyShownAt) await repo.markKeyShown(db, attempt.id, now);
      return { testId, state: attempt.state, reviewed, items: toResultItems(items, keys, scores) };
    },

    /** An image a statement of the student's test shows (online: once started). */
    async file(actor: Actor, testId: string, fileId: string) {
      const now = clock.now();
      const { test, attempt } = await studentTest(actor, testId, now);
      if (test.phaseType === 'online') {
        if (!attempt) throw notFound('file');
      } else if (now.getTime() < test.startDate.getTime()) {
        throw notFound('file');
      }
      const file = await repo.findTestFile(db, testId, fileId);
      if (!file) throw notFound('file');
      return { mime: file.mime, data: await ctx.deps.storage.get(file.storageKey) };
    },

    /** The careful answer to a reload's start: the running attempt with its stored answers. */
    startResponse,
  };
}

export type CarefulPath = ReturnType<typeof careful>;
