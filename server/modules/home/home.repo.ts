import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { rowsOf } from '../../db/client.js';
import {
  editions,
  exams,
  examTeachers,
  phaseStudents,
  phases,
  questionReviewers,
  questions,
  reviewAppeals,
  reviewEntries,
  testItems,
  tests,
  users,
} from '../../db/schema.js';

/** A live phase of a live, active edition of a live competition. */
const livePhase = sql`${phases.deletedAt} is null and ${editions.deletedAt} is null
  and ${editions.state} = 'active' and ${exams.deletedAt} is null`;

/** The teacher's own students: how many, and how many wait for activation. */
export async function countOwnStudents(db: Db, teacherId: string) {
  const [row] = rowsOf<{ total: number; inactive: number }>(
    await db.execute(sql`
      select count(*)::int as total,
        count(*) filter (where ${users.state} <> 'active')::int as inactive
      from ${users}
      where ${users.teacherRef} = ${teacherId} and ${users.type} = 'student'
        and ${users.deletedAt} is null`),
  );
  return { total: row?.total ?? 0, inactive: row?.inactive ?? 0 };
}

/** Open phases not over yet where the teacher's own students take part, soonest first. */
export async function findOwnStudentsPhases(db: Db, teacherId: string, now: Date, limit: number) {
  return rowsOf<{
    examId: string;
    examName: string;
    editionId: string;
    editionName: string;
    phaseId: string;
    phaseName: string;
    startDate: Date;
    students: number;
    inactive: number;
  }>(
    await db.execute(sql`
      select ${exams.id} as "examId", ${exams.name} as "examName",
        ${editions.id} as "editionId", ${editions.name} as "editionName",
        ${phases.id} as "phaseId", ${phases.name} as "phaseName",
        ${phases.startDate} as "startDate",
        count(*)::int as students,
        count(*) filter (where ${users.state} <> 'active')::int as inactive
      from ${phaseStudents}
      join ${users} on ${users.id} = ${phaseStudents.studentId}
      join ${phases} on ${phases.id} = ${phaseStudents.phaseId}
      join ${editions} on ${editions.id} = ${phases.editionId}
      join ${exams} on ${exams.id} = ${editions.examId}
      where ${users.teacherRef} = ${teacherId} and ${users.deletedAt} is null
        and ${phases.state} = 'open' and ${phases.endDate} > ${now} and ${livePhase}
      group by ${exams.id}, ${editions.id}, ${phases.id}
      order by ${phases.startDate}, ${phases.id}
      limit ${limit}`),
  ).map((r) => ({ ...r, startDate: new Date(r.startDate) }));
}

/**
 * The open phases an organiser runs (every one for a platform admin, those of the
 * competitions they administer for a teacher), with what still blocks each: counted here in
 * one statement, each count a subquery on the phase's own rows.
 */
export async function findOrganiserPhases(
  db: Db,
  actor: { id: string; type: string },
  limit: number,
) {
  const scope: SQL =
    actor.type === 'admin'
      ? sql`true`
      : sql`exists (select 1 from ${examTeachers} where ${examTeachers.examId} = ${exams.id}
          and ${examTeachers.teacherId} = ${actor.id} and ${examTeachers.role} = 'admin')`;
  // Items marked by people: open items everywhere, every item of a hybrid phase.
  const markedItems = sql`select distinct ${testItems.questionId} as id
    from ${testItems} join ${tests} on ${tests.id} = ${testItems.testId}
    join ${questions} on ${questions.id} = ${testItems.questionId}
    where ${tests.phaseId} = ${phases.id}
      and (${phases.type} = 'hybrid' or ${questions.itemType} = 'open')`;
  return rowsOf<{
    examId: string;
    examName: string;
    editionId: string;
    editionName: string;
    phaseId: string;
    phaseName: string;
    type: 'online' | 'hybrid';
    startDate: Date;
    endDate: Date;
    tests: number;
    unpublished: number;
    markersMissing: number;
    pagesAwaiting: number;
    appealsOpen: number;
    undecided: number;
    reviewStarted: boolean;
  }>(
    await db.execute(sql`
      select ${exams.id} as "examId", ${exams.name} as "examName",
        ${editions.id} as "editionId", ${editions.name} as "editionName",
        ${phases.id} as "phaseId", ${phases.name} as "phaseName", ${phases.type} as type,
        ${phases.startDate} as "startDate", ${phases.endDate} as "endDate",
        ${phases.reviewStarted} as "reviewStarted",
        (select count(*)::int from ${tests} where ${tests.phaseId} = ${phases.id}) as tests,
        (select count(*)::int from ${tests} where ${tests.phaseId} = ${phases.id}
          and not ${tests.published}) as unpublished,
        (select count(*)::int from (${markedItems}) as item
          join ${questions} q on q.id = item.id
          where q.mediator_teacher_id is null
            or (select count(*) from ${questionReviewers}
                where ${questionReviewers.questionId} = item.id) < 2) as "markersMissing",
        (select count(*)::int from ${reviewEntries} where ${reviewEntries.phaseId} = ${phases.id}
          and ${reviewEntries.status} <> 'final') as "pagesAwaiting",
        (select count(*)::int from ${reviewAppeals} where ${reviewAppeals.phaseId} = ${phases.id}
          and ${reviewAppeals.status} <> 'resolved') as "appealsOpen",
        (select count(*)::int from ${phaseStudents} where ${phaseStudents.phaseId} = ${phases.id}
          and ${phaseStudents.result} is null) as undecided
      from ${phases}
      join ${editions} on ${editions.id} = ${phases.editionId}
      join ${exams} on ${exams.id} = ${editions.examId}
      where ${phases.state} = 'open' and ${livePhase} and ${scope}
      order by ${phases.startDate}, ${phases.id}
      limit ${limit}`),
  ).map((r) => ({ ...r, startDate: new Date(r.startDate), endDate: new Date(r.endDate) }));
}
