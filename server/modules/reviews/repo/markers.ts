// Who marks in a phase: markers, their phases and open work, mediators, team codes.

import { and, eq, inArray, sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../../db/client.js';
import {
  editions,
  exams,
  examTeachers,
  phases,
  questionReviewers,
  questions,
  reviewAppeals,
  reviewEntries,
  reviewMarks,
  testItems,
  tests,
  users,
} from '../../../db/schema.js';

/** Whether the teacher marks or mediates any question drawn into a test of the phase. */
export async function isPhaseMarker(db: Db, phaseId: string, teacherId: string) {
  const result = await db.execute(sql`
    select 1 from ${testItems} ti
    join ${tests} t on t.id = ti.test_id
    join ${questions} q on q.id = ti.question_id
    where t.phase_id = ${phaseId} and (q.mediator_teacher_id = ${teacherId}
      or exists (select 1 from ${questionReviewers} qr
        where qr.question_id = q.id and qr.teacher_id = ${teacherId})
      or exists (select 1 from ${reviewMarks} m join ${reviewEntries} e on e.id = m.parent_id
        where e.item_id = q.id and m.reviewer_id = ${teacherId}))
    limit 1`);
  return rowsOf(result).length > 0;
}

/** A phase where a teacher marks or mediates, with their open work there. */
export type MarkerPhaseRow = {
  exam_id: string;
  exam_name: string;
  edition_id: string;
  edition_name: string;
  phase_id: string;
  phase_name: string;
  phase_type: 'online' | 'hybrid';
  review_started: boolean;
  is_reviewer: boolean;
  is_mediator: boolean;
};

/**
 * The phases (not deleted, nor their edition or exam) where the teacher grades or mediates a
 * question drawn into one of its tests, or holds marks of either round; with the marks they
 * still owe (entries still in marking and not appealed; remark appeals pending). The
 * mediations are counted apart (`findMediationsAskedOf`), by the rule of deciders.ts.
 * Newest phase first.
 */
export async function findMarkerPhases(db: Db, teacherId: string): Promise<MarkerPhaseRow[]> {
  const result = await db.execute(sql`
    with drawn as (
      select t.phase_id,
        bool_or(exists (select 1 from ${questionReviewers} qr
          where qr.question_id = q.id and qr.teacher_id = ${teacherId})) as grades,
        bool_or(q.mediator_teacher_id is not distinct from ${teacherId}::uuid) as mediates
      from ${testItems} ti
      join ${tests} t on t.id = ti.test_id
      join ${questions} q on q.id = ti.question_id
      where q.mediator_teacher_id = ${teacherId}
        or exists (select 1 from ${questionReviewers} qr
          where qr.question_id = q.id and qr.teacher_id = ${teacherId})
      group by t.phase_id
    ),
    marked as (
      select e.phase_id from ${reviewMarks} m join ${reviewEntries} e on e.id = m.parent_id
      where m.round = 'review' and m.reviewer_id = ${teacherId}
      union
      select a.phase_id from ${reviewMarks} m join ${reviewAppeals} a on a.id = m.parent_id
      where m.round = 'appeal' and m.reviewer_id = ${teacherId}
    ),
    mine as (
      select phase_id, grades, mediates from drawn
      union all
      select phase_id, true, false from marked
    ),
    per_phase as (
      select phase_id, bool_or(grades) as grades, bool_or(mediates) as mediates
      from mine group by phase_id
    )
    select ex.id as exam_id, ex.name as exam_name, ed.id as edition_id, ed.name as edition_name,
      p.id as phase_id, p.name as phase_name, p.type as phase_type,
      p.review_started, pp.grades as is_reviewer, pp.mediates as is_mediator
    from per_phase pp
    join ${phases} p on p.id = pp.phase_id
    join ${editions} ed on ed.id = p.edition_id
    join ${exams} ex on ex.id = ed.exam_id
    where p.deleted_at is null and ed.deleted_at is null and ex.deleted_at is null
    order by p.start_date desc, p.id`);
  return rowsOf<MarkerPhaseRow>(result);
}

/**
 * The teacher's marks still to give, by phase and student: first-round marks of entries being
 * marked (not appealed) and re-marks of pending remark appeals. Whether each still counts (the
 * conflict rule, for a marker the student named coordinator after assignment) is the caller's.
 */
export async function findOpenMarksOf(
  db: Db,
  teacherId: string,
): Promise<{ phase_id: string; student_id: string; round: 'review' | 'appeal' }[]> {
  const result = await db.execute(sql`
    select e.phase_id, e.student_id, 'review' as round
    from ${reviewMarks} m join ${reviewEntries} e on e.id = m.parent_id
    where m.round = 'review' and m.reviewer_id = ${teacherId} and m.score is null
      and e.status = 'marking'
      and not exists (select 1 from ${reviewAppeals} a where a.entry_id = e.id)
    union all
    select a.phase_id, a.student_id, 'appeal' as round
    from ${reviewMarks} m join ${reviewAppeals} a on a.id = m.parent_id
    where m.round = 'appeal' and m.reviewer_id = ${teacherId} and m.score is null
      and a.kind = 'remark' and a.status = 'pending'`);
  return rowsOf(result);
}

/**
 * Remark appeals waiting for a decision (marks too far apart, or short of re-markers) in the
 * live phases of the competitions `adminId` administers (every competition when `allExams`),
 * with their phase's names: those the exam's admins may be asked to decide, before deciders.ts
 * says whether this one may.
 */
export async function findAppealsAskedOfAdmin(db: Db, adminId: string, allExams: boolean) {
  const result = await db.execute(sql`
    select a.id, a.item_id as "itemId", a.student_id as "studentId", a.entry_id as "entryId",
      p.id as "phaseId", p.name as "phaseName", ed.id as "editionId", ex.id as "examId",
      ex.name as "examName"
    from ${reviewAppeals} a
    join ${phases} p on p.id = a.phase_id
    join ${editions} ed on ed.id = p.edition_id
    join ${exams} ex on ex.id = ed.exam_id
    where a.kind = 'remark'
      and (a.status = 'needs_mediation' or (a.status = 'pending'
        and (select count(*) from ${reviewMarks} m where m.parent_id = a.id
          and m.round = 'appeal') < 2))
      and p.deleted_at is null and ed.deleted_at is null and ex.deleted_at is null
      and (${allExams} or exists (select 1 from ${examTeachers} et
        where et.exam_id = ex.id and et.teacher_id = ${adminId} and et.role = 'admin'))
    order by p.start_date desc, p.id`);
  return rowsOf<{
    id: string;
    itemId: string;
    studentId: string;
    entryId: string;
    phaseId: string;
    phaseName: string;
    editionId: string;
    examId: string;
    examName: string;
  }>(result);
}

/**
 * The entries (not appealed) and remark appeals waiting for mediation on questions the teacher
 * mediates, in phases not deleted: those they may be asked to decide, before deciders.ts says
 * whether they may.
 */
export async function findMediationsAskedOf(db: Db, teacherId: string) {
  const live = (phaseId: typeof reviewEntries.phaseId | typeof reviewAppeals.phaseId) =>
    sql`exists (select 1 from ${phases} p join ${editions} ed on ed.id = p.edition_id
      join ${exams} ex on ex.id = ed.exam_id where p.id = ${phaseId} and p.deleted_at is null
      and ed.deleted_at is null and ex.deleted_at is null)`;
  const mediates = (itemId: typeof reviewEntries.itemId | typeof reviewAppeals.itemId) =>
    sql`exists (select 1 from ${questions} q where q.id = ${itemId}
      and q.mediator_teacher_id = ${teacherId})`;
  const entries = await db
    .select()
    .from(reviewEntries)
    .where(
      and(
        eq(reviewEntries.status, 'needs_mediation'),
        mediates(reviewEntries.itemId),
        sql`not exists (select 1 from ${reviewAppeals} a where a.entry_id = ${reviewEntries.id})`,
        live(reviewEntries.phaseId),
      ),
    );
  const appeals = await db
    .select()
    .from(reviewAppeals)
    .where(
      and(
        eq(reviewAppeals.status, 'needs_mediation'),
        eq(reviewAppeals.kind, 'remark'),
        mediates(reviewAppeals.itemId),
        live(reviewAppeals.phaseId),
      ),
    );
  return { entries, appeals };
}

/** The question's current mediator (null: none, or not a question). */
export async function findMediator(db: Db, itemId: string): Promise<string | null> {
  const [row] = await db
    .select({ id: questions.mediatorTeacherId })
    .from(questions)
    .where(eq(questions.id, itemId));
  return row?.id ?? null;
}

/** The conflict data of teachers: their own team code. */
export async function findTeacherCodes(db: Db, ids: readonly string[]) {
  if (ids.length === 0) return new Map<string, string | null>();
  const rows = await db
    .select({ id: users.id, code: users.teacherCode })
    .from(users)
    .where(inArray(users.id, [...ids]));
  return new Map(rows.map((r) => [r.id, r.code]));
}

/** Students' coordinating teacher and that teacher's team code. */
export async function findStudentTeams(db: Db, studentIds: readonly string[]) {
  const teams = new Map<string, { teacherRef: string | null; teamCode: string | null }>();
  if (studentIds.length === 0) return teams;
  const result = await db.execute(sql`
    select s.id, s.teacher_ref, c.teacher_code
    from ${users} s left join ${users} c on c.id = s.teacher_ref
    where s.id in (select jsonb_array_elements_text(${JSON.stringify([...studentIds])}::jsonb)::uuid)`);
  for (const r of rowsOf<{ id: string; teacher_ref: string | null; teacher_code: string | null }>(
    result,
  )) {
    teams.set(r.id, { teacherRef: r.teacher_ref, teamCode: r.teacher_code });
  }
  return teams;
}
