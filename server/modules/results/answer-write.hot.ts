import { MAX_TYPED_ANSWER_LENGTH } from '../../../shared/schemas/player.js';
import type { Database } from '../../db/client.js';
import { hotStatement, type WarmableClient } from '../../lib/hot-statement.js';

// EXAM DAY'S FAST PATH — fenced on purpose. The answer write is the hottest call of Podium
// (1,500 a second in the exam-day benchmark): one SQL statement and one round trip that
// resolves the session, checks the player's rules on the attempt and stores the answer. The
// answers table belongs to the results module, so the statement lives here; the player hands
// answers over through `answerWriter`. Change it only with `npm run bench -- exam-day`.

const ANSWER_NAME = 'answer_upsert_v3';
const ANSWER_MANY_NAME = 'answer_upsert_many_v2';

/**
 * Resolves the session, checks the attempt (running, not past deadline plus grace, the item
 * is one of its items) and the answer's shape against the item, and upserts the answer keeping
 * the highest `seq`, all in one statement. The attempt row is taken FOR KEY SHARE, which
 * waits for a finish (FOR UPDATE) and then sees the attempt finished, so no answer is stored
 * after the answers were scored. No row back means nothing was written: the caller finds out
 * why on the slow path.
 *
 * Parameters: $1 token hash, $2 server now, $3 cutoff (now - grace), $4 test id, $5 item id,
 * $6 answer (jsonb or null), $7 seq, $8 new answer id, $9 answer kind ('null' | 'array' |
 * 'string'), $10 array length or string length, $11 highest index (-1 if none).
 */
export const ANSWER_UPSERT_SQL = `
with s as (
  select u.id from sessions se join users u on u.id = se.user_id
  where se.token_hash = $1 and se.revoked_at is null and se.expires_at > $2::timestamptz
    and u.deleted_at is null and u.type = 'student' and u.state = 'active' and u.registered
), a as (
  select at.id, at.student_id, at.deadline_at from attempts at
  where at.test_id = $4::uuid and at.student_id = (select id from s)
    and at.state = 'in_progress' and at.deadline_at >= $3::timestamptz
    and $5::uuid = any(at.item_order)
  for key share
), q as (
  select 1 from questions q
  where q.id = $5::uuid and case $9::text
    when 'null' then true
    when 'array' then q.item_type in ('single', 'multiple')
      and (q.item_type = 'multiple' or $10::int <= 1)
      and $11::int < jsonb_array_length(q.item_answers)
    else (q.item_type = 'open' or (q.item_type = 'numeric' and $10::int <= ${MAX_TYPED_ANSWER_LENGTH}))
  end
)
insert into answers as an
  (id, test_id, student_id, question_id, attempt_id, submitted_answer, seq, updated_at)
select $8::uuid, $4::uuid, a.student_id, $5::uuid, a.id, $6::jsonb, $7::int, $2::timestamptz
from a, q
on conflict (test_id, student_id, question_id) do update
  set submitted_answer = excluded.submitted_answer, seq = excluded.seq,
      updated_at = excluded.updated_at, attempt_id = excluded.attempt_id
  where an.seq < excluded.seq
returning an.seq, (extract(epoch from an.updated_at) * 1000)::float8 as saved_ms,
  (extract(epoch from (select a.deadline_at from a)) * 1000)::float8 as deadline_ms`;

export type AnswerUpsertParams = [
  tokenHash: string,
  now: string,
  cutoff: string,
  testId: string,
  itemId: string,
  answer: string | null,
  seq: number,
  answerId: string,
  kind: 'null' | 'array' | 'string',
  length: number,
  maxIndex: number,
];

/**
 * ANSWER_UPSERT_SQL for many answers at once: the same checks row by row, one statement and one
 * commit for all. `n` is the answer's 1-based place in the arrays; an answer without a row back
 * wrote nothing. Rows are written ordered by (student, item), so two groups in flight take the
 * answer rows' locks in the same order. The same answer row twice in one group is an error
 * (ON CONFLICT cannot touch a row twice): the writer keeps one answer per token and item in a
 * group, and falls back to one statement per answer when a group fails.
 *
 * Parameters are arrays, one element per answer, in ANSWER_UPSERT_SQL's order.
 */
export const ANSWER_UPSERT_MANY_SQL = `
with r as (
  select * from unnest($1::text[], $2::timestamptz[], $3::timestamptz[], $4::uuid[],
    $5::uuid[], $6::text[], $7::int[], $8::uuid[], $9::text[], $10::int[], $11::int[])
    with ordinality
    as r(token_hash, now, cutoff, test_id, item_id, answer, seq, answer_id, kind, len, max_index, n)
), a as (
  select r.n, at.id as attempt_id, at.student_id, at.deadline_at
  from r
  join sessions se on se.token_hash = r.token_hash and se.revoked_at is null
    and se.expires_at > r.now
  join users u on u.id = se.user_id and u.deleted_at is null and u.type = 'student'
    and u.state = 'active' and u.registered
  join attempts at on at.test_id = r.test_id and at.student_id = u.id
    and at.state = 'in_progress' and at.deadline_at >= r.cutoff and r.item_id = any(at.item_order)
  join questions q on q.id = r.item_id and case r.kind
    when 'null' then true
    when 'array' then q.item_type in ('single', 'multiple')
      and (q.item_type = 'multiple' or r.len <= 1)
      and r.max_index < jsonb_array_length(q.item_answers)
    else (q.item_type = 'open' or (q.item_type = 'numeric' and r.len <= ${MAX_TYPED_ANSWER_LENGTH}))
  end
  for key share of at
), ins as (
  insert into answers as an
    (id, test_id, student_id, question_id, attempt_id, submitted_answer, seq, updated_at)
  select r.answer_id, r.test_id, a.student_id, r.item_id, a.attempt_id, r.answer::jsonb, r.seq,
    r.now
  from r join a on a.n = r.n
  order by a.student_id, r.item_id
  on conflict (test_id, student_id, question_id) do update
    set submitted_answer = excluded.submitted_answer, seq = excluded.seq,
        updated_at = excluded.updated_at, attempt_id = excluded.attempt_id
    where an.seq < excluded.seq
  returning an.test_id, an.student_id, an.question_id, an.seq, an.updated_at
)
select a.n::int as n, ins.seq, (extract(epoch from ins.updated_at) * 1000)::float8 as saved_ms,
  (extract(epoch from a.deadline_at) * 1000)::float8 as deadline_ms
from ins
join a on a.student_id = ins.student_id
join r on r.n = a.n and r.test_id = ins.test_id and r.item_id = ins.question_id`;

/** 0…10: the places of AnswerUpsertParams, one array each in ANSWER_UPSERT_MANY_SQL. */
export const ANSWER_PARAM_PLACES = Array.from({ length: 11 }, (_, i) => i);

export type AnswerWritten = { seq: number; savedMs: number; deadlineMs: number };
type AnswerRowBack = { seq: number; saved_ms: number; deadline_ms: number };

const written = (row: AnswerRowBack | undefined): AnswerWritten | null =>
  row
    ? { seq: Number(row.seq), savedMs: Number(row.saved_ms), deadlineMs: Number(row.deadline_ms) }
    : null;

/**
 * The answer statements: `one` writes one answer (ANSWER_UPSERT_SQL), `many` several
 * (ANSWER_UPSERT_MANY_SQL, one array per place of AnswerUpsertParams) and answers, for each, its
 * row or null in the same order. `many` fails as a whole when one answer row comes twice.
 */
export function answerStatements(database: Pick<Database, 'db' | 'pool'>) {
  const one = hotStatement<AnswerUpsertParams, AnswerRowBack>(
    database,
    ANSWER_NAME,
    ANSWER_UPSERT_SQL,
  );
  const many = hotStatement<unknown[][], AnswerRowBack & { n: number }>(
    database,
    ANSWER_MANY_NAME,
    ANSWER_UPSERT_MANY_SQL,
  );
  return {
    one: async (params: AnswerUpsertParams) => written((await one(params))[0]),
    async many(answers: readonly AnswerUpsertParams[]): Promise<(AnswerWritten | null)[]> {
      const columns = ANSWER_PARAM_PLACES.map((i) => answers.map((params) => params[i]));
      const rows = await many(columns);
      const byPlace = new Map(rows.map((row) => [Number(row.n), row]));
      return answers.map((_, i) => written(byPlace.get(i + 1)));
    },
  };
}

/**
 * Plans the answer statements on one connection (with arguments that match nothing), so the
 * connection's first student does not pay for opening catalogs and planning.
 */
export async function warmAnswerStatements(client: WarmableClient): Promise<void> {
  const none = '00000000-0000-0000-0000-000000000000';
  const at = new Date(0).toISOString();
  const answer: AnswerUpsertParams = ['', at, at, none, none, null, 1, none, 'null', 0, -1];
  await client.query({ name: ANSWER_NAME, text: ANSWER_UPSERT_SQL, values: answer });
  await client.query({
    name: ANSWER_MANY_NAME,
    text: ANSWER_UPSERT_MANY_SQL,
    values: ANSWER_PARAM_PLACES.map((i) => [answer[i], answer[i]]),
  });
}
