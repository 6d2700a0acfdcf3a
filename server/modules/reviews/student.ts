import type { ScoreChangeCause, ScoreOrigin } from '../../../shared/schemas/results.js';
import type {
  AppealInput,
  StudentResult,
  StudentReviewItem,
  StudentScoreDecider,
} from '../../../shared/schemas/reviews.js';
import type { Db } from '../../db/client.js';
import { appendAudit } from '../../lib/audit.js';
import type { Actor } from '../../lib/auth-guard.js';
import { AppError, notFound } from '../../lib/errors.js';
import { uuidv7 } from '../../lib/ids.js';
import { holdOpenPhase } from '../exams/index.js';
import { findItemScores, findTestResults } from '../results/index.js';
import { assignAppeal } from './appeals.js';
import { anonymousCode } from './assign.js';
import type { ReviewsContext } from './context.js';
import * as repo from './reviews.repo.js';

// The student's side: their result item by item, and an appeal on one item's final score,
// once, inside the phase's appeal window.

const notAllowed = (reason: 'window' | 'already_appealed' | 'no_final_score') =>
  new AppError('APPEAL_NOT_ALLOWED', 'The item cannot be appealed', { reason });

/** The appeal window: between its dates, and never once the phase is closed. */
function windowOpen(
  phase: { state: string; appealStartDate: Date | null; appealEndDate: Date | null },
  now: Date,
) {
  return (
    phase.state !== 'closed' &&
    phase.appealStartDate !== null &&
    phase.appealEndDate !== null &&
    phase.appealStartDate.getTime() <= now.getTime() &&
    now.getTime() < phase.appealEndDate.getTime()
  );
}

/** What the student is told set an item's points: a cause, never a person. */
function deciderOf(
  origin: ScoreOrigin | null,
  lastChange: ScoreChangeCause | undefined,
): StudentScoreDecider {
  if (origin === 'marked' || origin === 'entered') return 'marking';
  if (origin === 'mediated') return 'mediation';
  if (origin === 'appealed') return 'appeal';
  return lastChange === 'key_fix' ? 'key_fix' : 'key';
}

type TestWithPhase = NonNullable<Awaited<ReturnType<typeof repo.findTestWithPhase>>>;

async function studentItems(
  tx: Db,
  found: TestWithPhase,
  studentId: string,
  now: Date,
  only?: string,
): Promise<StudentReviewItem[]> {
  const items = await repo.findTestItems(tx, found.test.id);
  const scores = await findItemScores(tx, { testId: found.test.id, studentId }, found.phase, now);
  const appeals = new Map(
    (await repo.findStudentAppeals(tx, found.test.id, studentId)).map((a) => [a.itemId, a]),
  );
  const submitted = await repo.findSubmittedAnswers(tx, found.test.id, studentId);
  const open = windowOpen(found.phase, now);
  return items
    .filter((i) => only === undefined || i.itemId === only)
    .map((i) => {
      const s = scores.get(i.itemId);
      const decided = s !== undefined && s.score !== null && s.scoreState !== 'awaiting_marking';
      const appeal = appeals.get(i.itemId);
      return {
        itemId: i.itemId,
        itemIndexInTest: i.position - 1,
        statement: i.itemQ,
        itemType: i.itemType,
        itemAnswers: i.itemAnswers,
        ownAnswer: submitted.get(i.itemId) ?? null,
        maxScore: Number(i.points),
        finalScore: decided ? s.score : null,
        scoreState: s?.scoreState ?? null,
        appealStatus: !appeal ? 'none' : appeal.status === 'resolved' ? 'resolved' : 'pending',
        appealOutcome: appeal?.outcome ?? null,
        canChallenge: open && decided && !appeal,
        decidedBy: decided ? deciderOf(s.origin, s.changes.at(-1)?.cause) : null,
        changes: (s?.changes ?? []).map((c) => ({ ...c, at: c.at.toISOString() })),
      };
    });
}

export function student(ctx: ReviewsContext) {
  const { db, clock } = ctx;

  return {
    async studentResult(actor: Actor, testId: string): Promise<StudentResult> {
      const found = await repo.findTestWithPhase(db, testId);
      if (!found || !(await repo.hasTestResult(db, testId, actor.id))) throw notFound('test');
      const now = clock.now();
      const results = await findTestResults(db, actor.id, [testId], now);
      const result = results.get(testId);
      const items = await studentItems(db, found, actor.id, now);
      return {
        testId,
        examId: found.examId,
        editionId: found.phase.editionId,
        phaseId: found.phase.id,
        hybrid: found.phase.type === 'hybrid',
        testName: found.test.name,
        score: result?.score ?? null,
        scoreState: result?.scoreState ?? null,
        appealStartDate: found.phase.appealStartDate?.toISOString() ?? null,
        appealEndDate: found.phase.appealEndDate?.toISOString() ?? null,
        appealOpen: windowOpen(found.phase, now),
        items,
      };
    },

    /** The student contests one item's final score, once, inside the phase's window. */
    async fileAppeal(
      actor: Actor,
      testId: string,
      itemId: string,
      input: AppealInput,
    ): Promise<StudentReviewItem> {
      const found = await repo.findTestWithPhase(db, testId);
      if (!found || !(await repo.hasTestResult(db, testId, actor.id))) throw notFound('test');
      const item = (await repo.findTestItems(db, testId)).find((i) => i.itemId === itemId);
      if (!item) throw notFound('item');
      return db.transaction(async (tx) => {
        // Closing ends the window whatever its dates say.
        await holdOpenPhase(tx, found.phase.id);
        const now = clock.now();
        if (!windowOpen(found.phase, now)) throw notAllowed('window');
        const answer = await repo.findAnswer(tx, testId, actor.id, itemId);
        const existing = (await repo.findStudentAppeals(tx, testId, actor.id)).find(
          (a) => a.itemId === itemId,
        );
        if (existing) throw notAllowed('already_appealed');
        if (answer?.scoreState !== 'decided' || answer.score === null) {
          throw notAllowed('no_final_score');
        }
        const entry = await repo.findEntryOfAnswer(tx, answer.id);
        const id = uuidv7(now.getTime());
        const inserted = await repo.insertAppeal(tx, {
          id,
          phaseId: found.phase.id,
          testId,
          itemId,
          studentId: actor.id,
          answerId: answer.id,
          entryId: entry?.id ?? null,
          itemIndexInTest: item.position - 1,
          code: entry?.code ?? anonymousCode(),
          kind: entry ? 'remark' : 'committee',
          reason: input.reason,
          filedAt: now,
          maxScore: Number(item.points),
          originalScore: Number(answer.score),
        });
        if (!inserted) throw notAllowed('already_appealed');
        await appendAudit(tx, {
          actorId: actor.id,
          action: 'appeal.filed',
          entityType: 'review_appeal',
          entityId: id,
          before: { score: Number(answer.score) },
          reason: input.reason,
        });
        if (entry) await assignAppeal(ctx, tx, inserted, entry, actor.id, now);
        const [view] = await studentItems(tx, found, actor.id, now, itemId);
        if (!view) throw notFound('item');
        return view;
      });
    },
  };
}
