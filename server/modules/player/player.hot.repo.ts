import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { hotStatement, type WarmableClient } from '../../lib/hot-statement.js';
import type { AttemptRow } from './player.repo.js';

// EXAM DAY'S FAST PATH — fenced on purpose. The start of a whole county comes in the same
// minute: it is one SQL statement and one round trip (the answer write is the results module's,
// in results/answer-write.hot.ts). Change it only with `npm run bench -- exam-day`.

const START_NAME = 'player_start_v3';

/**
 * The whole start in one statement: resolves the session to a signed-in, registered, active
 * student; reads whether they are registered in the test's phase, the grade they take part
 * with and their attempt; and, when asked to ($10) and the student may take the test, creates
 * the attempt with the items in the student's stable order (the same order as
 * `stableItemOrder`: by SHA-256 of "seed:student:item", compared bytewise). No row: no such
 * session or not a student who may start. A new attempt is visible in `inserted`; an existing
 * one (or a first start lost to a concurrent one: neither) is decided by the caller.
 * The registration row is taken FOR KEY SHARE: a removal from the phase waits for this start
 * to commit and then sees its attempt, or, having deleted first, leaves no row to start from.
 *
 * Parameters: $1 token hash, $2 server now, $3 phase id, $4 edition id, $5 test id, $6 new
 * attempt id, $7 its deadline, $8 the test's seed, $9 the test's grades, $10 create.
 */
export const START_SQL = `
with s as (
  select u.id, u.grade from sessions se join users u on u.id = se.user_id
  where se.token_hash = $1 and se.revoked_at is null and se.expires_at > $2::timestamptz
    and u.deleted_at is null and u.type = 'student' and u.state = 'active' and u.registered
), f as (
  select s.id,
    exists (select 1 from phase_students ps where ps.phase_id = $3::uuid and ps.student_id = s.id
      for key share) as in_phase,
    coalesce((select es.grade from edition_students es
      where es.edition_id = $4::uuid and es.student_id = s.id), s.grade) as grade
  from s
), ins as (
  insert into attempts (id, test_id, student_id, state, started_at, deadline_at, item_order)
  select $6::uuid, $5::uuid, f.id, 'in_progress', $2::timestamptz, $7::timestamptz,
    array(select ti.question_id from test_items ti where ti.test_id = $5::uuid
      order by sha256(convert_to($8::text || ':' || f.id::text || ':' || ti.question_id::text, 'UTF8')))
  from f
  where $10::boolean and f.in_phase and f.grade = any($9::int[])
    and exists (select 1 from phases p where p.id = $3::uuid and p.state = 'open' for key share)
  on conflict (test_id, student_id) do nothing
  returning *
)
select f.id, f.in_phase, f.grade, ins.id is not null as inserted,
  coalesce(ins.id, at.id) as attempt_id,
  coalesce(ins.state, at.state) as attempt_state,
  coalesce(ins.started_at, at.started_at) as started_at,
  coalesce(ins.deadline_at, at.deadline_at) as deadline_at,
  coalesce(ins.extra_seconds, at.extra_seconds) as extra_seconds,
  coalesce(ins.item_order, at.item_order)::text[] as item_order,
  coalesce(ins.finished_at, at.finished_at) as finished_at,
  coalesce(ins.finished_by, at.finished_by) as finished_by,
  coalesce(ins.key_shown_at, at.key_shown_at) as key_shown_at,
  coalesce(ins.created_at, at.created_at) as created_at
from f
left join ins on true
left join attempts at on at.test_id = $5::uuid and at.student_id = f.id`;

export type StartParams = [
  tokenHash: string,
  now: string,
  phaseId: string,
  editionId: string,
  testId: string,
  attemptId: string,
  deadline: string,
  seed: string,
  grades: string,
  create: boolean,
];

export type StartRow = {
  id: string;
  in_phase: boolean;
  inserted: boolean;
  grade: number | null;
  attempt_id: string | null;
  attempt_state: 'in_progress' | 'finished' | null;
  started_at: Date | string | null;
  deadline_at: Date | string | null;
  extra_seconds: number | null;
  item_order: string[] | null;
  finished_at: Date | string | null;
  finished_by: AttemptRow['finishedBy'];
  key_shown_at: Date | string | null;
  created_at: Date | string | null;
};

const asDate = (value: Date | string | null): Date | null =>
  value === null ? null : value instanceof Date ? value : new Date(value);

/** The attempt of a start row, if the student has one. */
export function attemptOfStart(row: StartRow, testId: string): AttemptRow | undefined {
  const startedAt = asDate(row.started_at);
  const deadlineAt = asDate(row.deadline_at);
  const createdAt = asDate(row.created_at);
  if (!row.attempt_id || !row.attempt_state || !startedAt || !deadlineAt || !createdAt) {
    return undefined;
  }
  return {
    id: row.attempt_id,
    testId,
    studentId: row.id,
    state: row.attempt_state,
    startedAt,
    deadlineAt,
    extraSeconds: row.extra_seconds ?? 0,
    itemOrder: row.item_order ?? [],
    finishedAt: asDate(row.finished_at),
    finishedBy: row.finished_by,
    keyShownAt: asDate(row.key_shown_at),
    createdAt,
  };
}

/** An attempts row as raw SQL returns it (see ATTEMPT_RECORD_COLUMNS). */
export type AttemptRecord = {
  id: string;
  test_id: string;
  student_id: string;
  state: AttemptRow['state'];
  started_at: Date | string;
  deadline_at: Date | string;
  extra_seconds: number;
  item_order: string[];
  finished_at: Date | string | null;
  finished_by: AttemptRow['finishedBy'];
  key_shown_at: Date | string | null;
  created_at: Date | string;
};

/** The columns of an `attempts at` row for `attemptOfRecord`, as SQL text. */
export const ATTEMPT_RECORD_COLUMNS = sql.raw(
  'at.id, at.test_id, at.student_id, at.state, at.started_at, at.deadline_at, ' +
    'at.extra_seconds, at.item_order::text[] as item_order, at.finished_at, at.finished_by, ' +
    'at.key_shown_at, at.created_at',
);

/** An attempt from a raw row (drivers differ on whether timestamps come as text). */
export function attemptOfRecord(row: AttemptRecord): AttemptRow {
  return {
    id: row.id,
    testId: row.test_id,
    studentId: row.student_id,
    state: row.state,
    startedAt: asDate(row.started_at) as Date,
    deadlineAt: asDate(row.deadline_at) as Date,
    extraSeconds: Number(row.extra_seconds),
    itemOrder: row.item_order,
    finishedAt: asDate(row.finished_at),
    finishedBy: row.finished_by,
    keyShownAt: asDate(row.key_shown_at),
    createdAt: asDate(row.created_at) as Date,
  };
}

/** Runs the start statement (see START_SQL). */
export function starter(database: Pick<Database, 'db' | 'pool'>) {
  const run = hotStatement<StartParams, StartRow>(database, START_NAME, START_SQL);
  return async (params: StartParams) => (await run(params))[0];
}

/**
 * Plans the start statement on one connection (with arguments that match nothing), so the
 * connection's first student does not pay for opening catalogs and planning.
 */
export async function warmStartStatement(client: WarmableClient): Promise<void> {
  const none = '00000000-0000-0000-0000-000000000000';
  const at = new Date(0).toISOString();
  await client.query({
    name: START_NAME,
    text: START_SQL,
    values: ['', at, none, none, none, none, at, '', '{}', false] satisfies StartParams,
  });
}
