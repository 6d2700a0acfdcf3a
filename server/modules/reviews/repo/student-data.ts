// A student's data (the personal-data export and anonymising).

import { asc, eq } from 'drizzle-orm';
import type { Db } from '../../../db/client.js';
import { reviewAppeals, reviewEntries, tests } from '../../../db/schema.js';

/** The marking of a student's answers: state and final score, never who marked. */
export async function findStudentEntries(db: Db, studentId: string) {
  return db
    .select({
      test: tests.name,
      testId: reviewEntries.testId,
      questionId: reviewEntries.itemId,
      itemIndexInTest: reviewEntries.itemIndexInTest,
      maxScore: reviewEntries.maxScore,
      state: reviewEntries.status,
      finalScore: reviewEntries.finalScore,
      finalBy: reviewEntries.finalBy,
      updatedAt: reviewEntries.updatedAt,
    })
    .from(reviewEntries)
    .innerJoin(tests, eq(tests.id, reviewEntries.testId))
    .where(eq(reviewEntries.studentId, studentId))
    .orderBy(asc(reviewEntries.testId), asc(reviewEntries.itemIndexInTest));
}

/** A student's appeals: their reason, state and result, never who marked or decided. */
export async function findStudentAppealsOf(db: Db, studentId: string) {
  return db
    .select({
      test: tests.name,
      testId: reviewAppeals.testId,
      questionId: reviewAppeals.itemId,
      itemIndexInTest: reviewAppeals.itemIndexInTest,
      kind: reviewAppeals.kind,
      reason: reviewAppeals.reason,
      filedAt: reviewAppeals.filedAt,
      state: reviewAppeals.status,
      outcome: reviewAppeals.outcome,
      maxScore: reviewAppeals.maxScore,
      originalScore: reviewAppeals.originalScore,
      resultScore: reviewAppeals.resultScore,
      finalScore: reviewAppeals.finalScore,
      resolvedAt: reviewAppeals.resolvedAt,
    })
    .from(reviewAppeals)
    .innerJoin(tests, eq(tests.id, reviewAppeals.testId))
    .where(eq(reviewAppeals.studentId, studentId))
    .orderBy(asc(reviewAppeals.filedAt), asc(reviewAppeals.id));
}

/** Replaces the student's own words in their appeals. */
export async function redactAppealReasons(db: Db, studentId: string, text: string) {
  await db
    .update(reviewAppeals)
    .set({ reason: text })
    .where(eq(reviewAppeals.studentId, studentId));
}
