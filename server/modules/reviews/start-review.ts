import type { InsufficientTeachersDetail } from '../../../shared/schemas/reviews.js';
import type { Db } from '../../db/client.js';
import { appendAudit } from '../../lib/audit.js';
import { AppError } from '../../lib/errors.js';
import { uuidv7 } from '../../lib/ids.js';
import type { ReviewedPhase } from '../exams/index.js';
import { notifyMarkingAssigned } from '../notifications/index.js';
import { settleUnhandedItems } from '../results/index.js';
import { anonymousCode, conflictsOf, pickReviewers } from './assign.js';
import { REVIEWERS_PER_ANSWER, type ReviewsContext } from './context.js';
import * as repo from './reviews.repo.js';

// The start of a phase's review, called by exam-mgmt in the transaction that sets
// reviewStarted: the check of SPEC.md §4, then two reviewers for every answer to mark.

export function startReview(ctx: ReviewsContext) {
  const { questions } = ctx;
  return {
    /**
     * Checks that every question to mark has two grading teachers and a mediator (else 409
     * INSUFFICIENT_TEACHERS_FOR_TEST_ITEMS with one detail per missing field), that an
     * online phase's tests are over (TESTS_STILL_RUNNING), then gives each answer waiting for
     * marking its two reviewers, never one who coordinates the student or is of their team: a
     * question whose graders leave some answer fewer than two such teachers is refused the same
     * way (`gradingTeachers`). A hybrid phase with scanned pages waiting to be matched is
     * refused (SCAN_PAGES_WAITING, `details.waiting`): match them or set them aside first. A
     * hybrid test's items with no page are decided at 0.
     */
    async beginReview(tx: Db, phase: ReviewedPhase, actorId: string, at: Date) {
      if (phase.type === 'online' && (await repo.hasRunningTests(tx, phase.id, at))) {
        throw new AppError('TESTS_STILL_RUNNING', 'A test of the phase is still open');
      }
      if (phase.type === 'hybrid') {
        // A scanned page nobody matched yet is some student's answer nobody could mark.
        const waiting = await repo.countWaitingScanPages(tx, phase.id);
        if (waiting > 0) {
          throw new AppError('SCAN_PAGES_WAITING', 'Scanned pages wait to be matched', {
            waiting,
          });
        }
      }
      const missing: InsufficientTeachersDetail[] = await questions.missingQuestionTeachers(
        phase.id,
        tx,
        phase.type === 'online',
      );
      if (missing.length > 0) {
        throw new AppError(
          'INSUFFICIENT_TEACHERS_FOR_TEST_ITEMS',
          'Every question needs two grading teachers and a mediator',
          missing,
        );
      }
      if (phase.type === 'hybrid') {
        for (const testId of await repo.findPhaseTestIds(tx, phase.id)) {
          await settleUnhandedItems(tx, testId, at);
        }
      }
      const toMark = await repo.findAnswersToMark(tx, phase.id);
      if (toMark.length === 0) return 0;
      const itemIds = [...new Set(toMark.map((a) => a.itemId))];
      const teachers = await questions.questionTeachersOf(itemIds, tx);
      const pools = [...teachers.values()].flatMap((t) => t.gradingTeachers);
      const codes = await repo.findTeacherCodes(tx, pools);
      const teams = await repo.findStudentTeams(
        tx,
        toMark.map((a) => a.studentId),
      );
      const loads = new Map<string, Map<string, number>>();
      const entries: Parameters<typeof repo.insertEntries>[1] = [];
      const marks: Parameters<typeof repo.insertMarks>[1] = [];
      const used = new Set<string>();
      const short = new Set<string>();
      for (const answer of toMark) {
        const t = teachers.get(answer.itemId);
        const pool = t?.gradingTeachers ?? [];
        const load = loads.get(answer.itemId) ?? new Map<string, number>();
        loads.set(answer.itemId, load);
        const conflicted = conflictsOf(teams.get(answer.studentId), codes, pool);
        const avoid = new Set(t?.mediatorTeacher ? [t.mediatorTeacher] : []);
        const picked = pickReviewers(pool, load, conflicted, avoid, REVIEWERS_PER_ANSWER);
        if (picked.length < REVIEWERS_PER_ANSWER) short.add(answer.itemId);
        let code = anonymousCode();
        while (used.has(code)) code = anonymousCode();
        used.add(code);
        const id = uuidv7(at.getTime());
        entries.push({
          id,
          phaseId: phase.id,
          testId: answer.testId,
          itemId: answer.itemId,
          answerId: answer.answerId,
          studentId: answer.studentId,
          itemIndexInTest: answer.position - 1, // positions count from 1, the index from 0
          code,
          maxScore: answer.points,
        });
        picked.forEach((reviewerId, i) => {
          marks.push({
            id: uuidv7(at.getTime()),
            parentId: id,
            round: 'review',
            slot: i + 1,
            reviewerId,
          });
        });
      }
      if (short.size > 0) {
        throw new AppError(
          'INSUFFICIENT_TEACHERS_FOR_TEST_ITEMS',
          'Some answers have fewer than two grading teachers free of a conflict with their student',
          [...short].map((itemId) => ({ itemId, field: 'gradingTeachers' as const })),
        );
      }
      await repo.insertEntries(tx, entries);
      await repo.insertMarks(tx, marks);
      await notifyMarkingAssigned(
        tx,
        phase.id,
        marks.map((m) => m.reviewerId),
      );
      for (const m of marks) {
        await appendAudit(tx, {
          actorId,
          action: 'review.assigned',
          entityType: 'review_entry',
          entityId: m.parentId,
          after: { slot: m.slot, reviewerId: m.reviewerId },
        });
      }
      return entries.length;
    },
  };
}
