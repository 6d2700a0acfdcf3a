import type {
  AnswerAck,
  AnswerRequest,
  ExtraTimeRequest,
  Incident,
  MyTest,
  PlayerItemsResponse,
  PlayerState,
  ReopenRequest,
  StartRequest,
  StartResponse,
} from '../../../shared/schemas/player.js';
import type { Config } from '../../config.js';
import type { Database, Db } from '../../db/client.js';
import { appendAudit } from '../../lib/audit.js';
import type { Actor } from '../../lib/auth-guard.js';
import type { Clock } from '../../lib/clock.js';
import { AppError, forbidden, notFound, validationFailed } from '../../lib/errors.js';
import type { FileStorage } from '../../lib/files/storage.js';
import { uuidv7 } from '../../lib/ids.js';
import type { Notices } from '../../lib/notices.js';
import { sha256 } from '../../lib/secrets.js';
import { loadExamAccess } from '../exams/index.js';
import { answerWriter } from './player.answer-writer.js';
import {
  newStartJson,
  secondsLeft,
  stableItemOrder,
  testWindow,
  toIncident,
  toMyTest,
  toPlayerItems,
  toPlayerState,
  toResultItems,
  unansweredItemsJson,
} from './player.dto.js';
import * as hot from './player.hot.repo.js';
import { canHandleIncidents, isStudentsTest, seesIncidents } from './player.policy.js';
import type { AttemptRow, StudentTestRow } from './player.repo.js';
import * as repo from './player.repo.js';
import { scoreAnswer, totalScore } from './player.scoring.js';

export type PlayerDeps = {
  database: Pick<Database, 'db' | 'pool'>;
  clock: Clock;
  storage: FileStorage;
  config: Pick<Config, 'player'>;
  /** Where a changed deadline is announced to the student's open event stream. */
  notices?: Pick<Notices, 'publish'>;
};

/** Plans exam day's statements on one database connection (the server warms its pool). */
export const warmPlayerConnection = hot.warmHotStatements;

/** The notice topic of one student's attempt at one test. */
export const attemptTopic = (studentId: string, testId: string) => `attempt:${studentId}:${testId}`;

type FinishedBy = 'student' | 'sweeper' | 'staff';

const notActive = (why: string) => new AppError('TEST_NOT_ACTIVE', why);
const alreadyReviewed = () => new AppError('TEST_ALREADY_REVIEWED', 'The test is finished');

/** Most attempts one sweeper transaction finalises. */
const SWEEP_BATCH = 50;
/** How long a test's facts and item statements are served from memory. */
const CACHE_TTL_MS = 5_000;

/** The shape facts the answer statement checks against the item, computed once here. */
function answerShape(answer: AnswerRequest['submittedAnswer']) {
  if (answer === null) return { kind: 'null' as const, length: 0, maxIndex: -1 };
  if (Array.isArray(answer)) {
    return { kind: 'array' as const, length: answer.length, maxIndex: Math.max(-1, ...answer) };
  }
  return { kind: 'string' as const, length: answer.length, maxIndex: -1 };
}

/**
 * The test player's rules (SPEC.md §4 Test-taking; DESIGN.md "Exam day"). The server's clock
 * decides every window and deadline; an attempt ends once, under its row lock, and any read
 * of an attempt past its deadline plus grace finalises it first, so what a student sees never
 * depends on when the sweeper last ran.
 */
export function playerService(deps: PlayerDeps) {
  const { db } = deps.database;
  const { clock, storage } = deps;
  const graceMs = deps.config.player.answerGraceSeconds * 1000;
  const writeAnswer = answerWriter(deps.database);
  const queries = repo.playerQueries(db);
  const startStatement = hot.starter(deps.database);

  /**
   * What every student of a test reads alike, kept CACHE_TTL_MS per test: on exam day
   * thousands start the same test in the same minute. An organiser's edit reaches students
   * who start (or reload) after that much time; a refusal is always decided on fresh rows.
   */
  function perTestCache<T>(read: (testId: string) => Promise<T>) {
    const entries = new Map<string, { at: number; value: Promise<T> }>();
    return (testId: string): Promise<T> => {
      const at = clock.now().getTime();
      const fresh = (entry: { at: number }) => at >= entry.at && at - entry.at < CACHE_TTL_MS;
      const hit = entries.get(testId);
      if (hit && fresh(hit)) return hit.value;
      if (entries.size > 200) {
        for (const [key, entry] of entries) if (!fresh(entry)) entries.delete(key);
      }
      const value = read(testId);
      entries.set(testId, { at, value });
      // A failed read is not kept.
      value.catch(() => {
        if (entries.get(testId)?.value === value) entries.delete(testId);
      });
      return value;
    };
  }
  const testContent = perTestCache((testId) => queries.testContent(testId));
  const newItemsJson = perTestCache(async (testId) =>
    unansweredItemsJson(await testContent(testId)),
  );
  const testFacts = perTestCache((testId) => queries.testFacts(testId));

  /** The test's items with this student's stored answers (none to read for a new attempt). */
  async function attemptItems(
    testId: string,
    forStudent: string,
    isNew = false,
  ): Promise<repo.AttemptItemRow[]> {
    const [items, stored] = await Promise.all([
      testContent(testId),
      isNew ? [] : queries.storedAnswers(testId, forStudent),
    ]);
    const byItem = new Map(stored.map((a) => [a.itemId, a]));
    return items.map((item) => {
      const answer = byItem.get(item.itemId);
      return {
        ...item,
        submittedAnswer: answer?.submittedAnswer ?? null,
        seq: answer?.seq ?? null,
        awardedScore: answer?.awardedScore ?? null,
      };
    });
  }

  const cutoffOf = (now: Date) => new Date(now.getTime() - graceMs);
  /** Past deadline plus grace: no more answers; the attempt only waits to be finalised. */
  const isOverdue = (attempt: AttemptRow, now: Date) =>
    attempt.state === 'in_progress' && attempt.deadlineAt.getTime() < cutoffOf(now).getTime();

  /**
   * The test, if it is one of the student's (else 404, whatever the reason), with their
   * attempt as it stands now (one overdue is finalised first).
   */
  async function studentTest(actor: Actor, testId: string, now: Date) {
    const found = await queries.studentTest(actor.id, testId);
    if (!found || !isStudentsTest(found.test)) throw notFound('test');
    return { test: found.test, attempt: await settle(found.attempt, now) };
  }

  /**
   * Ends a locked running attempt: scores every stored answer of its items, records the
   * total and who ended it. The sweeper (and any late read) records the deadline as the
   * finish time; a student finishing within the grace, the moment they asked but never past
   * the deadline.
   */
  async function finalizeLocked(
    tx: Db,
    attempt: AttemptRow,
    by: FinishedBy,
    now: Date,
    actorId: string | null,
  ): Promise<AttemptRow> {
    const finishedAt =
      by === 'sweeper'
        ? attempt.deadlineAt
        : new Date(Math.min(now.getTime(), attempt.deadlineAt.getTime()));
    const inAttempt = new Set(attempt.itemOrder);
    const rows = await repo.scoringRows(tx, attempt.testId, attempt.studentId);
    const scores = rows.flatMap((row) =>
      row.answerId && inAttempt.has(row.itemId)
        ? [{ id: row.answerId, score: scoreAnswer(row, row.submittedAnswer) }]
        : [],
    );
    const score = totalScore(scores.map((s) => s.score));
    await repo.setAnswerScores(tx, scores);
    const finished = await repo.updateAttempt(tx, attempt.id, {
      state: 'finished',
      finishedAt,
      finishedBy: by,
      score,
    });
    await appendAudit(tx, {
      actorId,
      action: 'attempt.finish',
      entityType: 'attempt',
      entityId: attempt.id,
      before: { state: attempt.state, score: attempt.score },
      after: { state: 'finished', score, finishedBy: by, finishedAt: finishedAt.toISOString() },
    });
    return finished;
  }

  /** The attempt as it stands now: one past its deadline plus grace is finalised first. */
  async function settle(attempt: AttemptRow | undefined, now: Date) {
    if (!attempt || !isOverdue(attempt, now)) return attempt;
    return db.transaction(async (tx) => {
      const locked = await repo.findAttempt(tx, attempt.testId, attempt.studentId, 'update');
      if (!locked || !isOverdue(locked, now)) return locked;
      return finalizeLocked(tx, locked, 'sweeper', now, null);
    });
  }

  /** The start answer without its items. */
  function startHead(test: StudentTestRow, attempt: AttemptRow, now: Date) {
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

  /**
   * Tells the student's open player that the deadline moved. The change is committed already;
   * a notice that cannot be sent changes nothing, the player's next state check brings it.
   */
  async function announceDeadline(attempt: AttemptRow) {
    await deps.notices
      ?.publish(attemptTopic(attempt.studentId, attempt.testId), {
        deadline: attempt.deadlineAt.toISOString(),
      })
      .catch(() => undefined);
  }

  /** Scope and rights for the incident calls; the test's competition decides. */
  async function incidentScope(actor: Actor, testId: string) {
    const found = await queries.studentTest(actor.id, testId);
    if (!found) throw notFound('test');
    const access = await loadExamAccess(db, actor, found.test.examId);
    if (!seesIncidents(access)) throw notFound('test');
    if (!canHandleIncidents(access)) throw forbidden();
    return found.test;
  }

  /**
   * The fast path of an answer: one statement that resolves the session, checks the attempt
   * and upserts. Null when it wrote nothing; `explainAnswer` then says why (or acks a stale
   * retry with the stored seq).
   */
  async function tryAnswer(
    token: string,
    testId: string,
    body: AnswerRequest,
  ): Promise<AnswerAck | null> {
    const now = clock.now();
    const shape = answerShape(body.submittedAnswer);
    const written = await writeAnswer([
      sha256(token),
      now.toISOString(),
      cutoffOf(now).toISOString(),
      testId,
      body.itemId,
      body.submittedAnswer === null ? null : JSON.stringify(body.submittedAnswer),
      body.seq,
      uuidv7(now.getTime()),
      shape.kind,
      shape.length,
      shape.maxIndex,
    ]);
    if (!written) return null;
    return {
      itemId: body.itemId,
      seq: written.seq,
      savedAt: new Date(written.savedMs).toISOString(),
      deadline: new Date(written.deadlineMs).toISOString(),
    };
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
    const existing = await settle(found, now);
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

  return {
    tryAnswer,

    async myTests(actor: Actor): Promise<MyTest[]> {
      const now = clock.now();
      const mine = (await queries.studentTests(actor.id)).filter((row) => isStudentsTest(row.test));
      const hybridIds = mine.filter((r) => r.test.phaseType === 'hybrid').map((r) => r.test.testId);
      const answered = await repo.testsWithAnswers(db, actor.id, hybridIds);
      const result: MyTest[] = [];
      for (const { test, attempt } of mine) {
        const settled = await settle(attempt, now);
        result.push(toMyTest(test, settled, answered.has(test.testId), now));
      }
      return result;
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

    /**
     * The start of exam day's first minute, in one statement: the session, the student's
     * registration, grade and attempt, and the new attempt when there is none; the test's
     * facts and statements come from memory. Null when the session is not a signed-in,
     * registered, active student's, or when anything would be refused: the full guard and
     * `start` then decide on fresh rows and say why.
     */
    async tryStart(
      token: string,
      testId: string,
      body: StartRequest,
    ): Promise<StartResponse | string | null> {
      const now = clock.now();
      const facts = await testFacts(testId);
      if (facts?.phaseType !== 'online' || !facts.published) return null;
      const mayCreate = body.termsAccepted === true && testWindow(facts, now) === 'open';
      const deadlineAt = new Date(
        Math.min(now.getTime() + facts.durationMinutes * 60_000, facts.endDate.getTime()),
      );
      const row = await startStatement([
        sha256(token),
        now.toISOString(),
        facts.phaseId,
        facts.editionId,
        testId,
        uuidv7(now.getTime()),
        deadlineAt.toISOString(),
        facts.seed,
        `{${facts.grades.join(',')}}`,
        mayCreate,
      ]);
      if (!row) return null;
      const test: StudentTestRow = { ...facts, registered: row.in_phase, grade: row.grade };
      if (!isStudentsTest(test)) return null;
      const attempt = hot.attemptOfStart(row, testId);
      if (!attempt) return null;
      if (row.inserted) {
        // A new attempt has no answers: its items are the test's, joined in the student's order.
        const itemsJson = await newItemsJson(testId);
        return newStartJson(startHead(test, attempt, now), attempt.itemOrder, itemsJson);
      }
      // Running already (a reload): the same answer as `start`, unless it is over.
      if (attempt.state !== 'in_progress' || isOverdue(attempt, now)) return null;
      return startResponse(test, attempt, now);
    },

    /** Why an answer was not written, as an error; or the ack of a stale or repeated write. */
    async explainAnswer(
      actor: Actor,
      token: string,
      testId: string,
      body: AnswerRequest,
    ): Promise<AnswerAck> {
      const { test, attempt } = await studentTest(actor, testId, clock.now());
      if (test.phaseType !== 'online') throw forbidden();
      if (!attempt) throw notActive('The test has not been started');
      if (attempt.state === 'finished') {
        // Time ran out (the sweeper's finish) reads differently from a finished test.
        throw attempt.finishedBy === 'sweeper' ? notActive('The time is up') : alreadyReviewed();
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
      const again = await tryAnswer(token, testId, body);
      if (again) return again;
      throw validationFailed([{ code: 'invalid', path: ['submittedAnswer'] }]);
    },

    /** Finishes once, under the row lock; repeating returns the same result. */
    async finish(actor: Actor, testId: string): Promise<PlayerState> {
      const now = clock.now();
      const found = await queries.studentTest(actor.id, testId);
      if (!found || !isStudentsTest(found.test)) throw notFound('test');
      const { test } = found;
      if (test.phaseType !== 'online') throw forbidden();
      // Already over: the same answer again, without taking the lock.
      if (found.attempt?.state === 'finished') return toPlayerState(test, found.attempt, now);
      const attempt = await db.transaction(async (tx) => {
        const locked = await repo.findAttempt(tx, testId, actor.id, 'update');
        if (!locked) return undefined;
        if (locked.state === 'finished') return locked;
        const by = isOverdue(locked, now) ? 'sweeper' : 'student';
        return finalizeLocked(tx, locked, by, now, by === 'student' ? actor.id : null);
      });
      if (!attempt) throw notActive('The test has not been started');
      return toPlayerState(test, attempt, now);
    },

    async state(actor: Actor, testId: string): Promise<PlayerState> {
      const now = clock.now();
      const { test, attempt } = await studentTest(actor, testId, now);
      return toPlayerState(test, attempt, now);
    },

    /**
     * The attempt's items with the stored answers. Correct answers and earned points only
     * once the attempt is over, the window has closed and nobody is still writing the test.
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
        !(await repo.hasRunningAttempt(db, testId, cutoffOf(now)));
      if (!reviewed) return { testId, state: attempt.state, reviewed, items };
      const scoring = await repo.scoringRows(db, testId, actor.id);
      return { testId, state: attempt.state, reviewed, items: toResultItems(items, rows, scoring) };
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
      return { mime: file.mime, data: await storage.get(file.storageKey) };
    },

    /** Extra minutes for a running attempt (audited). An attempt already over is refused. */
    async extraTime(
      actor: Actor,
      testId: string,
      studentId: string,
      input: ExtraTimeRequest,
    ): Promise<Incident> {
      await incidentScope(actor, testId);
      const now = clock.now();
      const outcome = await db.transaction(async (tx) => {
        const attempt = await repo.findAttempt(tx, testId, studentId, 'update');
        if (!attempt) return { kind: 'missing' as const };
        if (isOverdue(attempt, now)) {
          await finalizeLocked(tx, attempt, 'sweeper', now, null);
          return { kind: 'over' as const };
        }
        if (attempt.state === 'finished') return { kind: 'over' as const };
        const seconds = input.minutes * 60;
        const updated = await repo.updateAttempt(tx, attempt.id, {
          deadlineAt: new Date(attempt.deadlineAt.getTime() + seconds * 1000),
          extraSeconds: attempt.extraSeconds + seconds,
        });
        await appendAudit(tx, {
          actorId: actor.id,
          action: 'attempt.extra_time',
          entityType: 'attempt',
          entityId: attempt.id,
          before: {
            deadlineAt: attempt.deadlineAt.toISOString(),
            extraSeconds: attempt.extraSeconds,
          },
          after: {
            deadlineAt: updated.deadlineAt.toISOString(),
            extraSeconds: updated.extraSeconds,
          },
          reason: input.reason,
        });
        return { kind: 'done' as const, attempt: updated };
      });
      if (outcome.kind === 'missing') throw notFound('attempt');
      if (outcome.kind === 'over') throw alreadyReviewed();
      await announceDeadline(outcome.attempt);
      return toIncident(outcome.attempt, now);
    },

    /**
     * Reopens an attempt after a proven incident: it runs again for exactly
     * `remainingSeconds` from now, answers kept, score cleared until it ends again (audited).
     */
    async reopen(
      actor: Actor,
      testId: string,
      studentId: string,
      input: ReopenRequest,
    ): Promise<Incident> {
      await incidentScope(actor, testId);
      const now = clock.now();
      const attempt = await db.transaction(async (tx) => {
        const locked = await repo.findAttempt(tx, testId, studentId, 'update');
        if (!locked) return undefined;
        const reopened = await repo.updateAttempt(tx, locked.id, {
          state: 'in_progress',
          deadlineAt: new Date(now.getTime() + input.remainingSeconds * 1000),
          finishedAt: null,
          finishedBy: null,
          score: null,
        });
        await repo.clearAnswerScores(tx, testId, studentId);
        await appendAudit(tx, {
          actorId: actor.id,
          action: 'attempt.reopen',
          entityType: 'attempt',
          entityId: locked.id,
          before: {
            state: locked.state,
            deadlineAt: locked.deadlineAt.toISOString(),
            score: locked.score,
            finishedAt: locked.finishedAt?.toISOString() ?? null,
            finishedBy: locked.finishedBy,
          },
          after: {
            state: 'in_progress',
            deadlineAt: reopened.deadlineAt.toISOString(),
            remainingSeconds: input.remainingSeconds,
          },
          reason: input.reason,
        });
        return reopened;
      });
      if (!attempt) throw notFound('attempt');
      await announceDeadline(attempt);
      return toIncident(attempt, now);
    },

    /**
     * Finalises every attempt past its deadline plus grace with its stored answers (finish
     * time = deadline, by 'sweeper'). Safe to run anywhere at any time: rows another
     * instance holds are skipped. Returns how many it finalised.
     */
    async sweep(): Promise<number> {
      const now = clock.now();
      const cutoff = cutoffOf(now);
      let total = 0;
      for (;;) {
        const count = await db.transaction(async (tx) => {
          const overdue = await repo.lockOverdueAttempts(tx, cutoff, SWEEP_BATCH);
          for (const attempt of overdue) await finalizeLocked(tx, attempt, 'sweeper', now, null);
          return overdue.length;
        });
        total += count;
        if (count < SWEEP_BATCH) return total;
      }
    },
  };
}

export type PlayerService = ReturnType<typeof playerService>;
