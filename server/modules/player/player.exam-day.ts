import { sql } from 'drizzle-orm';
import type {
  AnswerAck,
  PlayerState,
  SequencedAnswer,
  StartRequest,
  StartResponse,
} from '../../../shared/schemas/player.js';
import { groupCommit } from '../../lib/group-commit.js';
import { uuidv7 } from '../../lib/ids.js';
import { sha256 } from '../../lib/secrets.js';
import { answerWriter, resultState } from '../results/index.js';
import type { PlayerContext } from './player.context.js';
import { newStartJson, startHead, testWindow, toPlayerState } from './player.dto.js';
import { afterEnding } from './player.ending.js';
import * as hot from './player.hot.repo.js';
import { isStudentsTest } from './player.policy.js';
import type { AttemptRow, StudentTestRow } from './player.repo.js';

// EXAM DAY'S FAST PATH — fenced on purpose. In the first minute thousands of students start
// the same test, then write 1,500 answers a second, then finish within seconds of each other.
// Each of the three calls is decided here in as few round trips as possible: the session is
// resolved inside the statement itself, the test's facts come from a 5-second cache, answers
// and finishes that arrive together are written together (group commit). Anything unusual —
// no session, a refusal, a finished attempt — answers null, and the careful path
// (player.attempts.ts) decides it on fresh rows and says why; a table-driven test sends the
// same refused requests through both paths. Change it only with `npm run bench -- exam-day`.

/** The shape facts the answer statement checks against the item, computed once here. */
function answerShape(answer: SequencedAnswer['submittedAnswer']) {
  if (answer === null) return { kind: 'null' as const, length: 0, maxIndex: -1 };
  if (Array.isArray(answer)) {
    return { kind: 'array' as const, length: answer.length, maxIndex: Math.max(-1, ...answer) };
  }
  return { kind: 'string' as const, length: answer.length, maxIndex: -1 };
}

type FinishRequest = { tokenHash: string; testId: string; now: Date; cutoff: Date };
type Finished = {
  attempt: AttemptRow;
  points: number;
  awaitingItems: number;
  /** The phase's appeal window's end, read with the attempt (the facts cache may be older). */
  appealEndDate: Date | null;
};

/**
 * Ends the running attempts of a group of finishes in one transaction: one statement resolves
 * the sessions and moves each student's running attempt to `finished` (the sweeper's, at the
 * deadline, when already past deadline plus grace); the results module then scores them all at
 * once. A request whose session or attempt does not qualify gets null.
 */
async function finishGroup(
  ctx: PlayerContext,
  group: readonly FinishRequest[],
): Promise<(Finished | null)[]> {
  const records = group.map((r, i) => ({
    n: i + 1,
    token_hash: r.tokenHash,
    test_id: r.testId,
    now: r.now.toISOString(),
    cutoff: r.cutoff.toISOString(),
  }));
  const latest = new Date(Math.max(...group.map((r) => r.now.getTime())));
  return ctx.db.transaction(async (tx) => {
    const result = await tx.execute(sql`
      with r as (
        select * from jsonb_to_recordset(${JSON.stringify(records)}::jsonb)
          as r(n int, token_hash text, test_id uuid, now timestamptz, cutoff timestamptz)
      ), target as (
        select at.id, r.n, r.now, r.cutoff
        from r
        join sessions se on se.token_hash = r.token_hash and se.revoked_at is null
          and se.expires_at > r.now
        join users u on u.id = se.user_id and u.deleted_at is null and u.type = 'student'
          and u.state = 'active' and u.registered
        join attempts at on at.test_id = r.test_id and at.student_id = u.id
          and at.state = 'in_progress'
        order by at.id
        for update of at
      )
      update attempts at set state = 'finished',
        finished_by = case when at.deadline_at < target.cutoff then 'sweeper' else 'student' end,
        finished_at = case when at.deadline_at < target.cutoff then at.deadline_at
          else least(target.now, at.deadline_at) end
      from target
      where at.id = target.id
      returning target.n, ${hot.ATTEMPT_RECORD_COLUMNS},
        (select p.appeal_end_date from tests t join phases p on p.id = t.phase_id
          where t.id = at.test_id) as appeal_end_date`);
    type Row = hot.AttemptRecord & { n: number; appeal_end_date: Date | string | null };
    const rows = (result as unknown as { rows: Row[] }).rows;
    const byPlace = new Map(rows.map((row) => [Number(row.n), hot.attemptOfRecord(row)]));
    const appealEnds = new Map(
      rows.map((row) => [
        Number(row.n),
        row.appeal_end_date === null ? null : new Date(row.appeal_end_date),
      ]),
    );
    const ended = [...byPlace.values()];
    const scored = await afterEnding(
      tx,
      ended,
      (a) => (a.finishedBy === 'student' ? a.studentId : null),
      latest,
    );
    const byAttempt = new Map(scored.map((s) => [s.attempt.id, s]));
    return group.map((_, i) => {
      const attempt = byPlace.get(i + 1);
      const done = attempt && byAttempt.get(attempt.id);
      return done ? { ...done, appealEndDate: appealEnds.get(i + 1) ?? null } : null;
    });
  });
}

export function examDayPath(ctx: PlayerContext) {
  const { clock } = ctx;
  const writeAnswer = answerWriter(ctx.deps.database);
  const startStatement = hot.starter(ctx.deps.database);
  const finish = groupCommit<FinishRequest, Finished | null>({
    runGroup: (group) => finishGroup(ctx, group),
    runAlone: async (request) => (await finishGroup(ctx, [request]))[0] ?? null,
    keyOf: (r) => `${r.tokenHash} ${r.testId}`,
    inFlight: 2,
    maxGroup: 200,
  });

  return {
    /**
     * The start of exam day's first minute, in one statement: the session, the student's
     * registration, grade and attempt, and the new attempt when there is none; the test's
     * facts and statements come from memory. Null when the session is not a signed-in,
     * registered, active student's, or when anything would be refused, and for a running
     * attempt (a reload): the careful path then answers.
     */
    async tryStart(
      token: string,
      testId: string,
      body: StartRequest,
    ): Promise<StartResponse | string | null> {
      const now = clock.now();
      const facts = await ctx.testFacts(testId);
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
      if (!row?.inserted) return null;
      const test: StudentTestRow = { ...facts, registered: row.in_phase, grade: row.grade };
      if (!isStudentsTest(test)) return null;
      const attempt = hot.attemptOfStart(row, testId);
      if (!attempt) return null;
      // A new attempt has no answers: its items are the test's, joined in the student's order.
      const itemsJson = await ctx.newItemsJson(testId);
      return newStartJson(startHead(test, attempt, now), attempt.itemOrder, itemsJson);
    },

    /**
     * One answer, in one statement that resolves the session, checks the attempt and upserts
     * (grouped with the answers arriving meanwhile). Null when it wrote nothing.
     */
    async tryAnswer(
      token: string,
      testId: string,
      body: SequencedAnswer,
    ): Promise<AnswerAck | null> {
      const now = clock.now();
      const shape = answerShape(body.submittedAnswer);
      const written = await writeAnswer([
        sha256(token),
        now.toISOString(),
        ctx.cutoffOf(now).toISOString(),
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
    },

    /**
     * The finish, grouped with the finishes arriving meanwhile: one transaction ends and
     * scores them all. Null when the attempt is not running (not started, finished already)
     * or the session does not qualify.
     */
    async tryFinish(token: string, testId: string): Promise<PlayerState | null> {
      const now = clock.now();
      const facts = await ctx.testFacts(testId);
      if (facts?.phaseType !== 'online') return null;
      const done = await finish({
        tokenHash: sha256(token),
        testId,
        now,
        cutoff: ctx.cutoffOf(now),
      });
      if (!done) return null;
      return toPlayerState(
        facts,
        done.attempt,
        {
          score: done.points,
          // A finish happens only in an open phase (closing one ends its attempts first).
          scoreState: resultState(
            done.awaitingItems,
            { state: 'open', appealEndDate: done.appealEndDate },
            now,
          ),
          awaitingItems: done.awaitingItems,
          decidedItems: 0,
        },
        now,
      );
    },
  };
}

export type ExamDayPath = ReturnType<typeof examDayPath>;
