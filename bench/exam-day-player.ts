// A virtual student speaking the test-player API (shared/schemas/player.ts), keeping what the
// server acknowledged, and the reconciliation of those acknowledgements with the rows in
// `answers`: every acknowledged answer must be stored with the sequence number and the value
// the student last had acknowledged for that item.

import type pg from 'pg';
import type { AnswerAck, StartResponse, SubmittedAnswer } from '../shared/schemas/player.js';
import type { SeedStudent } from './exam-day-seed.js';
import type { HttpClient, Reply } from './harness/http.js';

export const PLAYER = '/api/v1/test-player/mytests';

export type PlayerItemRef = { itemId: string; itemType: string; options: number };

export type VirtualStudent = SeedStudent & {
  headers: Record<string, string>;
  /** The attempt's items as the start call returned them (the student's order). */
  items: PlayerItemRef[];
  /** The last sequence number used for this attempt. */
  seq: number;
  /** Per item, the highest-seq write the server acknowledged, and its value. */
  acked: Map<string, { seq: number; value: SubmittedAnswer }>;
  started: boolean;
  finished: boolean;
};

export function virtualStudent(s: SeedStudent): VirtualStudent {
  return {
    ...s,
    headers: { authorization: `Bearer ${s.token}`, userid: s.id },
    items: [],
    seq: 0,
    acked: new Map(),
    started: false,
    finished: false,
  };
}

export const startCall = (c: HttpClient, s: VirtualStudent, testId: string) =>
  c.request('POST', `${PLAYER}/${testId}`, s.headers, JSON.stringify({ termsAccepted: true }));

/** Takes the items from a successful start. */
export function onStarted(s: VirtualStudent, r: Reply) {
  const body = JSON.parse(r.body) as StartResponse;
  s.items = body.shuffledStudentItems.map((i) => ({
    itemId: i.itemId,
    itemType: i.itemType,
    options: i.itemAnswers.length,
  }));
  s.started = true;
}

export const itemsCall = (c: HttpClient, s: VirtualStudent, testId: string) =>
  c.request('GET', `${PLAYER}/${testId}/items`, s.headers);

export const finishCall = (c: HttpClient, s: VirtualStudent, testId: string) =>
  c.request('PUT', `${PLAYER}/${testId}/review`, s.headers);

export const answerCall = (
  c: HttpClient,
  s: VirtualStudent,
  testId: string,
  itemId: string,
  submittedAnswer: SubmittedAnswer,
  seq: number,
) =>
  c.request(
    'PUT',
    `${PLAYER}/${testId}`,
    s.headers,
    JSON.stringify({ itemId, submittedAnswer, seq }),
  );

/** A plausible answer for an item: one option, a few options, or a typed number. */
export function answerFor(item: PlayerItemRef, r: (n: number) => number): SubmittedAnswer {
  if (item.itemType === 'single') return [r(item.options)];
  if (item.itemType === 'multiple') {
    const picked = new Set<number>();
    const k = 1 + r(Math.min(3, item.options));
    while (picked.size < k) picked.add(r(item.options));
    return [...picked].sort((a, b) => a - b);
  }
  if (item.itemType === 'numeric') return String(r(200));
  return `Răspuns ${r(1000)}`;
}

/**
 * Records an acknowledged write. Returns false when the acknowledgement is malformed or
 * reports a stored seq below the one written (the server must never keep an older answer).
 */
export function recordAck(
  s: VirtualStudent,
  itemId: string,
  seq: number,
  value: SubmittedAnswer,
  ackSeq: number,
): boolean {
  const prev = s.acked.get(itemId);
  if (!prev || seq > prev.seq) s.acked.set(itemId, { seq, value });
  return Number.isInteger(ackSeq) && ackSeq >= seq;
}

export const ackSeqOf = (r: Reply) => (JSON.parse(r.body) as AnswerAck).seq;

export type Reconciliation = {
  /** Items with at least one acknowledged write (the latest acknowledged seq per item). */
  acknowledged: number;
  /** Rows in `answers` for the test. */
  stored: number;
  /** Acknowledged but missing, or stored with an older seq than acknowledged. */
  lost: number;
  /** Stored with the acknowledged seq but another value. */
  wrongValue: number;
  /** Stored with a newer seq than any acknowledged one (a write whose answer never arrived). */
  newerThanAcknowledged: number;
  /** Stored rows no acknowledgement accounts for. */
  unacknowledged: number;
  /** Examples of lost or wrong answers, for the report. */
  examples: string[];
};

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * Compares what the students had acknowledged with the answers stored for a test. A row with
 * seq 0 holds no answer: the finish gives every item never answered a row for its score.
 */
export async function reconcile(
  pool: pg.Pool,
  testId: string,
  students: VirtualStudent[],
): Promise<Reconciliation> {
  const { rows } = await pool.query<{
    student_id: string;
    question_id: string;
    seq: number;
    submitted_answer: unknown;
  }>(
    'select student_id, question_id, seq, submitted_answer from answers where test_id = $1 and seq > 0',
    [testId],
  );
  const stored = new Map(rows.map((row) => [`${row.student_id}|${row.question_id}`, row]));
  const out: Reconciliation = {
    acknowledged: 0,
    stored: rows.length,
    lost: 0,
    wrongValue: 0,
    newerThanAcknowledged: 0,
    unacknowledged: 0,
    examples: [],
  };
  const seen = new Set<string>();
  for (const s of students) {
    for (const [itemId, ack] of s.acked) {
      out.acknowledged += 1;
      const key = `${s.id}|${itemId}`;
      seen.add(key);
      const row = stored.get(key);
      if (!row || row.seq < ack.seq) {
        out.lost += 1;
        if (out.examples.length < 5)
          out.examples.push(
            `lost: student ${s.id} item ${itemId} acked seq ${ack.seq}, stored ${row ? row.seq : 'nothing'}`,
          );
      } else if (row.seq > ack.seq) {
        out.newerThanAcknowledged += 1;
      } else if (!same(row.submitted_answer, ack.value)) {
        out.wrongValue += 1;
        if (out.examples.length < 5)
          out.examples.push(
            `wrong value: student ${s.id} item ${itemId} seq ${ack.seq}: acked ${JSON.stringify(ack.value)}, stored ${JSON.stringify(row.submitted_answer)}`,
          );
      }
    }
  }
  for (const key of stored.keys()) if (!seen.has(key)) out.unacknowledged += 1;
  return out;
}
