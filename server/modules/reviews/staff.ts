import {
  type MarkingScope,
  REMINDER_INTERVAL_HOURS,
  type ReassignInput,
  type ReassignResult,
  type ReminderInput,
  type ReminderResult,
  type ReviewProgress,
  type Rubric,
  type RubricInput,
} from '../../../shared/schemas/reviews.js';
import { appendAudit } from '../../lib/audit.js';
import type { Actor } from '../../lib/auth-guard.js';
import { fieldError, forbidden, notFound } from '../../lib/errors.js';
import { uuidv7 } from '../../lib/ids.js';
import type { PhaseIds } from '../../lib/route-params.js';
import { holdOpenPhase } from '../exams/index.js';
import { conflictsOf, pickReviewers } from './assign.js';
import type { ReviewsContext } from './context.js';
import { rubricOf } from './material.js';
import * as repo from './reviews.repo.js';

// What the exam's staff do around the marking: the questions' marking schemes, how far the
// marking has come, reminders to reviewers who lag, and handing a reviewer's open work to
// others.

const REMINDER_INTERVAL_MS = REMINDER_INTERVAL_HOURS * 60 * 60 * 1000;

export function staff(ctx: ReviewsContext) {
  const { db, clock, questions, outbox, origin } = ctx;

  return {
    async getRubric(actor: Actor, ids: PhaseIds, itemId: string): Promise<Rubric> {
      const scope = await ctx.requireScope(actor, ids);
      if ((await repo.findPhaseItem(db, scope.phase.id, itemId)).length === 0) {
        throw notFound('item');
      }
      return rubricOf(db, itemId);
    },

    async putRubric(
      actor: Actor,
      ids: PhaseIds,
      itemId: string,
      input: RubricInput,
    ): Promise<Rubric> {
      const scope = await ctx.requireScope(actor, ids);
      if (!scope.viewer.whole) throw forbidden();
      const drawn = await repo.findPhaseItem(db, scope.phase.id, itemId);
      if (drawn.length === 0) throw notFound('item');
      const max = Math.max(...drawn.map((d) => Number(d.points)));
      const seen = new Set<string>();
      const criteria = input.criteria.map((c) => {
        const id = c.id ?? uuidv7().slice(-12);
        if (seen.has(id)) throw fieldError({ criteria: ['invalid'] });
        seen.add(id);
        return { id, label: c.label, points: Math.round(c.points * 100) / 100 };
      });
      const sum = criteria.reduce((s, c) => s + Math.round(c.points * 100), 0);
      if (sum > Math.round(max * 100)) throw fieldError({ criteria: ['score_sum'] });
      return db.transaction(async (tx) => {
        await holdOpenPhase(tx, scope.phase.id);
        const before = await repo.findRubric(tx, itemId);
        await repo.saveRubric(tx, itemId, criteria, actor.id);
        await appendAudit(tx, {
          actorId: actor.id,
          action: 'review.rubric',
          entityType: 'question',
          entityId: itemId,
          before: { criteria: before?.criteria ?? [] },
          after: { criteria },
        });
        return rubricOf(tx, itemId);
      });
    },

    /** Whether the phase has anything for people to mark: anyone who sees its review may ask. */
    async markingScope(actor: Actor, ids: PhaseIds): Promise<MarkingScope> {
      const scope = await ctx.requireScope(actor, ids);
      const onlineOnly = scope.phase.type === 'online';
      return { questionsToMark: await repo.countQuestionsToMark(db, scope.phase.id, onlineOnly) };
    },

    async progress(actor: Actor, ids: PhaseIds): Promise<ReviewProgress> {
      const scope = await ctx.requireScope(actor, ids);
      if (!scope.viewer.whole) throw forbidden();
      const [questionRows, reviewerRows] = await Promise.all([
        repo.progressOfQuestions(db, scope.phase.id),
        repo.progressOfReviewers(db, scope.phase.id),
      ]);
      const people = await repo.findPeople(
        db,
        reviewerRows.map((r) => r.teacher_id),
      );
      return {
        reviewStarted: scope.phase.reviewStarted,
        questions: questionRows.map((q) => ({
          itemId: q.item_id,
          testId: q.test_id,
          itemIndexInTest: Number(q.idx),
          total: Number(q.total),
          marked: Number(q.marked),
          needsMediation: Number(q.needs_mediation),
          final: Number(q.final),
          appealsPending: Number(q.appeals_pending),
          appealsNeedMediation: Number(q.appeals_mediation),
          appealsResolved: Number(q.appeals_resolved),
        })),
        reviewers: reviewerRows
          .map((r) => {
            const p = people.get(r.teacher_id);
            return {
              teacherId: r.teacher_id,
              givenName: p?.givenName ?? null,
              familyName: p?.familyName ?? null,
              email: p?.email ?? '',
              assigned: Number(r.assigned),
              marked: Number(r.marked),
              open: Number(r.assigned) - Number(r.marked),
              mediationsOpen: Number(r.mediations_open),
            };
          })
          .sort(
            (a, b) =>
              (a.familyName ?? '').localeCompare(b.familyName ?? '') ||
              a.teacherId.localeCompare(b.teacherId),
          ),
      };
    },

    /**
     * Mails reviewers who still have marks or mediations to give, each at most once per phase in
     * REMINDER_INTERVAL_HOURS: one reminded sooner is skipped and listed with when the next
     * reminder may go. Reminder rounds of a phase run one at a time (the phase's row locked),
     * so two clicks at once cannot both mail.
     */
    async remind(actor: Actor, ids: PhaseIds, input: ReminderInput): Promise<ReminderResult> {
      const scope = await ctx.requireScope(actor, ids);
      if (!scope.viewer.whole) throw forbidden();
      const rows = await repo.progressOfReviewers(db, scope.phase.id);
      const wanted = input.teacherIds ? new Set(input.teacherIds) : undefined;
      const due = rows
        .map((r) => ({
          teacherId: r.teacher_id,
          open: Number(r.assigned) - Number(r.marked),
          mediationsOpen: Number(r.mediations_open),
        }))
        .filter(
          (r) => (r.open > 0 || r.mediationsOpen > 0) && (!wanted || wanted.has(r.teacherId)),
        );
      const people = await repo.findPeople(
        db,
        due.map((d) => d.teacherId),
      );
      const sent: ReminderResult['sent'] = [];
      const skipped: ReminderResult['skipped'] = [];
      const now = clock.now();
      await db.transaction(async (tx) => {
        await repo.lockPhase(tx, scope.phase.id);
        const last = await repo.findLastReminders(tx, scope.phase.id);
        for (const d of due) {
          const p = people.get(d.teacherId);
          if (!p || p.deletedAt) continue;
          const next = new Date((last.get(d.teacherId)?.getTime() ?? 0) + REMINDER_INTERVAL_MS);
          if (next > now) {
            skipped.push({ teacherId: d.teacherId, retryAfter: next.toISOString() });
            continue;
          }
          await outbox.enqueue(tx, {
            template: 'review-reminder',
            to: p.email,
            userId: p.id,
            locale: p.uiLocale ?? p.locale,
            params: {
              phase: scope.phase.name,
              open: String(d.open),
              mediations: String(d.mediationsOpen),
              link: `${origin}/examene/${scope.exam.id}/editii/${scope.edition.id}/phases/${scope.phase.id}/corectare`,
            },
          });
          sent.push(d);
        }
        await appendAudit(tx, {
          actorId: actor.id,
          action: 'review.reminded',
          entityType: 'phase',
          entityId: scope.phase.id,
          after: { teacherIds: sent.map((s) => s.teacherId), sentAt: now.toISOString() },
        });
      });
      return { sent, skipped };
    },

    /**
     * A reviewer who cannot mark hands their open marks to other teachers of the question: never
     * to one who coordinates the student (or is of their team), marked the answer, or — for an
     * appeal — mediated it the first time. A named `toTeacherId` with a conflict for any of the
     * marks is refused (`toTeacherId: conflict`), nothing moved; chosen automatically, a mark
     * no teacher can take stays put and counts as unmoved.
     */
    async reassign(actor: Actor, ids: PhaseIds, input: ReassignInput): Promise<ReassignResult> {
      const scope = await ctx.requireScope(actor, ids);
      if (!scope.viewer.whole) throw forbidden();
      return db.transaction(async (tx) => {
        await holdOpenPhase(tx, scope.phase.id);
        const open = await repo.findOpenMarks(tx, scope.phase.id, input.teacherId, input.itemId);
        const itemIds = [...new Set(open.map((o) => o.item_id))];
        const teachers = await questions.questionTeachersOf(itemIds, tx);
        if (input.toTeacherId) {
          const to = input.toTeacherId;
          if (itemIds.some((i) => !teachers.get(i)?.gradingTeachers.includes(to))) {
            throw fieldError({ toTeacherId: ['invalid'] });
          }
        }
        const pools = [...teachers.values()].flatMap((t) => t.gradingTeachers);
        const codes = await repo.findTeacherCodes(tx, pools);
        const teams = await repo.findStudentTeams(
          tx,
          open.map((o) => o.student_id),
        );
        if (input.toTeacherId) {
          const to = input.toTeacherId;
          if (open.some((o) => conflictsOf(teams.get(o.student_id), codes, [to]).has(to))) {
            throw fieldError({ toTeacherId: ['conflict'] });
          }
        }
        const firstMediators = await repo.findEntryMediators(
          tx,
          open.flatMap((o) => (o.entry_id ? [o.entry_id] : [])),
        );
        const loads = new Map<string, Map<string, number>>();
        for (const itemId of itemIds) loads.set(itemId, await repo.loadOfQuestion(tx, itemId));
        let moved = 0;
        for (const o of open) {
          const parents = [o.parent_id, ...(o.entry_id ? [o.entry_id] : [])];
          const taken = new Set(
            [...(await repo.findMarks(tx, parents)).values()].flat().map((m) => m.reviewerId),
          );
          const t = teachers.get(o.item_id);
          const pool = input.toTeacherId ? [input.toTeacherId] : (t?.gradingTeachers ?? []);
          const firstMediator = o.entry_id ? firstMediators.get(o.entry_id) : undefined;
          const exclude = new Set([
            ...taken,
            input.teacherId,
            ...(firstMediator ? [firstMediator] : []),
            ...conflictsOf(teams.get(o.student_id), codes, pool),
          ]);
          const avoid = new Set(t?.mediatorTeacher ? [t.mediatorTeacher] : []);
          const [to] = pickReviewers(pool, loads.get(o.item_id) ?? new Map(), exclude, avoid, 1);
          if (!to) continue;
          await repo.moveMark(tx, o.id, to);
          const slot = (await repo.findMarks(tx, [o.parent_id]))
            .get(o.parent_id)
            ?.find((m) => m.id === o.id)?.slot;
          await appendAudit(tx, {
            actorId: actor.id,
            action: o.round === 'review' ? 'review.reassigned' : 'appeal.reassigned',
            entityType: o.round === 'review' ? 'review_entry' : 'review_appeal',
            entityId: o.parent_id,
            before: { slot, reviewerId: input.teacherId },
            after: { slot, reviewerId: to },
            reason: input.reason ?? null,
          });
          moved += 1;
        }
        return { moved, unmoved: open.length - moved };
      });
    },
  };
}
