import { and, eq, inArray, sql } from 'drizzle-orm';
import { answers, phaseResults, phases, questions, testResults, tests } from '../../db/schema.js';
import type { PersonalDataPart } from '../../lib/personal-data.js';

/**
 * A student's answers with the points each earned (and where they came from: automatic,
 * marked, mediated, appealed, entered), their result in each test and their phase totals.
 *
 * Anonymising keeps every score, result and total (rankings and statistics are made of them,
 * and an anonymous row counts as any other) and the chosen options of closed questions (item
 * statistics); it removes what is in the student's own words or hand: the text of open
 * answers and the answer's scanned pages (the files go with the uploads part, which runs
 * first).
 */
export const resultsPersonalData: PersonalDataPart = {
  name: 'results',
  async collect(db, userId) {
    const [answerRows, testRows, phaseRows] = await Promise.all([
      db
        .select({
          test: tests.name,
          testId: answers.testId,
          questionId: answers.questionId,
          questionType: questions.itemType,
          answer: answers.submittedAnswer,
          pages: answers.fileIds,
          points: answers.score,
          pointsFrom: answers.scoreOrigin,
          pointsState: answers.scoreState,
          scoredAt: answers.scoredAt,
          enteredByStaff: sql<boolean>`${answers.enteredBy} is not null`,
          writtenAt: answers.updatedAt,
        })
        .from(answers)
        .innerJoin(tests, eq(tests.id, answers.testId))
        .innerJoin(questions, eq(questions.id, answers.questionId))
        .where(eq(answers.studentId, userId))
        .orderBy(answers.testId, answers.createdAt),
      db
        .select({
          test: tests.name,
          testId: testResults.testId,
          points: testResults.points,
          itemsAwaitingMarking: testResults.awaitingItems,
        })
        .from(testResults)
        .innerJoin(tests, eq(tests.id, testResults.testId))
        .where(eq(testResults.studentId, userId)),
      db
        .select({
          phase: phases.name,
          phaseId: phaseResults.phaseId,
          points: phaseResults.points,
          itemsAwaitingMarking: phaseResults.awaitingItems,
          tests: phaseResults.tests,
        })
        .from(phaseResults)
        .innerJoin(phases, eq(phases.id, phaseResults.phaseId))
        .where(eq(phaseResults.studentId, userId)),
    ]);
    return { answers: answerRows, tests: testRows, phases: phaseRows };
  },
  async anonymise(tx, userId) {
    const open = tx
      .select({ id: questions.id })
      .from(questions)
      .where(eq(questions.itemType, 'open'));
    await tx
      .update(answers)
      .set({ submittedAnswer: null })
      .where(and(eq(answers.studentId, userId), inArray(answers.questionId, open)));
    await tx
      .update(answers)
      .set({ fileIds: sql`'{}'::uuid[]` })
      .where(and(eq(answers.studentId, userId), sql`cardinality(${answers.fileIds}) > 0`));
    return undefined;
  },
};
