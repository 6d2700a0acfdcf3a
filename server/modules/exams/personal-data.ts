import { eq } from 'drizzle-orm';
import { editionStudents, editions, exams, phaseStudents, phases } from '../../db/schema.js';
import type { PersonalDataPart } from '../../lib/personal-data.js';

/**
 * A student's enrolments (competition, edition, grade, centre, account on the judging system)
 * and the phases they take part in, with the decision of each. Anonymising keeps them (they
 * are what totals and statistics count by grade) but the judging system's account, which is
 * the person's own.
 */
export const examsPersonalData: PersonalDataPart = {
  name: 'enrolments',
  async collect(db, userId) {
    const [enrolled, inPhases] = await Promise.all([
      db
        .select({
          exam: exams.name,
          edition: editions.name,
          editionId: editions.id,
          grade: editionStudents.grade,
          centre: editionStudents.studentCentre,
          judgingSystemUser: editionStudents.cmsUsername,
          enrolledAt: editionStudents.createdAt,
        })
        .from(editionStudents)
        .innerJoin(editions, eq(editions.id, editionStudents.editionId))
        .innerJoin(exams, eq(exams.id, editions.examId))
        .where(eq(editionStudents.studentId, userId))
        .orderBy(editionStudents.createdAt),
      db
        .select({
          phase: phases.name,
          phaseId: phases.id,
          editionId: phases.editionId,
          decision: phaseStudents.result,
          how: phaseStudents.source,
          since: phaseStudents.createdAt,
        })
        .from(phaseStudents)
        .innerJoin(phases, eq(phases.id, phaseStudents.phaseId))
        .where(eq(phaseStudents.studentId, userId))
        .orderBy(phaseStudents.createdAt),
    ]);
    return { editions: enrolled, phases: inPhases };
  },
  async anonymise(tx, userId) {
    await tx
      .update(editionStudents)
      .set({ cmsUsername: null, cmsPassword: null })
      .where(eq(editionStudents.studentId, userId));
    return undefined;
  },
};
