import { and, eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  ContestationEntry,
  HistoryEvent,
  ReviewDetail,
  ReviewEntry,
  StudentResult,
} from '../../../shared/schemas/reviews.js';
import {
  answers,
  auditEvents,
  mailOutbox,
  notifications,
  questions,
  reviewEntries,
  reviewMarks,
  testResults,
} from '../../db/schema.js';
import { renderMail } from '../../lib/mail/templates.js';
import { buildTestApp, type TestApp } from '../../test/app.js';
import { fixedClock, type Signed } from '../../test/competition.js';
import { reviewWorld } from './reviews.fixtures.js';

// The test-review service end to end on a real database: the start of review and its check,
// the assignment, blind marking on every reviewer-facing route, marks in range and step, two
// tabs, the threshold and mediation, final scores through the results module, appeals in their
// window and once per item, appeal marking by other teachers, the committee's key fix.

const clock = fixedClock();
let t: TestApp;
let w: Awaited<ReturnType<typeof reviewWorld>>;

beforeAll(async () => {
  t = await buildTestApp({ clock });
  w = await reviewWorld(t);
}, 300_000);
afterAll(async () => {
  await t?.close();
});

const codeOf = (res: LightMyRequestResponse) =>
  (res.json() as { error?: { code?: string } }).error?.code;
const detailsOf = (res: LightMyRequestResponse) =>
  (res.json() as { error?: { details?: unknown } }).error?.details;
const ok = <T>(res: LightMyRequestResponse): T => {
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as T;
};

const appealUrl = (testId: string, itemId: string) =>
  `/test-review/tests/${testId}/items/${itemId}/appeal`;
const hybridBase = () => w.reviewBase(w.hybrid.id);
const onlineBase = () => w.reviewBase(w.online.id);
const startReview = (phaseId: string, who: Signed = w.examAdmin) =>
  w.call('PUT', `/exam-mgmt${w.phasePath(phaseId)}/review`, who.headers);
const setTeachers = (itemId: string, mediator: string | null, graders: string[]) =>
  w.call(
    'POST',
    `/resource-mgmt${w.phasePath(w.hybrid.id)}/items/${itemId}/teachers`,
    w.examAdmin.headers,
    {
      mediatorTeacher: mediator,
      gradingTeachers: graders,
    },
  );
const list = (base: string, who: Signed, filter: object = {}) =>
  w.call('GET', `${base}?filter=${encodeURIComponent(JSON.stringify(filter))}`, who.headers);

/** Nothing in a body a marker gets may name the student. */
function expectBlind(body: string) {
  for (const s of [w.ana, w.bogdan, w.carmen]) {
    expect(body).not.toContain(s.id);
    expect(body).not.toContain(s.email);
  }
  for (const word of ['ElevBogdan', 'AscunsBogdan', 'ElevCarmen', 'AscunsCarmen', 'lucrare-']) {
    expect(body).not.toContain(word);
  }
  expect(body).not.toContain(w.secret.school);
  expect(body).not.toContain(w.secret.county);
}

const entryOfStudent = async (studentId: string) => {
  const [row] = await t.database.db
    .select()
    .from(reviewEntries)
    .where(eq(reviewEntries.answerId, w.answerIds[studentId] ?? ''));
  if (!row) throw new Error('no entry');
  const marks = await t.database.db
    .select()
    .from(reviewMarks)
    .where(eq(reviewMarks.parentId, row.id));
  return { row, reviewers: marks.sort((a, b) => a.slot - b.slot).map((m) => m.reviewerId) };
};
const signedOf = (id: string) =>
  [w.r1, w.r2, w.r3, w.r4, w.coordinator].find((p) => p.id === id) as Signed;
const answerRow = async (studentId: string) =>
  (
    await t.database.db
      .select()
      .from(answers)
      .where(eq(answers.id, w.answerIds[studentId] ?? ''))
  )[0];

describe('starting the review of a hybrid phase', () => {
  it('refuses with the missing teachers of each question, then assigns two reviewers each', async () => {
    const itemId = w.hybridItemId;
    const refused = await startReview(w.hybrid.id);
    expect(codeOf(refused)).toBe('INSUFFICIENT_TEACHERS_FOR_TEST_ITEMS');
    expect(refused.statusCode).toBe(409);
    expect(detailsOf(refused)).toEqual([
      { itemId, field: 'mediatorTeacher' },
      { itemId, field: 'gradingTeachers' },
    ]);
    // One grader and a mediator are still not enough.
    expect((await setTeachers(itemId, w.mediator.id, [w.r1.id])).statusCode).toBe(200);
    const still = await startReview(w.hybrid.id);
    expect(detailsOf(still)).toEqual([{ itemId, field: 'gradingTeachers' }]);
    const phase = (
      await w.call('GET', `/exam-mgmt${w.phasePath(w.hybrid.id)}`, w.examAdmin.headers)
    ).json();
    expect(phase.reviewStarted).toBe(false);
    expect(await t.database.db.select().from(reviewEntries)).toHaveLength(0);

    // The coordinator grades too, first in the pool: their own student must not get them.
    await setTeachers(itemId, null, [w.coordinator.id, w.r2.id, w.r3.id, w.r4.id]);
    const started = ok<{ reviewStarted: boolean }>(await startReview(w.hybrid.id));
    expect(started.reviewStarted).toBe(true);

    const loads = new Map<string, number>();
    for (const s of [w.ana, w.bogdan, w.carmen]) {
      const { reviewers } = await entryOfStudent(s.id);
      expect(reviewers).toHaveLength(2);
      expect(new Set(reviewers).size).toBe(2);
      for (const r of reviewers) loads.set(r, (loads.get(r) ?? 0) + 1);
    }
    expect((await entryOfStudent(w.ana.id)).reviewers).not.toContain(w.coordinator.id);
    const counts = [...loads.values()];
    expect(Math.max(...counts) - Math.min(...counts)).toBeLessThanOrEqual(1);
    expect(counts.reduce((a, b) => a + b, 0)).toBe(6);

    // Uploads stop.
    const again = await w.call('GET', `${w.hybridUrl}/students/${w.ana.id}/items`, w.ana.headers);
    expect((again.json() as { uploadState: string }).uploadState).toBe('review_started');
  });
});

describe('blind marking', () => {
  it('shows reviewers a code, never the student, nor the other mark before their own', async () => {
    const { row, reviewers } = await entryOfStudent(w.bogdan.id);
    const [first, second] = reviewers.map(signedOf);
    if (!first || !second) throw new Error('reviewers');
    const base = hybridBase();

    const mine = await list(`${base}/reviews`, first);
    const entries = ok<ReviewEntry[]>(mine);
    expect(entries.length).toBeGreaterThan(0);
    expectBlind(mine.body);
    const entry = entries.find((e) => e._id === row.id);
    expect(entry?.studentId).toBeNull();
    expect(entry?.code).toMatch(/^[A-Z2-9]{3}-[A-Z2-9]{3}$/);
    expectBlind((await w.call('GET', `${base}/reviews/count`, first.headers)).body);

    // The second reviewer marks first: the first still sees nothing of it.
    ok(await w.call('PUT', `${base}/reviews/${row.id}`, second.headers, { reviewerScore: 6 }));
    for (const url of [`${base}/reviews/${row.id}`, `${base}/reviews/${row.id}/history`]) {
      const res = await w.call('GET', url, first.headers);
      expect(res.statusCode, res.body).toBe(200);
      expectBlind(res.body);
      expect(res.body).not.toContain('"reviewerScore":6');
      expect(res.body).not.toContain('"after":6');
    }
    const detail = ok<ReviewDetail>(
      await w.call('GET', `${base}/reviews/${row.id}`, first.headers),
    );
    expect(detail.entry.reviews.map((m) => m.isMine)).toEqual([true]);
    expect(detail.entry.reviewInfo.grade1).toBeNull();
    expect(detail.entry.reviewInfo.grade2).toBeNull();
    expect(detail.answer.pages.map((p) => p.name)).toEqual(['page-01.png']);
    const listed = ok<ReviewEntry[]>(await list(`${base}/reviews`, first));
    expect(JSON.stringify(listed)).not.toContain('"reviewerScore":6');

    // The page and the zip are named by place only.
    const page = await w.call(
      'GET',
      `${base}/reviews/${row.id}/files/${detail.answer.pages[0]?._id}`,
      first.headers,
    );
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-disposition']).toContain('page-01.png');
    expectBlind(String(page.headers['content-disposition']));
    const zip = await w.call('GET', `${base}/reviews/${row.id}/answer`, first.headers);
    expect(zip.statusCode).toBe(200);
    expect(zip.headers['content-disposition']).toContain(`response_${row.code}.zip`);
    expect(zip.rawPayload.includes(Buffer.from('page-01.png'))).toBe(true);
    expect(zip.rawPayload.includes(Buffer.from('lucrare-'))).toBe(false);

    // Marking answers them blind too; now they see the other mark.
    const marked = await w.call('PUT', `${base}/reviews/${row.id}`, first.headers, {
      reviewerScore: 6.5,
    });
    expectBlind(marked.body);
    const after = ok<ReviewEntry>(marked);
    expect(after.reviewInfo.grade1 !== null && after.reviewInfo.grade2 !== null).toBe(true);
    expect(after.reviewInfo.finalScore).toBe(6.25);
    const history = ok<HistoryEvent[]>(
      await w.call('GET', `${base}/reviews/${row.id}/history`, first.headers),
    );
    expect(history.filter((e) => e.action === 'marked')).toHaveLength(2);
    expect(history.every((e) => e.actorId === null)).toBe(true);

    // A teacher who marks nothing here does not find the phase; staff see the student.
    expect((await list(`${base}/reviews`, w.otherTeacher)).statusCode).toBe(404);
    const staff = ok<ReviewEntry[]>(await list(`${base}/reviews`, w.staff));
    expect(staff.find((e) => e._id === row.id)?.studentId).toBe(w.bogdan.id);
  });
});

describe('a mark', () => {
  it('is 0 to the item points in the phase step; nothing changes otherwise', async () => {
    const { row, reviewers } = await entryOfStudent(w.carmen.id);
    const r = signedOf(reviewers[0] ?? '');
    const url = `${hybridBase()}/reviews/${row.id}`;
    const over = await w.call('PUT', url, r.headers, { reviewerScore: 10.5 });
    expect(codeOf(over)).toBe('CLIENT_ERROR');
    expect(detailsOf(over)).toEqual({ reviewerScore: ['out_of_range'] });
    const offStep = await w.call('PUT', url, r.headers, { reviewerScore: 3.3 });
    expect(detailsOf(offStep)).toEqual({ reviewerScore: ['not_in_step'] });
    const { row: same } = await entryOfStudent(w.carmen.id);
    expect(same.version).toBe(row.version);
    // A teacher not assigned to it may not mark it (the mediator sees it but does not mark).
    expect((await w.call('PUT', url, w.mediator.headers, { reviewerScore: 3 })).statusCode).toBe(
      403,
    );
  });

  it('from a second tab with a stale version is told the entry changed', async () => {
    const { row, reviewers } = await entryOfStudent(w.carmen.id);
    const r = signedOf(reviewers[0] ?? '');
    const url = `${hybridBase()}/reviews/${row.id}`;
    const read = ok<ReviewDetail>(await w.call('GET', url, r.headers));
    const first = ok<ReviewEntry>(
      await w.call('PUT', url, r.headers, { reviewerScore: 2, version: read.entry.version }),
    );
    expect(first.reviewerScore).toBe(2);
    const second = await w.call('PUT', url, r.headers, {
      reviewerScore: 9,
      version: read.entry.version,
    });
    expect(second.statusCode).toBe(409);
    expect(codeOf(second)).toBe('REVIEW_CHANGED');
    const [mark] = await t.database.db
      .select()
      .from(reviewMarks)
      .where(and(eq(reviewMarks.parentId, row.id), eq(reviewMarks.reviewerId, r.id)));
    expect(mark?.score).toBe(2);
  });
});

describe('the final score', () => {
  it('is the average within the threshold, recorded by the results module and audited', async () => {
    // Bogdan's entry: 6 and 6.5 (0.5 apart, threshold 10% of 10 = 1) → 6.25.
    const a = await answerRow(w.bogdan.id);
    expect(a?.score).toBe(6.25);
    expect(a?.scoreOrigin).toBe('marked');
    expect(a?.scoreState).toBe('decided');
    const [result] = await t.database.db
      .select()
      .from(testResults)
      .where(and(eq(testResults.testId, w.hybridTest.id), eq(testResults.studentId, w.bogdan.id)));
    expect(result?.points).toBe(6.25);
    expect(result?.awaitingItems).toBe(0);
    const { row } = await entryOfStudent(w.bogdan.id);
    const events = await t.database.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.entityType, 'review_entry'), eq(auditEvents.entityId, row.id)));
    const marks = events.filter((e) => e.action === 'review.marked');
    expect(marks).toHaveLength(2);
    expect(marks.every((e) => e.actorId !== null && e.at instanceof Date)).toBe(true);
    expect(marks.map((e) => (e.after as { score: number }).score).sort()).toEqual([6, 6.5]);
    // The entry no longer takes a mark.
    const [r] = (await entryOfStudent(w.bogdan.id)).reviewers.map(signedOf);
    const closed = await w.call('PUT', `${hybridBase()}/reviews/${row.id}`, r?.headers ?? {}, {
      reviewerScore: 1,
    });
    expect(codeOf(closed)).toBe('REVIEW_CLOSED');
  });

  it('goes to the mediator beyond the threshold, who sees both marks', async () => {
    const { row, reviewers } = await entryOfStudent(w.carmen.id);
    const other = signedOf(reviewers[1] ?? '');
    const base = hybridBase();
    // 2 (given above) and 3.5: 1.5 apart > 1.
    const res = ok<ReviewEntry>(
      await w.call('PUT', `${base}/reviews/${row.id}`, other.headers, { reviewerScore: 3.5 }),
    );
    expect(res.reviewInfo.status).toBe('needs_mediation');
    expect(res.reviewInfo.finalScore).toBeNull();
    expect((await answerRow(w.carmen.id))?.scoreState).toBe('awaiting_marking');

    const waiting = await list(`${base}/reviews`, w.mediator, { type: 'NEEDS_MEDIATION_ITEMS' });
    expectBlind(waiting.body);
    const [entry] = ok<ReviewEntry[]>(waiting);
    expect(entry?._id).toBe(row.id);
    expect([entry?.reviewInfo.grade1, entry?.reviewInfo.grade2].sort()).toEqual([2, 3.5]);
    expect(entry?.canMediate).toBe(true);
    expect(
      ok<{ count: number }>(
        await w.call(
          'GET',
          `${base}/reviews/count?where=${encodeURIComponent(JSON.stringify({ type: 'NEEDS_MEDIATION_ITEMS' }))}`,
          w.mediator.headers,
        ),
      ).count,
    ).toBe(1);

    // A reviewer is not the mediator.
    const refused = await w.call('PUT', `${base}/reviews/${row.id}/mediations`, other.headers, {
      reviewerScore: 3,
    });
    expect(refused.statusCode).toBe(403);
    const mediated = await w.call(
      'PUT',
      `${base}/reviews/${row.id}/mediations`,
      w.mediator.headers,
      {
        reviewerScore: 3,
        note: 'Rezolvare parțială',
      },
    );
    expectBlind(mediated.body);
    const done = ok<ReviewEntry>(mediated);
    expect(done.reviewInfo.finalScore).toBe(3);
    expect(done.reviewInfo.finalBy).toBe('mediator');
    const a = await answerRow(w.carmen.id);
    expect([a?.score, a?.scoreOrigin]).toEqual([3, 'mediated']);
  });

  it('exactly at the threshold is still the average', async () => {
    const { row, reviewers } = await entryOfStudent(w.ana.id);
    const [x, y] = reviewers.map(signedOf);
    const url = `${hybridBase()}/reviews/${row.id}`;
    ok(await w.call('PUT', url, x?.headers ?? {}, { reviewerScore: 7 }));
    const res = ok<ReviewEntry>(await w.call('PUT', url, y?.headers ?? {}, { reviewerScore: 8 }));
    expect(res.reviewInfo.status).toBe('final');
    expect(res.reviewInfo.finalScore).toBe(7.5);
    expect((await answerRow(w.ana.id))?.score).toBe(7.5);
  });
});

describe('appeals', () => {
  const reason = { reason: 'Am rezolvat complet punctul b.' };

  it('are taken only inside the window, once per item, and show on the result page', async () => {
    const url = appealUrl(w.hybridTest.id, w.hybridItemId);
    const outside = await w.call('PUT', url, w.ana.headers, reason);
    expect(codeOf(outside)).toBe('APPEAL_NOT_ALLOWED');
    expect(detailsOf(outside)).toEqual({ reason: 'window' });
    const before = ok<StudentResult>(
      await w.call('GET', `/test-review/tests/${w.hybridTest.id}/items`, w.ana.headers),
    );
    expect(before.items[0]).toMatchObject({
      finalScore: 7.5,
      appealStatus: 'none',
      canChallenge: false,
    });

    await w.setPhase(w.hybrid.id, {
      appealStartDate: new Date('2026-11-23T09:00:00Z'),
      appealEndDate: new Date('2026-11-23T12:00:00Z'),
    });
    const open = ok<StudentResult>(
      await w.call('GET', `/test-review/tests/${w.hybridTest.id}/items`, w.ana.headers),
    );
    expect(open.appealOpen).toBe(true);
    expect(open.items[0]?.canChallenge).toBe(true);

    const filed = await w.call('PUT', url, w.ana.headers, reason);
    expect(ok<{ appealStatus: string; canChallenge: boolean }>(filed)).toMatchObject({
      appealStatus: 'pending',
      canChallenge: false,
    });
    const twice = await w.call('PUT', url, w.ana.headers, reason);
    expect(detailsOf(twice)).toEqual({ reason: 'already_appealed' });
    // Another student's result is not theirs to see.
    expect(
      (await w.call('GET', `/test-review/tests/${w.hybridTest.id}/items`, w.r1.headers)).statusCode,
    ).toBe(403);
  });

  it('are marked by teachers who did not mark the answer, and may end lower; the student is mailed', async () => {
    const { reviewers: first } = await entryOfStudent(w.ana.id);
    const base = hybridBase();
    const staffList = ok<ContestationEntry[]>(await list(`${base}/appeals`, w.staff));
    const appeal = staffList.find((a) => a.answerId === w.answerIds[w.ana.id]);
    if (!appeal) throw new Error('no appeal');
    expect(appeal.appealInfo.kind).toBe('remark');
    const assigned = (
      await t.database.db.select().from(reviewMarks).where(eq(reviewMarks.parentId, appeal._id))
    ).map((m) => m.reviewerId);
    expect(assigned).toHaveLength(2);
    for (const id of assigned) {
      expect(first).not.toContain(id);
      expect(id).not.toBe(w.coordinator.id);
    }
    // A first-round reviewer does not even see the appeal.
    const former = signedOf(first[0] ?? '');
    expect((await w.call('GET', `${base}/appeals/${appeal._id}`, former.headers)).statusCode).toBe(
      404,
    );

    const [p, q] = assigned.map(signedOf);
    const seen = await list(`${base}/appeals`, p as Signed);
    expectBlind(seen.body);
    const mine = ok<ContestationEntry[]>(seen).find((a) => a._id === appeal._id);
    expect(mine?.appealInfo.originalScore).toBeNull();
    // Every route an appeal reviewer reads is blind too.
    const detailRes = await w.call('GET', `${base}/appeals/${appeal._id}`, p?.headers ?? {});
    expectBlind(detailRes.body);
    const appealDetail = ok<{ answer: { pages: { _id: string; name: string }[] } }>(detailRes);
    expect(appealDetail.answer.pages.map((x) => x.name)).toEqual(['page-01.png']);
    const trail = await w.call('GET', `${base}/appeals/${appeal._id}/history`, p?.headers ?? {});
    expectBlind(trail.body);
    expect(trail.body).not.toContain(reason.reason);
    const pageRes = await w.call(
      'GET',
      `${base}/appeals/${appeal._id}/files/${appealDetail.answer.pages[0]?._id}`,
      p?.headers ?? {},
    );
    expect(pageRes.statusCode).toBe(200);
    expectBlind(String(pageRes.headers['content-disposition']));
    const zipRes = await w.call('GET', `${base}/appeals/${appeal._id}/answer`, p?.headers ?? {});
    expect(zipRes.statusCode).toBe(200);
    expect(zipRes.rawPayload.includes(Buffer.from('lucrare-'))).toBe(false);
    expect(mine?.appealInfo.reason).toBe(reason.reason);
    ok(
      await w.call('PUT', `${base}/appeals/${appeal._id}`, p?.headers ?? {}, { reviewerScore: 3 }),
    );
    const end = await w.call('PUT', `${base}/appeals/${appeal._id}`, q?.headers ?? {}, {
      reviewerScore: 3.5,
    });
    expectBlind(end.body);
    const resolved = ok<ContestationEntry>(end);
    expect(resolved.appealInfo).toMatchObject({
      status: 'resolved',
      originalScore: 7.5,
      resultScore: 3.25,
      finalScore: 3.25,
      outcome: 'changed',
    });
    const a = await answerRow(w.ana.id);
    expect([a?.score, a?.scoreOrigin]).toEqual([3.25, 'appealed']);
    const [result] = await t.database.db
      .select()
      .from(testResults)
      .where(and(eq(testResults.testId, w.hybridTest.id), eq(testResults.studentId, w.ana.id)));
    expect(result?.points).toBe(3.25);
    const mails = await t.database.db
      .select()
      .from(mailOutbox)
      .where(eq(mailOutbox.toAddress, w.ana.email));
    // The first publication is not a change; the appeal's is, with its item, amounts and cause.
    expect(mails.filter((m) => m.template === 'score-published')).toHaveLength(1);
    // The bell says so per test, with the mail, and links to that test's result.
    const bell = await t.database.db
      .select()
      .from(notifications)
      .where(eq(notifications.userId, w.ana.id));
    expect(bell.filter((n) => n.kind === 'test-results-published')).toEqual([
      expect.objectContaining({
        params: { test: expect.any(String) },
        link: `/teste/${w.hybridTest.id}/rezultat`,
      }),
    ]);
    const changed = mails.filter((m) => m.template === 'score-changed');
    expect(changed.map((m) => m.params)).toEqual([
      expect.objectContaining({ item: '1', before: '7.5', after: '3.25', cause: 'appeal' }),
    ]);
    const [ro, en] = (['ro', 'en'] as const).map((l) =>
      renderMail('score-changed', l, changed[0]?.params as Record<string, string>),
    );
    expect(ro?.text).toContain('întrebarea 1');
    expect(ro?.text).toContain('în urma contestației: de la 7,5 la 3,25 (−4,25) puncte');
    expect(en?.text).toContain('after the appeal: from 7.5 to 3.25 (−4.25) points');
    expect(renderMail('score-published', 'ro', { test: 'T', link: 'l' }).subject).not.toContain(
      'schimbat',
    );
    const page = ok<StudentResult>(
      await w.call('GET', `/test-review/tests/${w.hybridTest.id}/items`, w.ana.headers),
    );
    expect(page.items[0]).toMatchObject({
      finalScore: 3.25,
      appealStatus: 'resolved',
      appealOutcome: 'changed',
      decidedBy: 'appeal',
      changes: [{ before: 7.5, after: 3.25, cause: 'appeal', at: expect.any(String) }],
    });
    // Nothing in the student's view names the people who marked.
    for (const person of [w.coordinator, ...assigned.map(signedOf)]) {
      expect(JSON.stringify(page)).not.toContain(person.id);
    }
    // The question as she had it is there, never its key; the answer is her pages.
    expect(page.hybrid).toBe(true);
    expect(page.items[0]?.statement.length).toBeGreaterThan(0);
    expect(JSON.stringify(page.items[0])).not.toContain('itemCorrectAnswers');
    // It says where the test is, so the page shows beside the points the question and the
    // student's own pages (their items, read through the uploads module's own rules).
    const own = `/upload-mgmt${w.phasePath(page.phaseId)}/tests/${page.testId}/students`;
    expect(w.phasePath(page.phaseId)).toContain(
      `/exams/${page.examId}/editions/${page.editionId}/`,
    );
    const ownItems = await w.call('GET', `${own}/${w.ana.id}/items`, w.ana.headers);
    expect(ownItems.statusCode, ownItems.body).toBe(200);
    expect(
      ownItems.json().items.find((i: { itemId: string }) => i.itemId === w.hybridItemId),
    ).toMatchObject({ itemQ: expect.any(String), answer: { answerFiles: [expect.anything()] } });
    const theirs = await w.call('GET', `${own}/${w.bogdan.id}/items`, w.ana.headers);
    expect([403, 404]).toContain(theirs.statusCode);
  });

  it("keep the original score when the paper moves by less than the phase's points", async () => {
    await w.setPhase(w.hybrid.id, { appealMinPoints: 3.5 });
    ok(await w.call('PUT', appealUrl(w.hybridTest.id, w.hybridItemId), w.bogdan.headers, reason));
    const base = hybridBase();
    const appeal = ok<ContestationEntry[]>(await list(`${base}/appeals`, w.staff)).find(
      (x) => x.answerId === w.answerIds[w.bogdan.id],
    );
    if (!appeal) throw new Error('no appeal');
    const assigned = (
      await t.database.db.select().from(reviewMarks).where(eq(reviewMarks.parentId, appeal._id))
    ).map((m) => signedOf(m.reviewerId));
    // 6.25 → 9.5 moves the paper by 3.25 points, under 3.5 (as a share of the item's 10
    // points it would have been 35%).
    ok(
      await w.call('PUT', `${base}/appeals/${appeal._id}`, assigned[0]?.headers ?? {}, {
        reviewerScore: 9.5,
      }),
    );
    const res = ok<ContestationEntry>(
      await w.call('PUT', `${base}/appeals/${appeal._id}`, assigned[1]?.headers ?? {}, {
        reviewerScore: 9.5,
      }),
    );
    expect(res.appealInfo).toMatchObject({
      minChangePoints: 3.5,
      resultScore: 9.5,
      finalScore: 6.25,
      outcome: 'kept',
    });
    expect((await answerRow(w.bogdan.id))?.score).toBe(6.25);
    await w.setPhase(w.hybrid.id, { appealMinPoints: 0 });
  });
});

describe('online phases', () => {
  it('wait for their tests to end, then mark only open items', async () => {
    const running = await startReview(w.online.id);
    expect(codeOf(running)).toBe('TESTS_STILL_RUNNING');
    clock.set('2026-11-24T09:00:00.000Z');
    const refused = await startReview(w.online.id);
    expect(codeOf(refused)).toBe('INSUFFICIENT_TEACHERS_FOR_TEST_ITEMS');
    // Only the open item needs marking teachers; the single-choice item does not.
    expect(
      (detailsOf(refused) as { itemId: string }[]).every((d) => d.itemId === w.openItemId),
    ).toBe(true);
    await w.call(
      'POST',
      `/resource-mgmt${w.phasePath(w.online.id)}/items/${w.openItemId}/teachers`,
      w.examAdmin.headers,
      {
        mediatorTeacher: w.mediator.id,
        gradingTeachers: [w.r1.id, w.r2.id],
      },
    );
    ok(await startReview(w.online.id));
    const entries = ok<ReviewEntry[]>(await list(`${onlineBase()}/reviews`, w.r1));
    expect(entries).toHaveLength(3);
    expect(entries.every((e) => e.itemId === w.openItemId)).toBe(true);
    const detail = ok<ReviewDetail>(
      await w.call('GET', `${onlineBase()}/reviews/${entries[0]?._id}`, w.r1.headers),
    );
    expect(detail.answer.text).toMatch(/^raspuns deschis/);
    expectBlind(JSON.stringify(detail));
    clock.set('2026-11-23T10:00:00.000Z');
  });

  it('fix a wrong key with a preview of whose scores change, then rescore every attempt', async () => {
    await w.setPhase(w.online.id, {
      appealStartDate: new Date('2026-11-23T09:00:00Z'),
      appealEndDate: new Date('2026-11-25T12:00:00Z'),
    });
    // Carmen contests the single-choice item she got 0 on: it goes to the committee.
    ok(
      await w.call('PUT', appealUrl(w.onlineTest.id, w.singleItemId), w.carmen.headers, {
        reason: 'Varianta a este corectă.',
      }),
    );
    const base = onlineBase();
    const committee = ok<ContestationEntry[]>(
      await list(`${base}/appeals`, w.examAdmin, { type: 'COMMITTEE_ITEMS' }),
    );
    expect(committee).toHaveLength(1);
    expect(committee[0]?.canDecide).toBe(true);
    expect(
      ok<ContestationEntry[]>(await list(`${base}/appeals`, w.r1, { type: 'COMMITTEE_ITEMS' })),
    ).toHaveLength(0);

    const keyUrl = `${base}/items/${w.singleItemId}/key`;
    const bad = await w.call('POST', `${keyUrl}/preview`, w.examAdmin.headers, {
      itemCorrectAnswers: [7],
    });
    expect(detailsOf(bad)).toEqual({ itemCorrectAnswers: ['invalid'] });
    expect(
      (await w.call('POST', `${keyUrl}/preview`, w.staff.headers, { itemCorrectAnswers: [0] }))
        .statusCode,
    ).toBe(403);
    const preview = ok<{
      changes: { studentId: string; oldScore: number; newScore: number }[];
      pendingAppeals: number;
    }>(await w.call('POST', `${keyUrl}/preview`, w.examAdmin.headers, { itemCorrectAnswers: [0] }));
    expect(preview.changes.map((c) => c.studentId).sort()).toEqual(
      [w.ana.id, w.bogdan.id, w.carmen.id].sort(),
    );
    expect(preview.changes.every((c) => c.oldScore === 0 && c.newScore === 10)).toBe(true);
    expect(preview.pendingAppeals).toBe(1);
    // The preview changed nothing.
    const [q] = await t.database.db
      .select()
      .from(questions)
      .where(eq(questions.id, w.singleItemId));
    expect(q?.itemCorrectAnswers).toEqual([1]);

    const applied = ok<{ changedItems: number; students: number; resolvedAppeals: number }>(
      await w.call('PUT', keyUrl, w.examAdmin.headers, {
        itemCorrectAnswers: [0],
        reason: 'Barem greșit',
      }),
    );
    expect(applied).toMatchObject({ changedItems: 3, students: 3, resolvedAppeals: 1 });
    const scores = await t.database.db
      .select()
      .from(answers)
      .where(eq(answers.questionId, w.singleItemId));
    expect(scores.map((s) => s.score)).toEqual([10, 10, 10]);
    const page = ok<StudentResult>(
      await w.call('GET', `/test-review/tests/${w.onlineTest.id}/items`, w.carmen.headers),
    );
    expect(page.hybrid).toBe(false);
    expect(page.items.find((i) => i.itemId === w.singleItemId)).toMatchObject({
      statement: expect.stringMatching(/\S/),
      itemType: 'single',
      ownAnswer: expect.anything(),
      finalScore: 10,
      appealStatus: 'resolved',
      appealOutcome: 'changed',
      decidedBy: 'key_fix',
      changes: [{ before: 0, after: 10, cause: 'key_fix', at: expect.any(String) }],
    });
    const keyMails = (
      await t.database.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, w.carmen.email))
    ).filter((m) => m.template === 'score-changed');
    expect(keyMails.at(-1)?.params).toMatchObject({ before: '0', after: '10', cause: 'key_fix' });
    const fixed = await t.database.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.action, 'review.key_fixed'));
    expect(fixed).toHaveLength(1);
  });
});

describe('the exam staff', () => {
  it('see progress, remind the reviewers who lag, and move open work to another grader', async () => {
    const base = onlineBase();
    const progress = ok<{
      questions: { itemId: string; total: number; marked: number }[];
      reviewers: { teacherId: string; assigned: number; open: number }[];
    }>(await w.call('GET', `${base}/progress`, w.staff.headers));
    expect(progress.questions).toEqual([
      expect.objectContaining({ itemId: w.openItemId, total: 3, marked: 0 }),
    ]);
    expect(progress.reviewers.find((r) => r.teacherId === w.r1.id)).toMatchObject({
      assigned: 3,
      open: 3,
    });
    expect((await w.call('GET', `${base}/progress`, w.r1.headers)).statusCode).toBe(403);

    const reminded = ok<{ sent: { teacherId: string; open: number }[] }>(
      await w.call('POST', `${base}/reminders`, w.staff.headers, { teacherIds: [w.r1.id] }),
    );
    expect(reminded.sent).toEqual([{ teacherId: w.r1.id, open: 3, mediationsOpen: 0 }]);
    const [mail] = await t.database.db
      .select()
      .from(mailOutbox)
      .where(and(eq(mailOutbox.toAddress, w.r1.email), eq(mailOutbox.template, 'review-reminder')));
    expect(mail?.params).toMatchObject({ open: '3', mediations: '0' });

    // r1 cannot mark: their open marks go to r3, a new grader of the question.
    await w.call(
      'POST',
      `/resource-mgmt${w.phasePath(w.online.id)}/items/${w.openItemId}/teachers`,
      w.examAdmin.headers,
      {
        mediatorTeacher: w.mediator.id,
        gradingTeachers: [w.r3.id],
      },
    );
    const moved = ok<{ moved: number; unmoved: number }>(
      await w.call('POST', `${base}/reassignments`, w.staff.headers, {
        teacherId: w.r1.id,
        reason: 'Indisponibil',
      }),
    );
    expect(moved).toEqual({ moved: 3, unmoved: 0 });
    expect(ok<ReviewEntry[]>(await list(`${base}/reviews`, w.r3))).toHaveLength(3);
    expect(ok<ReviewEntry[]>(await list(`${base}/reviews`, w.r1))).toEqual([]);
    const events = await t.database.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.action, 'review.reassigned'));
    expect(events).toHaveLength(3);
  });

  it('set a rubric whose ticked criteria must add up to the mark', async () => {
    const base = onlineBase();
    const url = `${base}/items/${w.openItemId}/rubric`;
    const tooMuch = await w.call('PUT', url, w.staff.headers, {
      criteria: [{ label: 'Tot', points: 11 }],
    });
    expect(detailsOf(tooMuch)).toEqual({ criteria: ['score_sum'] });
    const rubric = ok<{ criteria: { id: string; points: number }[] }>(
      await w.call('PUT', url, w.staff.headers, {
        criteria: [
          { label: 'Ecuația', points: 4 },
          { label: 'Soluția', points: 6 },
        ],
      }),
    );
    const [eq4, sol6] = rubric.criteria;
    expect((await w.call('GET', url, w.r3.headers)).json()).toEqual(rubric);
    const [entry] = ok<ReviewEntry[]>(await list(`${base}/reviews`, w.r3));
    const markUrl = `${base}/reviews/${entry?._id}`;
    const wrong = await w.call('PUT', markUrl, w.r3.headers, {
      reviewerScore: 5,
      criteria: [eq4?.id],
    });
    expect(detailsOf(wrong)).toEqual({ criteria: ['score_sum'] });
    const right = ok<ReviewEntry>(
      await w.call('PUT', markUrl, w.r3.headers, {
        reviewerScore: 10,
        criteria: [eq4?.id, sol6?.id],
      }),
    );
    expect(right.reviews.find((m) => m.isMine)?.criteria).toEqual([eq4?.id, sol6?.id]);
  });
});

describe('appeal mediation and committee decisions', () => {
  it('send appeal marks too far apart to a mediator new to the answer, whose mark decides', async () => {
    ok(
      await w.call('PUT', appealUrl(w.hybridTest.id, w.hybridItemId), w.carmen.headers, {
        reason: 'Punctul c este corect.',
      }),
    );
    const base = hybridBase();
    const appeal = ok<ContestationEntry[]>(await list(`${base}/appeals`, w.staff)).find(
      (x) => x.answerId === w.answerIds[w.carmen.id],
    );
    if (!appeal) throw new Error('no appeal');
    const assigned = (
      await t.database.db.select().from(reviewMarks).where(eq(reviewMarks.parentId, appeal._id))
    ).map((m) => signedOf(m.reviewerId));
    const url = `${base}/appeals/${appeal._id}`;
    ok(await w.call('PUT', url, assigned[0]?.headers ?? {}, { reviewerScore: 1 }));
    const split = ok<ContestationEntry>(
      await w.call('PUT', url, assigned[1]?.headers ?? {}, { reviewerScore: 9 }),
    );
    expect(split.appealInfo.status).toBe('needs_mediation');
    expect((await answerRow(w.carmen.id))?.score).toBe(3);
    // The question's mediator decided Carmen's first round: the exam's admins mediate instead.
    const waiting = await list(`${base}/appeals`, w.examAdmin, { type: 'NEEDS_MEDIATION_ITEMS' });
    const [seen] = ok<ContestationEntry[]>(waiting);
    expect([seen?.appealInfo.grade1, seen?.appealInfo.grade2].sort()).toEqual([1, 9]);
    expect(seen?.canMediate).toBe(true);
    // An appeal reviewer does not mediate.
    expect(
      (await w.call('PUT', `${url}/mediations`, assigned[0]?.headers ?? {}, { reviewerScore: 5 }))
        .statusCode,
    ).toBe(403);
    const done = ok<ContestationEntry>(
      await w.call('PUT', `${url}/mediations`, w.examAdmin.headers, { reviewerScore: 5 }),
    );
    expect(done.appealInfo).toMatchObject({
      status: 'resolved',
      finalScore: 5,
      outcome: 'changed',
    });
    const a = await answerRow(w.carmen.id);
    expect([a?.score, a?.scoreOrigin]).toEqual([5, 'appealed']);
    const again = await w.call('PUT', `${url}/mediations`, w.examAdmin.headers, {
      reviewerScore: 4,
    });
    expect(codeOf(again)).toBe('REVIEW_CLOSED');
  });

  it('let the exam admins close a committee appeal with the score kept', async () => {
    ok(
      await w.call('PUT', appealUrl(w.onlineTest.id, w.singleItemId), w.ana.headers, {
        reason: 'Verificați, vă rog.',
      }),
    );
    const base = onlineBase();
    const [appeal] = ok<ContestationEntry[]>(
      await list(`${base}/appeals`, w.examAdmin, {
        type: 'COMMITTEE_ITEMS',
        where: { status: 'pending' },
      }),
    );
    if (!appeal) throw new Error('no appeal');
    const url = `${base}/appeals/${appeal._id}/decision`;
    expect((await w.call('PUT', url, w.staff.headers, { note: 'Barem corect' })).statusCode).toBe(
      403,
    );
    const empty = await w.call('PUT', url, w.examAdmin.headers, { note: '' });
    expect(empty.statusCode).toBe(400);
    const closed = ok<ContestationEntry>(
      await w.call('PUT', url, w.examAdmin.headers, {
        note: 'Barem corect',
        version: appeal.version,
      }),
    );
    expect(closed.appealInfo).toMatchObject({
      status: 'resolved',
      outcome: 'kept',
      finalScore: 10,
    });
    const page = ok<StudentResult>(
      await w.call('GET', `/test-review/tests/${w.onlineTest.id}/items`, w.ana.headers),
    );
    expect(page.items.find((i) => i.itemId === w.singleItemId)).toMatchObject({
      finalScore: 10,
      appealStatus: 'resolved',
      appealOutcome: 'kept',
      canChallenge: false,
    });
  });
});

describe('the marking scope', () => {
  it('counts what people mark: every question of a hybrid phase, only the open ones online', async () => {
    const scope = async (base: string, who: Signed) =>
      ok<{ questionsToMark: number }>(await w.call('GET', `${base}/marking-scope`, who.headers));
    // The online test has a single-choice item (scored from its key) and an open one.
    expect(await scope(onlineBase(), w.examAdmin)).toEqual({ questionsToMark: 1 });
    expect(await scope(hybridBase(), w.examAdmin)).toEqual({ questionsToMark: 1 });
    // A reviewer of the phase may ask too (the marking panel is theirs as well); a student not.
    expect(await scope(hybridBase(), w.r1)).toEqual({ questionsToMark: 1 });
    const refused = await w.call('GET', `${hybridBase()}/marking-scope`, w.ana.headers);
    expect([403, 404]).toContain(refused.statusCode);
  });
});
