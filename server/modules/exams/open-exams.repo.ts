import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { editionStudents, editions, exams, phases } from '../../db/schema.js';
import type { PhaseRow } from './phases.repo.js';

const editionWithExam = {
  editionId: editions.id,
  editionName: editions.name,
  year: editions.year,
  termsUrl: editions.termsUrl,
  state: editions.state,
  examId: exams.id,
  examName: exams.name,
  subject: exams.subject,
  description: exams.description,
  grades: exams.grades,
};
export type EditionWithExam = {
  editionId: string;
  editionName: string;
  year: number | null;
  termsUrl: string | null;
  state: 'active' | 'archived';
  examId: string;
  examName: string;
  subject: string;
  description: string | null;
  grades: number[];
};

const liveBoth = and(isNull(editions.deletedAt), isNull(exams.deletedAt));

/**
 * Phases of these editions that take sign-ups now: open, registration open on the phase and on
 * its edition (SPEC.md §4); in order.
 */
export async function findRegistrationPhases(db: Db, editionIds: string[]): Promise<PhaseRow[]> {
  if (editionIds.length === 0) return [];
  return db
    .select()
    .from(phases)
    .where(
      and(
        inArray(phases.editionId, editionIds),
        isNull(phases.deletedAt),
        eq(phases.state, 'open'),
        eq(phases.registrationOpen, true),
        sql`exists (select 1 from ${editions} where ${editions.id} = ${phases.editionId}
          and ${editions.registrationOpen})`,
      ),
    )
    .orderBy(asc(phases.startDate), asc(phases.id));
}

/** Active editions, of exams that include this grade, with a phase taking sign-ups. */
export async function findOpenEditions(db: Db, grade: number): Promise<EditionWithExam[]> {
  return db
    .select(editionWithExam)
    .from(editions)
    .innerJoin(exams, eq(exams.id, editions.examId))
    .where(
      and(
        liveBoth,
        eq(editions.state, 'active'),
        eq(editions.registrationOpen, true),
        sql`${grade}::int = any(${exams.grades})`,
        sql`exists (select 1 from ${phases} where ${phases.editionId} = ${editions.id}
          and ${phases.deletedAt} is null and ${phases.state} = 'open'
          and ${phases.registrationOpen})`,
      ),
    )
    .orderBy(asc(exams.nameNormalized), asc(editions.name), asc(editions.id));
}

export async function findEditionWithExam(
  db: Db,
  editionId: string,
): Promise<EditionWithExam | undefined> {
  const [row] = await db
    .select(editionWithExam)
    .from(editions)
    .innerJoin(exams, eq(exams.id, editions.examId))
    .where(and(eq(editions.id, editionId), liveBoth));
  return row;
}

/** Of these editions, the ones the student is enrolled in. */
export async function findEnrolledEditionIds(
  db: Db,
  studentId: string,
  editionIds: string[],
): Promise<Set<string>> {
  if (editionIds.length === 0) return new Set();
  const rows = await db
    .select({ editionId: editionStudents.editionId })
    .from(editionStudents)
    .where(
      and(eq(editionStudents.studentId, studentId), inArray(editionStudents.editionId, editionIds)),
    );
  return new Set(rows.map((r) => r.editionId));
}
