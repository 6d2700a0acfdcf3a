import type { KeyFixInput, KeyFixPreview, KeyFixResult } from '../../../shared/schemas/reviews.js';
import type { Db } from '../../db/client.js';
import { appendAudit } from '../../lib/audit.js';
import type { Actor } from '../../lib/auth-guard.js';
import { fieldError, forbidden, notFound } from '../../lib/errors.js';
import type { PhaseIds } from '../../lib/route-params.js';
import { holdOpenPhase } from '../exams/index.js';
import { rescoreTest, scoreAnswer } from '../results/index.js';
import type { ReviewsContext, Scope } from './context.js';
import * as repo from './reviews.repo.js';

// An online item's answer key corrected by the exam's admins after an appeal on it: first
// whose scores would change, then the correction that rescores every attempt of the phase's
// tests drawing the item in one transaction and ends the committee appeals on it.

export function keyFix(ctx: ReviewsContext) {
  const { db, clock, questions } = ctx;

  /** The question a key fix targets: drawn into the phase, scored from its key; key checked. */
  async function keyFixTarget(scope: Scope, itemId: string, input: KeyFixInput) {
    if ((await repo.findPhaseItem(db, scope.phase.id, itemId)).length === 0) {
      throw notFound('item');
    }
    const question = await repo.findQuestion(db, itemId);
    if (!question) throw notFound('item');
    const key = input.itemCorrectAnswers;
    const options = question.itemAnswers.length;
    const valid =
      question.itemType === 'numeric'
        ? typeof key === 'string' &&
          key.trim() !== '' &&
          scoreAnswer({ itemType: 'numeric', itemCorrectAnswers: key, score: 1 }, key) === 1
        : question.itemType === 'single'
          ? Array.isArray(key) && key.length === 1 && key.every((k) => k < options)
          : question.itemType === 'multiple'
            ? Array.isArray(key) &&
              key.length > 0 &&
              new Set(key).size === key.length &&
              key.every((k) => k < options)
            : false;
    if (!valid) throw fieldError({ itemCorrectAnswers: ['invalid'] });
    return question;
  }

  async function keyFixChanges(
    tx: Db,
    scope: Scope,
    question: NonNullable<Awaited<ReturnType<typeof repo.findQuestion>>>,
    input: KeyFixInput,
  ): Promise<KeyFixPreview> {
    const rows = await repo.findKeyScoredAnswers(tx, scope.phase.id, question.id);
    const changes: KeyFixPreview['changes'] = [];
    for (const r of rows) {
      const submitted = r.answer_text === null ? null : (JSON.parse(r.answer_text) as unknown);
      const next =
        scoreAnswer(
          {
            itemType: question.itemType,
            itemCorrectAnswers: input.itemCorrectAnswers,
            score: Number(r.points),
          },
          submitted,
        ) ?? 0;
      const old = r.score === null ? null : Number(r.score);
      if (old === next) continue;
      changes.push({
        testId: r.test_id,
        studentId: r.student_id,
        givenName: r.given_name,
        familyName: r.family_name,
        oldScore: old,
        newScore: next,
      });
    }
    const pending = await repo.countCommitteeAppeals(tx, question.id);
    return { itemId: question.id, changes, pendingAppeals: pending };
  }

  return {
    async previewKeyFix(
      actor: Actor,
      ids: PhaseIds,
      itemId: string,
      input: KeyFixInput,
    ): Promise<KeyFixPreview> {
      const scope = await ctx.requireScope(actor, ids);
      if (!scope.viewer.manage) throw forbidden();
      const question = await keyFixTarget(scope, itemId, input);
      return keyFixChanges(db, scope, question, input);
    },

    /** Corrects the key and rescores every attempt of the phase's tests drawing the item. */
    async applyKeyFix(
      actor: Actor,
      ids: PhaseIds,
      itemId: string,
      input: KeyFixInput,
    ): Promise<KeyFixResult> {
      const scope = await ctx.requireScope(actor, ids);
      if (!scope.viewer.manage) throw forbidden();
      const question = await keyFixTarget(scope, itemId, input);
      return db.transaction(async (tx) => {
        // The phase row for update: a second fix of the same moment waits, then computes its
        // changes from the first one's scores (one audit row and one mail per real change).
        await holdOpenPhase(tx, scope.phase.id, 'update');
        const current = (await repo.findQuestion(tx, itemId)) ?? question;
        const preview = await keyFixChanges(tx, scope, current, input);
        const now = clock.now();
        const sameKey =
          JSON.stringify(current.itemCorrectAnswers) === JSON.stringify(input.itemCorrectAnswers);
        // The same fix again (or a second click) finds nothing left to do: no write, no mail.
        if (sameKey && preview.changes.length === 0 && preview.pendingAppeals === 0) {
          return { ...preview, changedItems: 0, students: 0, resolvedAppeals: 0 };
        }
        await questions.setAnswerKey(
          tx,
          actor.id,
          itemId,
          input.itemCorrectAnswers,
          input.reason ?? null,
        );
        let changedItems = 0;
        let students = 0;
        const drawn = await repo.findPhaseItem(tx, scope.phase.id, itemId);
        for (const d of drawn) {
          const r = await rescoreTest(tx, d.testId, now);
          changedItems += r.changedItems;
          students += r.students;
        }
        // Committee appeals on the item end with the corrected key's score.
        const appeals = await repo.lockCommitteeAppeals(tx, itemId);
        for (const a of appeals) {
          const answer = a.answerId ? await repo.findAnswerById(tx, a.answerId) : undefined;
          const score =
            answer?.score === null || answer?.score === undefined ? 0 : Number(answer.score);
          const original = Number(a.originalScore ?? 0);
          const outcome = score === original ? 'kept' : 'changed';
          await repo.updateAppeal(tx, a.id, {
            status: 'resolved',
            outcome,
            resultScore: score,
            finalScore: score,
            decisionNote: input.reason ?? null,
            resolvedAt: now,
          });
          await appendAudit(tx, {
            actorId: actor.id,
            action: 'appeal.key_fixed',
            entityType: 'review_appeal',
            entityId: a.id,
            before: { score: original },
            after: { score, outcome },
            reason: input.reason ?? null,
          });
        }
        await appendAudit(tx, {
          actorId: actor.id,
          action: 'review.key_fixed',
          entityType: 'phase',
          entityId: scope.phase.id,
          before: { itemId, itemCorrectAnswers: current.itemCorrectAnswers },
          after: {
            itemId,
            itemCorrectAnswers: input.itemCorrectAnswers,
            changes: preview.changes.map((c) => ({
              testId: c.testId,
              studentId: c.studentId,
              before: c.oldScore,
              after: c.newScore,
            })),
          },
          reason: input.reason ?? null,
        });
        const names = new Map<string, string>();
        for (const c of preview.changes) {
          if (!names.has(c.testId)) names.set(c.testId, await ctx.testName(tx, c.testId));
          await ctx.mailStudent(
            tx,
            c.studentId,
            c.testId,
            names.get(c.testId) ?? '',
            c.oldScore === null
              ? undefined
              : { itemId, before: c.oldScore, after: c.newScore, cause: 'key_fix' },
          );
        }
        return { ...preview, changedItems, students, resolvedAppeals: appeals.length };
      });
    },
  };
}
