// Progress of a phase's marking: per question, per reviewer, the open work left.

import { sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../../db/client.js';
import {
  answers,
  questions,
  reviewAppeals,
  reviewEntries,
  reviewMarks,
  testItems,
  testResults,
  tests,
  users,
} from '../../../db/schema.js';
import type { Round } from './rows.js';

export async function progressOfQuestions(db: Db, phaseId: string) {
  const result = await db.execute(sql`
    select e.item_id, e.test_id, min(e.item_index_in_test)::int as idx,
      count(*)::int as total,
      count(*) filter (where e.status <> 'marking')::int as marked,
      count(*) filter (where e.status = 'needs_mediation')::int as needs_mediation,
      count(*) filter (where e.status = 'final')::int as final,
      (select count(*)::int from ${reviewAppeals} a where a.phase_id = ${phaseId}
        and a.item_id = e.item_id and a.test_id = e.test_id and a.status = 'pending')
        as appeals_pending,
      (select count(*)::int from ${reviewAppeals} a where a.phase_id = ${phaseId}
        and a.item_id = e.item_id and a.test_id = e.test_id and a.status = 'needs_mediation')
        as appeals_mediation,
      (select count(*)::int from ${reviewAppeals} a where a.phase_id = ${phaseId}
        and a.item_id = e.item_id and a.test_id = e.test_id and a.status = 'resolved')
        as appeals_resolved
    from ${reviewEntries} e where e.phase_id = ${phaseId}
    group by e.test_id, e.item_id
    order by e.test_id, idx`);
  return rowsOf<{
    item_id: string;
    test_id: string;
    idx: number;
    total: number;
    marked: number;
    needs_mediation: number;
    final: number;
    appeals_pending: number;
    appeals_mediation: number;
    appeals_resolved: number;
  }>(result);
}

/** Each marker's assigned and given marks (both rounds) and mediations waiting for them. */
export async function progressOfReviewers(db: Db, phaseId: string) {
  const result = await db.execute(sql`
    with marks as (
      select m.reviewer_id, m.score from ${reviewMarks} m
      join ${reviewEntries} e on e.id = m.parent_id
      where e.phase_id = ${phaseId} and m.round = 'review'
      union all
      select m.reviewer_id, m.score from ${reviewMarks} m
      join ${reviewAppeals} a on a.id = m.parent_id
      where a.phase_id = ${phaseId} and m.round = 'appeal'
    ),
    mediations as (
      select q.mediator_teacher_id as teacher_id, count(*)::int as n
      from (select item_id from ${reviewEntries} where phase_id = ${phaseId}
              and status = 'needs_mediation'
            union all
            select item_id from ${reviewAppeals} where phase_id = ${phaseId}
              and status = 'needs_mediation') w
      join ${questions} q on q.id = w.item_id
      where q.mediator_teacher_id is not null
      group by q.mediator_teacher_id
    ),
    per as (
      select reviewer_id as teacher_id, count(*)::int as assigned,
        count(score)::int as marked from marks group by reviewer_id
    )
    select coalesce(p.teacher_id, md.teacher_id) as teacher_id,
      coalesce(p.assigned, 0)::int as assigned, coalesce(p.marked, 0)::int as marked,
      coalesce(md.n, 0)::int as mediations_open
    from per p full join mediations md on md.teacher_id = p.teacher_id`);
  return rowsOf<{ teacher_id: string; assigned: number; marked: number; mediations_open: number }>(
    result,
  );
}

/**
 * A teacher's marking work still open in any phase: marks assigned and not given (first marking
 * and appeals) and mediations waiting for them as the question's mediator.
 */
export async function countOpenWork(
  db: Db,
  teacherId: string,
): Promise<{ openMarks: number; pendingMediations: number }> {
  const result = await db.execute(sql`
    select
      (select count(*)::int from ${reviewMarks} m
        left join ${reviewEntries} e on m.round = 'review' and e.id = m.parent_id
        left join ${reviewAppeals} a on m.round = 'appeal' and a.id = m.parent_id
        where m.reviewer_id = ${teacherId} and m.score is null
          and (e.status = 'marking' or a.status = 'pending')) as "openMarks",
      (select count(*)::int from ${reviewEntries} e
        join ${questions} q on q.id = e.item_id
        where q.mediator_teacher_id = ${teacherId} and e.status = 'needs_mediation')
      + (select count(*)::int from ${reviewAppeals} a
        join ${questions} q on q.id = a.item_id
        where q.mediator_teacher_id = ${teacherId} and a.status = 'needs_mediation'
          and a.kind = 'remark') as "pendingMediations"`);
  const [row] = rowsOf<{ openMarks: number; pendingMediations: number }>(result);
  return { openMarks: row?.openMarks ?? 0, pendingMediations: row?.pendingMediations ?? 0 };
}
/** A teacher's marks still to give in a phase (both rounds), optionally of one question. */
export async function findOpenMarks(
  db: Db,
  phaseId: string,
  teacherId: string,
  itemId: string | undefined,
) {
  const result = await db.execute(sql`
    select m.id, m.parent_id, m.round, coalesce(e.item_id, a.item_id) as item_id,
      coalesce(e.student_id, a.student_id) as student_id, a.entry_id
    from ${reviewMarks} m
    left join ${reviewEntries} e on m.round = 'review' and e.id = m.parent_id
    left join ${reviewAppeals} a on m.round = 'appeal' and a.id = m.parent_id
    where m.reviewer_id = ${teacherId} and m.score is null
      and ((e.phase_id = ${phaseId} and e.status = 'marking')
        or (a.phase_id = ${phaseId} and a.status = 'pending'))
      ${itemId ? sql`and coalesce(e.item_id, a.item_id) = ${itemId}` : sql``}
    order by m.parent_id
    for update of m`);
  return rowsOf<{
    id: string;
    parent_id: string;
    round: Round;
    item_id: string;
    student_id: string;
    entry_id: string | null;
  }>(result);
}

/** Answers of a key-scored item in a phase's tests, with the student and the item's points. */
export async function findKeyScoredAnswers(db: Db, phaseId: string, itemId: string) {
  const result = await db.execute(sql`
    select a.id, a.test_id, a.student_id, a.submitted_answer::text as answer_text, a.score,
      a.score_origin, ti.score as points, u.given_name, u.family_name
    from ${answers} a
    join ${tests} t on t.id = a.test_id
    join ${testItems} ti on ti.test_id = a.test_id and ti.question_id = a.question_id
    join ${users} u on u.id = a.student_id
    where t.phase_id = ${phaseId} and a.question_id = ${itemId} and a.score_origin = 'auto'
      and exists (select 1 from ${testResults} r
        where r.test_id = a.test_id and r.student_id = a.student_id)
    order by a.test_id, a.student_id`);
  return rowsOf<{
    id: string;
    test_id: string;
    student_id: string;
    answer_text: string | null;
    score: string | number | null;
    score_origin: string;
    points: string | number;
    given_name: string | null;
    family_name: string | null;
  }>(result);
}
