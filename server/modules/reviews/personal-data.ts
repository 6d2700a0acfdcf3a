import type { PersonalDataPart } from '../../lib/personal-data.js';
import * as repo from './reviews.repo.js';

/**
 * A student's part of marking and appeals: each marked answer's state and final score with
 * where it came from (the two marks' average, or the mediator), and each appeal with the
 * student's reason, its state and result. Never who marked, mediated or decided: marking is
 * blind both ways, and the reviewers' identities are not the student's to know (GDPR art.
 * 15(4)); nor the reviewers' notes.
 *
 * Anonymising keeps the scores and states (statistics and totals are made of them) and
 * replaces the reasons, which are in the student's own words.
 */
export const reviewsPersonalData: PersonalDataPart = {
  name: 'reviews',
  async collect(db, userId) {
    const [entries, appeals] = await Promise.all([
      repo.findStudentEntries(db, userId),
      repo.findStudentAppealsOf(db, userId),
    ]);
    return {
      markedAnswers: entries.map((e) => ({
        test: e.test,
        testId: e.testId,
        questionId: e.questionId,
        item: e.itemIndexInTest + 1,
        maxScore: e.maxScore,
        state: e.state,
        finalScore: e.finalScore,
        finalScoreFrom: e.finalBy,
        changedAt: e.updatedAt.toISOString(),
      })),
      appeals: appeals.map((a) => ({
        test: a.test,
        testId: a.testId,
        questionId: a.questionId,
        item: a.itemIndexInTest + 1,
        decidedBy: a.kind === 'remark' ? 'reviewers' : 'committee',
        reason: a.reason,
        filedAt: a.filedAt.toISOString(),
        state: a.state,
        outcome: a.outcome,
        maxScore: a.maxScore,
        originalScore: a.originalScore,
        resultScore: a.resultScore,
        finalScore: a.finalScore,
        resolvedAt: a.resolvedAt?.toISOString() ?? null,
      })),
    };
  },
  async anonymise(tx, userId) {
    await repo.redactAppealReasons(tx, userId, 'anonim');
    return undefined;
  },
};
