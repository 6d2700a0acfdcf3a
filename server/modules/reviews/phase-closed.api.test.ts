import { and, eq, inArray } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PhaseOpenScores } from '../../../shared/schemas/exams.js';
import type { ReviewEntry, StudentResult } from '../../../shared/schemas/reviews.js';
import {
  answers,
  auditEvents,
  mailOutbox,
  phases,
  reviewAppeals,
  reviewEntries,
} from '../../db/schema.js';
import { buildTestApp, type TestApp } from '../../test/app.js';
import { fixedClock } from '../../test/competition.js';
import { heldTransaction } from '../../test/db.js';
import { reviewWorld } from './reviews.fixtures.js';

// A closed phase is final: it closes only once every score is (or with the open work accepted
// by name, settled and audited), and then no write of the review changes a score, an appeal or
// a decision of it; two key fixes at once act once.

const clock = fixedClock();
let t: TestApp;
let w: Awaited<ReturnType<typeof reviewWorld>>;

beforeAll(async () => {
  t = await buildTestApp({ clock });
  w = await reviewWorld(t);
  // The online tests are over; appeals on the online phase are open by their dates.
  clock.set('2026-11-24T09:00:00.000Z');
  await w.setPhase(w.online.id, {
    appealStartDate: new Date('2026-11-24T08:00:00Z'),
    appealEndDate: new Date('2026-11-30T12:00:00Z'),
  });
}, 300_000);
afterAll(async () => {
  await t?.close();
});

const codeOf = (res: LightMyRequestResponse) =>
  (res.json() as { error?: { code?: string } }).error?.code;
const detailsOf = <T>(res: LightMyRequestResponse) =>
  (res.json() as { error?: { details?: T } }).error?.details as T;
const ok = <T>(res: LightMyRequestResponse): T => {
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as T;
};
const base = () => w.reviewBase(w.online.id);
const finishUrl = () => `/exam-mgmt${w.phasePath(w.online.id)}/finish`;
const appealUrl = (itemId: string) =>
  `/test-review/tests/${w.onlineTest.id}/items/${itemId}/appeal`;
const scoreMails = async () =>
  (await t.database.db.select().from(mailOutbox)).filter((m) => m.template === 'score-changed');
const keyFixAudits = () =>
  t.database.db.select().from(auditEvents).where(eq(auditEvents.action, 'review.key_fixed'));

/** Until `n` sessions of the database wait for a lock (fails after ~5 s). */
async function waiters(pool: pg.Pool, n: number) {
  for (let i = 0; i < 200; i += 1) {
    const { rows } = await pool.query<{ n: number }>(
      `select count(*)::int as n from pg_stat_activity
       where datname = current_database() and wait_event_type = 'Lock'`,
    );
    if ((rows[0]?.n ?? 0) >= n) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`fewer than ${n} sessions waited`);
}

describe.skipIf(!process.env.DATABASE_URL)('two key fixes of one item at once', () => {
  it('act once: one audit row with the real before and after, one mail per student', async () => {
    const pool = t.database.pool;
    if (!pool) throw new Error('PostgreSQL only');
    const mailsBefore = (await scoreMails()).length;
    const url = `${base()}/items/${w.singleItemId}/key`;
    const body = { itemCorrectAnswers: [0], reason: 'Barem greșit' };
    // Someone holds the question row: both fixes reach it before either can commit.
    const held = await heldTransaction(pool, (c) =>
      c.query('select id from questions where id = $1 for update', [w.singleItemId]),
    );
    let results: LightMyRequestResponse[];
    try {
      const both = Promise.all([
        w.call('PUT', url, w.examAdmin.headers, body),
        w.call('PUT', url, w.examAdmin.headers, body),
      ]);
      await waiters(pool, 2);
      await held.commit();
      results = await both;
    } catch (err) {
      await held.rollback().catch(() => {});
      throw err;
    }
    for (const r of results) expect(r.statusCode, r.body).toBe(200);
    const audits = await keyFixAudits();
    expect(audits).toHaveLength(1);
    expect(audits[0]?.before).toEqual({ itemId: w.singleItemId, itemCorrectAnswers: [1] });
    const after = audits[0]?.after as { changes: { before: number; after: number }[] };
    expect(after.changes).toHaveLength(3);
    expect(after.changes.every((c) => c.before === 0 && c.after === 10)).toBe(true);
    const mails = (await scoreMails()).slice(mailsBefore);
    expect(mails.map((m) => m.userId).sort()).toEqual([w.ana.id, w.bogdan.id, w.carmen.id].sort());
  });
});

describe('closing a phase whose scores are not all final', () => {
  let openIds: { reviewIds: string[]; appealIds: string[] };

  it('is refused with what is open, and changes nothing', async () => {
    // The review has not started: the open item's answers have no entry and cannot be accepted.
    const unmarked = await w.call('PUT', finishUrl(), w.examAdmin.headers, {
      acceptOpen: { reviewIds: [], appealIds: [] },
    });
    expect(unmarked.statusCode).toBe(409);
    expect(codeOf(unmarked)).toBe('RESULTS_INCOMPLETE');
    expect(detailsOf<PhaseOpenScores>(unmarked)).toMatchObject({ unmarkedAnswers: 3 });

    await w.call(
      'POST',
      `/resource-mgmt${w.phasePath(w.online.id)}/items/${w.openItemId}/teachers`,
      w.examAdmin.headers,
      { mediatorTeacher: w.mediator.id, gradingTeachers: [w.r1.id, w.r2.id] },
    );
    ok(await w.call('PUT', `/exam-mgmt${w.phasePath(w.online.id)}/review`, w.examAdmin.headers));
    const [done, split] = ok<ReviewEntry[]>(
      await w.call('GET', `${base()}/reviews?filter=${encodeURIComponent('{}')}`, w.r1.headers),
    );
    // One entry final (8 and 8), one waiting for the mediator (1 and 9), one not marked.
    for (const [entry, a, b] of [
      [done, 8, 8],
      [split, 1, 9],
    ] as const) {
      ok(
        await w.call('PUT', `${base()}/reviews/${entry?._id}`, w.r1.headers, { reviewerScore: a }),
      );
      ok(
        await w.call('PUT', `${base()}/reviews/${entry?._id}`, w.r2.headers, { reviewerScore: b }),
      );
    }
    // Carmen contests the single-choice item: a committee appeal, pending.
    ok(await w.call('PUT', appealUrl(w.singleItemId), w.carmen.headers, { reason: 'Verificați.' }));

    const refused = await w.call('PUT', finishUrl(), w.examAdmin.headers);
    expect(refused.statusCode).toBe(409);
    expect(codeOf(refused)).toBe('RESULTS_INCOMPLETE');
    const open = detailsOf<PhaseOpenScores>(refused);
    expect(open).toMatchObject({
      reviews: 1,
      mediations: 1,
      appeals: 1,
      appealMediations: 0,
      unmarkedAnswers: 0,
    });
    expect(open.reviewIds).toHaveLength(2);
    expect(open.reviewIds).toContain(split?._id);
    expect(open.reviewIds).not.toContain(done?._id);
    expect(open.appealIds).toHaveLength(1);
    openIds = { reviewIds: open.reviewIds, appealIds: open.appealIds };

    // Accepting less than what is open is refused too.
    const partial = await w.call('PUT', finishUrl(), w.examAdmin.headers, {
      acceptOpen: { reviewIds: open.reviewIds.slice(1), appealIds: open.appealIds },
    });
    expect(codeOf(partial)).toBe('RESULTS_INCOMPLETE');
    const [phase] = await t.database.db.select().from(phases).where(eq(phases.id, w.online.id));
    expect(phase?.state).toBe('open');
    const closes = await t.database.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.entityId, w.online.id), eq(auditEvents.action, 'phase.close')));
    expect(closes).toHaveLength(0);
  });

  it('closes with the open work accepted by name: entries end at 0, appeals kept, audited', async () => {
    const closed = ok<{ state: string }>(
      await w.call('PUT', finishUrl(), w.examAdmin.headers, { acceptOpen: openIds }),
    );
    expect(closed.state).toBe('closed');
    const entries = await t.database.db
      .select()
      .from(reviewEntries)
      .where(inArray(reviewEntries.id, openIds.reviewIds));
    expect(entries.map((e) => [e.status, Number(e.finalScore)])).toEqual([
      ['final', 0],
      ['final', 0],
    ]);
    const settled = await t.database.db
      .select()
      .from(answers)
      .where(
        inArray(
          answers.id,
          entries.map((e) => e.answerId ?? ''),
        ),
      );
    expect(settled.map((a) => [a.scoreState, a.score])).toEqual([
      ['decided', 0],
      ['decided', 0],
    ]);
    const [appeal] = await t.database.db
      .select()
      .from(reviewAppeals)
      .where(inArray(reviewAppeals.id, openIds.appealIds));
    expect(appeal).toMatchObject({ status: 'resolved', outcome: 'kept' });
    expect(appeal?.finalScore).toEqual(appeal?.originalScore);
    const [event] = await t.database.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.entityId, w.online.id), eq(auditEvents.action, 'phase.close')));
    expect((event?.after as { acceptedOpen?: unknown } | undefined)?.acceptedOpen).toEqual({
      reviewIds: openIds.reviewIds,
      appealIds: openIds.appealIds,
    });
  });
});

describe('a closed phase', () => {
  it('takes no mark, mediation, appeal, decision, key fix, rubric or reassignment', async () => {
    const before = await t.database.db.select().from(answers).orderBy(answers.id);
    const auditCount = (await t.database.db.select().from(auditEvents)).length;
    const [entry] = await t.database.db
      .select()
      .from(reviewEntries)
      .where(eq(reviewEntries.phaseId, w.online.id));
    const [appeal] = await t.database.db
      .select()
      .from(reviewAppeals)
      .where(eq(reviewAppeals.phaseId, w.online.id));
    const writes: [string, string, Record<string, string>, unknown][] = [
      ['PUT', `${base()}/reviews/${entry?.id}`, w.r1.headers, { reviewerScore: 5 }],
      [
        'PUT',
        `${base()}/reviews/${entry?.id}/mediations`,
        w.mediator.headers,
        { reviewerScore: 5 },
      ],
      [
        'PUT',
        `${base()}/appeals/${appeal?.id}/decision`,
        w.examAdmin.headers,
        { note: 'Barem corect' },
      ],
      ['PUT', appealUrl(w.singleItemId), w.ana.headers, { reason: 'După închidere.' }],
      ['PUT', appealUrl(w.openItemId), w.bogdan.headers, { reason: 'După închidere.' }],
      [
        'PUT',
        `${base()}/items/${w.singleItemId}/key`,
        w.examAdmin.headers,
        { itemCorrectAnswers: [1], reason: 'Înapoi' },
      ],
      [
        'PUT',
        `${base()}/items/${w.openItemId}/rubric`,
        w.staff.headers,
        { criteria: [{ label: 'Tot', points: 1 }] },
      ],
      ['POST', `${base()}/reassignments`, w.staff.headers, { teacherId: w.r1.id }],
    ];
    for (const [method, url, headers, body] of writes) {
      const res = await w.call(method, url, headers, body);
      expect([url, res.statusCode, codeOf(res)]).toEqual([url, 409, 'PHASE_CLOSED']);
    }
    expect(await t.database.db.select().from(answers).orderBy(answers.id)).toEqual(before);
    expect(await t.database.db.select().from(auditEvents)).toHaveLength(auditCount);
    const page = ok<StudentResult>(
      await w.call('GET', `/test-review/tests/${w.onlineTest.id}/items`, w.ana.headers),
    );
    expect(page.appealOpen).toBe(false);
    expect(page.items.every((i) => !i.canChallenge)).toBe(true);
  });
});
