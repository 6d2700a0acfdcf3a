import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';

/** The player's state check notes a sign of life at most this often per attempt. */
export const SEEN_EVERY_MS = 20_000;

/**
 * Notes that the student's player asked for the attempt's state (the exam-day panel's sign of
 * life between answers): at most once per SEEN_EVERY_MS, only while the attempt runs.
 */
export async function noteSeen(db: Db, attemptId: string, now: Date): Promise<void> {
  const since = new Date(now.getTime() - SEEN_EVERY_MS).toISOString();
  await db.execute(sql`
    update attempts set last_seen_at = ${now.toISOString()}::timestamptz
    where id = ${attemptId}::uuid and state = 'in_progress'
      and (last_seen_at is null or last_seen_at <= ${since}::timestamptz)`);
}

export type LiveMoments = {
  now: Date;
  /** Answers are refused past the deadline before this (now - grace). */
  cutoff: Date;
  /** A sign of life at or after this is "writing". */
  writingSince: Date;
  /** A session used at or after this is "signed in". */
  signedInSince: Date;
};

export type LiveCountRow = {
  test_id: string | null;
  /** 1 for the phase's total row, 0 for a test's. */
  is_total: number;
  registered: number;
  signed_in: number;
  started: number;
  writing: number;
  finished: number;
  disconnected: number;
};

export type DisconnectedRow = {
  student_id: string;
  family_name: string | null;
  given_name: string | null;
  school: string | null;
  grade: number | null;
  test_id: string;
  seen_at: Date | string;
};

/**
 * Each student of the phase (a coordinator's own when `ownerId` is set) with their test (the
 * phase's test whose grades include their edition grade, else their profile grade), their
 * attempt and its latest sign of life: the start, the last answer written (answers' own
 * times), the player's last state check.
 */
function studentsOfPhase(phaseId: string, ownerId: string | undefined, at: LiveMoments) {
  const owner = ownerId === undefined ? sql`` : sql`and u.teacher_ref = ${ownerId}::uuid`;
  return sql`
    with st as (
      select u.id, u.family_name, u.given_name, u.school,
        coalesce(es.grade, u.grade) as grade
      from phase_students ps
      join phases p on p.id = ps.phase_id
      join users u on u.id = ps.student_id and u.deleted_at is null
      left join edition_students es on es.edition_id = p.edition_id and es.student_id = u.id
      where ps.phase_id = ${phaseId}::uuid ${owner}
    ), la as (
      -- The last answer saved of each attempt: one pass over the phase's answers (a lookup
      -- per attempt took seconds for 5,000 students).
      select an.attempt_id, max(an.updated_at) as saved_at from answers an
      where an.test_id in (select t.id from tests t where t.phase_id = ${phaseId}::uuid)
        and an.attempt_id is not null
      group by an.attempt_id
    ), sa as (
      select st.*, t.id as test_id, at.id as attempt_id, at.state,
        at.state = 'in_progress' and at.deadline_at < ${at.cutoff.toISOString()}::timestamptz
          as overdue,
        greatest(at.started_at, at.last_seen_at, la.saved_at) as seen_at
      from st
      left join lateral (
        select t.id from tests t
        where t.phase_id = ${phaseId}::uuid and st.grade = any(t.grades)
        order by t.id limit 1
      ) t on true
      left join attempts at on at.test_id = t.id and at.student_id = st.id
      left join la on la.attempt_id = at.id
    ), x as (
      select sa.*,
        sa.state = 'in_progress' and not sa.overdue
          and sa.seen_at >= ${at.writingSince.toISOString()}::timestamptz as is_writing,
        sa.state = 'in_progress' and not sa.overdue
          and sa.seen_at < ${at.writingSince.toISOString()}::timestamptz as is_disconnected
      from sa
    )`;
}

/** The six counts per test of the phase and for the whole phase (`is_total`). */
export async function liveCounts(
  db: Db,
  phaseId: string,
  ownerId: string | undefined,
  at: LiveMoments,
): Promise<LiveCountRow[]> {
  const result = await db.execute(sql`
    ${studentsOfPhase(phaseId, ownerId, at)}
    select x.test_id, grouping(x.test_id) as is_total,
      count(*)::int as registered,
      count(*) filter (where x.is_writing or exists (
        select 1 from sessions se where se.user_id = x.id and se.revoked_at is null
          and se.expires_at > ${at.now.toISOString()}::timestamptz
          and se.last_seen_at >= ${at.signedInSince.toISOString()}::timestamptz))::int
        as signed_in,
      count(x.attempt_id)::int as started,
      count(*) filter (where x.is_writing)::int as writing,
      count(*) filter (where x.state = 'finished' or x.overdue)::int as finished,
      count(*) filter (where x.is_disconnected)::int as disconnected
    from x
    group by grouping sets ((x.test_id), ())`);
  return (result as unknown as { rows: LiveCountRow[] }).rows.map((r) => ({
    ...r,
    is_total: Number(r.is_total),
    registered: Number(r.registered),
    signed_in: Number(r.signed_in),
    started: Number(r.started),
    writing: Number(r.writing),
    finished: Number(r.finished),
    disconnected: Number(r.disconnected),
  }));
}

/** The disconnected students, the longest quiet first, at most `limit`. */
export async function disconnectedStudents(
  db: Db,
  phaseId: string,
  ownerId: string | undefined,
  at: LiveMoments,
  limit: number,
): Promise<DisconnectedRow[]> {
  const result = await db.execute(sql`
    ${studentsOfPhase(phaseId, ownerId, at)}
    select x.id as student_id, x.family_name, x.given_name, x.school, x.grade, x.test_id,
      x.seen_at
    from x where x.is_disconnected
    order by x.seen_at, x.family_name, x.given_name, x.id
    limit ${limit}`);
  return (result as unknown as { rows: DisconnectedRow[] }).rows;
}

/** The phase's tests. */
export async function phaseTests(db: Db, phaseId: string) {
  const result = await db.execute(sql`
    select t.id, t.name, t.grades, t.start_date, t.end_date from tests t
    where t.phase_id = ${phaseId}::uuid order by t.start_date, t.name, t.id`);
  return (
    result as unknown as {
      rows: {
        id: string;
        name: string;
        grades: number[];
        start_date: Date | string;
        end_date: Date | string;
      }[];
    }
  ).rows;
}

export type StatsRow = {
  minute: Date | string;
  writes: number;
  errors: number;
  latency: number[];
  instances: number;
};

/**
 * The answer writes of the phase's tests per minute since `since`, every process's rows added
 * up (latency bucket by bucket); `instances` is how many processes reported in all the minutes
 * (the same on every row).
 */
export async function answerWriteStats(db: Db, phaseId: string, since: Date): Promise<StatsRow[]> {
  const result = await db.execute(sql`
    with s as (
      select s.* from exam_day_stats s
      where s.minute >= ${since.toISOString()}::timestamptz
        and s.test_id in (select t.id from tests t where t.phase_id = ${phaseId}::uuid)
    )
    select s.minute, sum(s.writes)::int as writes, sum(s.errors)::int as errors,
      array(select sum(b)::int from s s2, unnest(s2.latency) with ordinality as u(b, i)
        where s2.minute = s.minute group by u.i order by u.i) as latency,
      (select count(distinct instance) from s)::int as instances
    from s group by s.minute order by s.minute`);
  return (result as unknown as { rows: StatsRow[] }).rows;
}
