import { eq } from 'drizzle-orm';
import { attempts, tests } from '../../db/schema.js';
import type { PersonalDataPart } from '../../lib/personal-data.js';

/**
 * A student's sittings of online tests: when each started, its deadline and extra time, how it
 * ended and when the answer key was shown. Kept by anonymising: times carry no name, and the
 * answers and results hang on them.
 */
export const playerPersonalData: PersonalDataPart = {
  name: 'attempts',
  async collect(db, userId) {
    return db
      .select({
        test: tests.name,
        testId: attempts.testId,
        state: attempts.state,
        startedAt: attempts.startedAt,
        deadlineAt: attempts.deadlineAt,
        extraSeconds: attempts.extraSeconds,
        finishedAt: attempts.finishedAt,
        finishedBy: attempts.finishedBy,
        answerKeyShownAt: attempts.keyShownAt,
      })
      .from(attempts)
      .innerJoin(tests, eq(tests.id, attempts.testId))
      .where(eq(attempts.studentId, userId))
      .orderBy(attempts.startedAt);
  },
};
