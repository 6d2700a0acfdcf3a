// What a marker needs to see: the test, its items, the answer, question, files, rubric, history.

import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client.js';
import {
  answers,
  auditEvents,
  editions,
  files,
  phases,
  questionRubrics,
  questions,
  testItems,
  testResults,
  tests,
  users,
} from '../../../db/schema.js';

/** A test with its phase, for a student's result and appeals. */
export async function findTestWithPhase(db: Db, testId: string) {
  const [row] = await db
    .select({ test: tests, phase: phases, examId: editions.examId })
    .from(tests)
    .innerJoin(phases, eq(phases.id, tests.phaseId))
    .innerJoin(editions, eq(editions.id, phases.editionId))
    .where(and(eq(tests.id, testId), isNull(phases.deletedAt)));
  return row;
}

export async function hasTestResult(db: Db, testId: string, studentId: string) {
  const [row] = await db
    .select({ points: testResults.points })
    .from(testResults)
    .where(and(eq(testResults.testId, testId), eq(testResults.studentId, studentId)));
  return row !== undefined;
}

/** A test's items in order, with their points and type. */
export async function findTestItems(db: Db, testId: string) {
  return db
    .select({
      itemId: testItems.questionId,
      position: testItems.position,
      points: testItems.score,
      itemType: questions.itemType,
      itemQ: questions.itemQ,
      itemAnswers: questions.itemAnswers,
    })
    .from(testItems)
    .innerJoin(questions, eq(questions.id, testItems.questionId))
    .where(eq(testItems.testId, testId))
    .orderBy(asc(testItems.position));
}

/** What one student answered on each item of a test (typed or chosen; pages live in uploads). */
export async function findSubmittedAnswers(db: Db, testId: string, studentId: string) {
  const rows = await db
    .select({ itemId: answers.questionId, submitted: answers.submittedAnswer })
    .from(answers)
    .where(and(eq(answers.testId, testId), eq(answers.studentId, studentId)));
  // Chosen options or typed text, as the player stored them.
  return new Map(rows.map((r) => [r.itemId, r.submitted as number[] | string | null]));
}

/** A student's answer to one item of a test. */
export async function findAnswer(db: Db, testId: string, studentId: string, itemId: string) {
  const [row] = await db
    .select()
    .from(answers)
    .where(
      and(
        eq(answers.testId, testId),
        eq(answers.studentId, studentId),
        eq(answers.questionId, itemId),
      ),
    )
    .for('share');
  return row;
}

export async function findAnswerById(db: Db, id: string) {
  const [row] = await db.select().from(answers).where(eq(answers.id, id));
  return row;
}

export async function findQuestion(db: Db, id: string) {
  const [row] = await db.select().from(questions).where(eq(questions.id, id));
  return row;
}

/** The question as drawn into one of the phase's tests (its points there), if it is. */
export async function findPhaseItem(db: Db, phaseId: string, itemId: string) {
  const rows = await db
    .select({ testId: testItems.testId, points: testItems.score, position: testItems.position })
    .from(testItems)
    .innerJoin(tests, eq(tests.id, testItems.testId))
    .where(and(eq(tests.phaseId, phaseId), eq(testItems.questionId, itemId)));
  return rows;
}

export async function findFiles(db: Db, ids: readonly string[]) {
  if (ids.length === 0) return [];
  return db
    .select()
    .from(files)
    .where(inArray(files.id, [...ids]));
}

export async function findRubric(db: Db, itemId: string) {
  const [row] = await db.select().from(questionRubrics).where(eq(questionRubrics.itemId, itemId));
  return row;
}

export async function saveRubric(
  db: Db,
  itemId: string,
  criteria: { id: string; label: string; points: number }[],
  by: string,
) {
  const [row] = await db
    .insert(questionRubrics)
    .values({ itemId, criteria, updatedBy: by })
    .onConflictDoUpdate({
      target: questionRubrics.itemId,
      set: { criteria, updatedBy: by, updatedAt: sql`now()` },
    })
    .returning();
  if (!row) throw new Error('rubric not saved');
  return row;
}

/** The audit trail of one entry or appeal, oldest first. */
export async function findHistory(db: Db, entityType: string, entityId: string) {
  return db
    .select()
    .from(auditEvents)
    .where(and(eq(auditEvents.entityType, entityType), eq(auditEvents.entityId, entityId)))
    .orderBy(asc(auditEvents.at), asc(auditEvents.id));
}

export async function findPeople(db: Db, ids: readonly string[]) {
  if (ids.length === 0) return new Map<string, typeof users.$inferSelect>();
  const rows = await db
    .select()
    .from(users)
    .where(inArray(users.id, [...new Set(ids)]));
  return new Map(rows.map((r) => [r.id, r]));
}
