import {
  averageMark,
  type ContestationEntry,
  type MarkInput,
  needsMediation,
  type ReviewEntry,
} from '../../../shared/schemas/reviews.js';
import type { Db } from '../../db/client.js';
import { appendAudit } from '../../lib/audit.js';
import type { Actor } from '../../lib/auth-guard.js';
import { forbidden, notFound } from '../../lib/errors.js';
import type { PhaseIds } from '../../lib/route-params.js';
import { holdOpenPhase } from '../exams/index.js';
import {
  answerOf,
  type CheckedMark,
  checkMark,
  closed,
  type ReviewsContext,
  type Scope,
  stale,
} from './context.js';
import {
  conflictedAmong,
  conflictOfInterest,
  decides,
  decidingOf,
  lacksMarkers,
} from './deciders.js';
import * as repo from './reviews.repo.js';

// The two rounds of marking, first marking (an entry) and an appeal's re-marking, follow one
// flow: an assigned reviewer saves a mark (the version checked against a second tab); once both
// marks are in, their average is final when they agree within the phase's threshold, else the
// question's mediator decides. What differs — which row, when it takes a write, what a final
// score does — is a round's description below; `saveMark` and `saveMediation` are the flow.

/** The columns the flow reads of an entry or an appeal. */
type RoundRow = {
  id: string;
  itemId: string;
  studentId: string;
  maxScore: number;
  version: number;
  /** An appeal's first-round entry. */
  entryId?: string | null;
};

/** How a score was decided, and the mediator's mark when it was theirs. */
type Decision = { how: 'average' | 'mediator'; actorId: string; at: Date; mark?: CheckedMark };

/** What a round is: its rows, when they take marks, and what deciding one does. */
type Round<Row extends RoundRow, View> = {
  /** The audit's entity and action prefix (`review.marked`, `appeal.mediated`…). */
  entity: 'review_entry' | 'review_appeal';
  action: 'review' | 'appeal';
  /** The 404's subject. */
  subject: 'review' | 'appeal';
  /** The row as the caller may see it (404 when they may not), before any lock. */
  find(ctx: ReviewsContext, scope: Scope, id: string): Promise<unknown>;
  lock(tx: Db, phaseId: string, id: string): Promise<Row | undefined>;
  update(tx: Db, id: string, patch: Partial<Row>): Promise<Row>;
  view(ctx: ReviewsContext, tx: Db, scope: Scope, row: Row): Promise<View | undefined>;
  /** Whether people mark it (a committee appeal is the exam admins'). */
  markedByPeople(row: Row): boolean;
  /** Whether it waits for reviewers' marks, or for its mediator. */
  awaits(tx: Db, row: Row, stage: 'marks' | 'mediation'): Promise<boolean>;
  /** The patch of two marks too far apart. */
  waitsForMediator: Partial<Row>;
  /** The audit's `before` of a mediation. */
  mediationBefore?: { score: null };
  /** Records the decided score (the average of two marks, or the mediator's): the row's patch. */
  decide(
    ctx: ReviewsContext,
    tx: Db,
    scope: Scope,
    row: Row,
    score: number,
    by: Decision,
  ): Promise<Partial<Row>>;
};

const appealedEntry = async (tx: Db, id: string) =>
  (await repo.entriesWithAppeal(tx, [id])).has(id);

/** The mediator's columns, the same on entries and appeals. */
const mediatorColumns = (by: Decision) => ({
  mediatorId: by.actorId,
  mediatorScore: by.mark?.score ?? null,
  mediatorNote: by.mark?.note ?? null,
});

/** First marking: two reviewers of the answer, then its mediator; final through results. */
export const REVIEW_ROUND: Round<repo.EntryRow, ReviewEntry> = {
  entity: 'review_entry',
  action: 'review',
  subject: 'review',
  find: (ctx, scope, id) => ctx.requireEntryView(ctx.db, scope, id),
  lock: repo.lockEntry,
  update: repo.updateEntry,
  view: async (ctx, tx, scope, row) => (await ctx.entriesAsSeen(tx, scope, [row]))[0],
  markedByPeople: () => true,
  // An entry whose final score is appealed is the appeal's to change.
  awaits: async (tx, row, stage) =>
    row.status === (stage === 'marks' ? 'marking' : 'needs_mediation') &&
    !(await appealedEntry(tx, row.id)),
  waitsForMediator: { status: 'needs_mediation' },
  mediationBefore: { score: null },
  async decide(ctx, tx, _scope, row, score, by) {
    const mediated = by.how === 'mediator';
    await ctx.recordFinal(tx, answerOf(row), score, mediated ? 'mediated' : 'marked', by.at);
    if (mediated) {
      return {
        status: 'final',
        ...mediatorColumns(by),
        mediatedAt: by.at,
        finalScore: score,
        finalBy: 'mediator',
      };
    }
    await appendAudit(tx, {
      actorId: by.actorId,
      action: 'review.final',
      entityType: 'review_entry',
      entityId: row.id,
      after: { score, by: 'average' },
    });
    return { status: 'final', finalScore: score, finalBy: 'average' };
  },
};

/**
 * An appeal's re-marking: two other teachers of the question, then a mediator who neither marked
 * nor mediated the answer before (else the exam's admins, deciders.ts); the result settles
 * against the original score (resolveRemark).
 */
export const APPEAL_ROUND: Round<repo.AppealRow, ContestationEntry> = {
  entity: 'review_appeal',
  action: 'appeal',
  subject: 'appeal',
  find: (ctx, scope, id) => ctx.requireAppealView(ctx.db, scope, id),
  lock: repo.lockAppeal,
  update: repo.updateAppeal,
  view: async (ctx, tx, scope, row) => (await ctx.appealsAsSeen(tx, scope, [row]))[0],
  markedByPeople: (row) => row.kind === 'remark',
  // One short of re-markers waits for the admins' decision as one whose marks differ.
  awaits: async (tx, row, stage) =>
    stage === 'marks'
      ? row.status === 'pending'
      : row.status === 'needs_mediation' ||
        lacksMarkers(row, (await repo.findMarks(tx, [row.id])).get(row.id) ?? []),
  waitsForMediator: { status: 'needs_mediation' },
  async decide(ctx, tx, scope, row, score, by) {
    const resolved = await ctx.resolveRemark(tx, row, scope, score, by.actorId, by.at);
    return by.how === 'mediator' ? { ...resolved, ...mediatorColumns(by) } : resolved;
  },
};

/** The marking flow of both rounds, bound to the service's context. */
export function markingFlow(ctx: ReviewsContext) {
  const { db, clock } = ctx;

  /**
   * Runs `work` on the entry or appeal of the round, found in the actor's scope of the phase and
   * locked in a transaction (404 outside it).
   */
  async function inLockedRow<Row extends RoundRow, View>(
    round: Round<Row, View>,
    actor: Actor,
    ids: PhaseIds,
    reviewId: string,
    work: (tx: Db, scope: Scope, row: Row) => Promise<View>,
  ): Promise<View> {
    const scope = await ctx.requireScope(actor, ids);
    await round.find(ctx, scope, reviewId);
    return db.transaction(async (tx) => {
      await holdOpenPhase(tx, scope.phase.id);
      const row = await round.lock(tx, scope.phase.id, reviewId);
      if (!row) throw notFound(round.subject);
      return work(tx, scope, row);
    });
  }

  async function checked(tx: Db, scope: Scope, row: RoundRow, input: MarkInput) {
    return checkMark(
      input,
      Number(row.maxScore),
      scope.settings.markStep,
      await ctx.rubricCriteria(tx, row.itemId),
    );
  }

  async function viewOf<Row extends RoundRow, View>(
    round: Round<Row, View>,
    tx: Db,
    scope: Scope,
    row: Row,
  ) {
    const view = await round.view(ctx, tx, scope, row);
    if (!view) throw notFound(round.subject);
    return view;
  }

  return {
    /** An assigned reviewer's mark; the second mark decides (average, or the mediator). */
    async saveMark<Row extends RoundRow, View>(
      round: Round<Row, View>,
      actor: Actor,
      ids: PhaseIds,
      reviewId: string,
      input: MarkInput,
    ): Promise<View> {
      return inLockedRow(round, actor, ids, reviewId, async (tx, scope, row) => {
        const marks = (await repo.findMarks(tx, [row.id])).get(row.id) ?? [];
        const mine = marks.find((m) => m.reviewerId === actor.id);
        if (!mine || !round.markedByPeople(row)) throw forbidden();
        // Assigned before the student named them coordinator, or by hand: still not theirs.
        if ((await conflictedAmong(tx, row.studentId, [actor.id])).size > 0) {
          throw conflictOfInterest();
        }
        if (input.version !== undefined && input.version !== row.version) throw stale();
        if (!(await round.awaits(tx, row, 'marks'))) throw closed();
        const mark = await checked(tx, scope, row, input);
        const now = clock.now();
        await repo.updateMark(tx, mine.id, { ...mark, markedAt: now });
        await appendAudit(tx, {
          actorId: actor.id,
          action: `${round.action}.marked`,
          entityType: round.entity,
          entityId: row.id,
          before: { slot: mine.slot, score: mine.score === null ? null : Number(mine.score) },
          after: { slot: mine.slot, score: mark.score, criteria: mark.criteria },
          reason: mark.note,
        });
        const given = marks.map((m) =>
          m.id === mine.id ? mark.score : m.score === null ? null : Number(m.score),
        );
        let patch: Partial<Row> = {};
        const [a, b] = given;
        if (given.length >= 2 && a != null && b != null) {
          patch = needsMediation(a, b, Number(row.maxScore), scope.settings.threshold)
            ? round.waitsForMediator
            : await round.decide(ctx, tx, scope, row, averageMark(a, b), {
                how: 'average',
                actorId: actor.id,
                at: now,
              });
        }
        return viewOf(round, tx, scope, await round.update(tx, row.id, patch));
      });
    },

    /**
     * The question's mediator decides an entry or appeal whose two marks differ too much; the
     * exam's admins when the rules bar that mediator (deciders.ts).
     */
    async saveMediation<Row extends RoundRow, View>(
      round: Round<Row, View>,
      actor: Actor,
      ids: PhaseIds,
      reviewId: string,
      input: MarkInput,
    ): Promise<View> {
      return inLockedRow(round, actor, ids, reviewId, async (tx, scope, row) => {
        if (!round.markedByPeople(row)) throw forbidden();
        const deciding = (await decidingOf(tx, [row], [actor.id])).get(row.id);
        if (!decides(deciding, scope.viewer)) {
          throw deciding?.conflicted.has(actor.id) ? conflictOfInterest() : forbidden();
        }
        if (input.version !== undefined && input.version !== row.version) throw stale();
        if (!(await round.awaits(tx, row, 'mediation'))) throw closed();
        const mark = await checked(tx, scope, row, input);
        const now = clock.now();
        await appendAudit(tx, {
          actorId: actor.id,
          action: `${round.action}.mediated`,
          entityType: round.entity,
          entityId: row.id,
          ...(round.mediationBefore ? { before: round.mediationBefore } : {}),
          after: { score: mark.score, criteria: mark.criteria },
          reason: mark.note,
        });
        const patch = await round.decide(ctx, tx, scope, row, mark.score, {
          how: 'mediator',
          actorId: actor.id,
          at: now,
          mark,
        });
        return viewOf(round, tx, scope, await round.update(tx, row.id, patch));
      });
    },
  };
}
