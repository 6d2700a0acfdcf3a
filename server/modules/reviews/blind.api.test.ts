import { and, eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  AdminDecisionPhase,
  AppealDetail,
  ContestationEntry,
  MarkerPhase,
  ReviewDetail,
  ReviewEntry,
} from '../../../shared/schemas/reviews.js';
import {
  answers,
  files,
  mailOutbox,
  reviewAppeals,
  reviewEntries,
  reviewMarks,
  users,
} from '../../db/schema.js';
import { createStorage } from '../../lib/files/storage.js';
import { buildTestApp, type TestApp } from '../../test/app.js';
import { fixedClock, type Signed } from '../../test/competition.js';
import { reviewWorld } from './reviews.fixtures.js';

// "Blind means blind": nobody marks, mediates or decides the answer of their own student (staff
// and admins included, reassignments too); an appeal is mediated by someone who neither marked
// nor mediated the answer before, else by the exam's admins; a marker's zip tells nothing of
// when the pages came; reminders to a reviewer go at most once per phase in 12 hours.

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
const base = () => w.reviewBase(w.hybrid.id);
const startReview = (phaseId: string) =>
  w.call('PUT', `/exam-mgmt${w.phasePath(phaseId)}/review`, w.examAdmin.headers);
const setTeachers = (phaseId: string, itemId: string, mediator: string, graders: string[]) =>
  w.call(
    'POST',
    `/resource-mgmt${w.phasePath(phaseId)}/items/${itemId}/teachers`,
    w.examAdmin.headers,
    { mediatorTeacher: mediator, gradingTeachers: graders },
  );
const list = (url: string, who: Signed, filter: object = {}) =>
  w.call('GET', `${url}?filter=${encodeURIComponent(JSON.stringify(filter))}`, who.headers);
const signedOf = (id: string) => {
  const all = [w.r1, w.r2, w.r3, w.r4, w.coordinator, w.mediator, w.examAdmin, w.staff];
  const found = all.find((p) => p.id === id);
  if (!found) throw new Error(`nobody signed in as ${id}`);
  return found;
};
/** The student's coordinating teacher, as when they change it during the marking. */
const setCoordinator = (studentId: string, teacherId: string) =>
  t.database.db.update(users).set({ teacherRef: teacherId }).where(eq(users.id, studentId));

/**
 * The mediations waiting for someone in the hybrid phase, as each place shows them: the
 * NEEDS_MEDIATION_ITEMS list, its count, and the badge of My phases.
 */
async function mediationsOf(who: Signed, kind: 'reviews' | 'appeals') {
  const type = 'NEEDS_MEDIATION_ITEMS';
  const listed = ok<unknown[]>(await list(`${base()}/${kind}`, who, { type, limit: 100 })).length;
  const where = encodeURIComponent(JSON.stringify({ type }));
  const counted = ok<{ count: number }>(
    await w.call('GET', `${base()}/${kind}/count?where=${where}`, who.headers),
  ).count;
  const phases = ok<MarkerPhase[]>(await w.call('GET', '/test-review/my-phases', who.headers));
  const open = phases.find((p) => p.phaseId === w.hybrid.id)?.open;
  const badge = (kind === 'reviews' ? open?.mediations : open?.appealMediations) ?? 0;
  return { listed, counted, badge };
}

const entryOf = async (studentId: string) => {
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

/** Every local header and central directory entry of a zip: name and MS-DOS date and time. */
function zipHeaders(zip: Buffer) {
  const out: { kind: 'local' | 'central'; name: string; time: number; date: number }[] = [];
  for (let i = 0; i + 4 <= zip.length; i++) {
    const sig = zip.readUInt32LE(i);
    if (sig === 0x04034b50) {
      const n = zip.readUInt16LE(i + 26);
      const name = zip.subarray(i + 30, i + 30 + n).toString('utf8');
      out.push({
        kind: 'local',
        name,
        time: zip.readUInt16LE(i + 10),
        date: zip.readUInt16LE(i + 12),
      });
    } else if (sig === 0x02014b50) {
      const n = zip.readUInt16LE(i + 28);
      const name = zip.subarray(i + 46, i + 46 + n).toString('utf8');
      out.push({
        kind: 'central',
        name,
        time: zip.readUInt16LE(i + 12),
        date: zip.readUInt16LE(i + 14),
      });
    }
  }
  return out;
}
/** 1980-01-01 00:00 in MS-DOS fields: day 1, month 1, year 1980 + 0. */
const DOS_1980 = { time: 0, date: (1 << 5) | 1 };

describe('the conflict rule at the start of review', () => {
  it("never gives a student's answer to their coordinating teacher, refusing when too few are left", async () => {
    const item = w.hybridItemId;
    // Ana's coordinator and one other grader: Ana's answer would have one reviewer free of conflict.
    ok(await setTeachers(w.hybrid.id, item, w.mediator.id, [w.coordinator.id, w.r1.id]));
    const refused = await startReview(w.hybrid.id);
    expect(refused.statusCode, refused.body).toBe(409);
    expect(codeOf(refused)).toBe('INSUFFICIENT_TEACHERS_FOR_TEST_ITEMS');
    expect(detailsOf(refused)).toEqual([{ itemId: item, field: 'gradingTeachers' }]);
    expect(await t.database.db.select().from(reviewEntries)).toHaveLength(0);

    ok(
      await setTeachers(w.hybrid.id, item, w.mediator.id, [
        w.coordinator.id,
        w.r1.id,
        w.r2.id,
        w.r3.id,
        w.r4.id,
      ]),
    );
    ok(await startReview(w.hybrid.id));
    const { reviewers } = await entryOf(w.ana.id);
    expect(reviewers).toHaveLength(2);
    expect(reviewers).not.toContain(w.coordinator.id);
  });
});

describe('reminders to reviewers', () => {
  it('go to a reviewer at most once per phase in 12 hours; the others are listed with when', async () => {
    const url = `${base()}/reminders`;
    const { reviewers } = await entryOf(w.bogdan.id);
    const teacherId = reviewers[0] ?? '';
    const mailsTo = async () =>
      (
        await t.database.db
          .select()
          .from(mailOutbox)
          .where(
            and(
              eq(mailOutbox.toAddress, signedOf(teacherId).email),
              eq(mailOutbox.template, 'review-reminder'),
            ),
          )
      ).length;
    const first = ok<{ sent: { teacherId: string }[]; skipped: unknown[] }>(
      await w.call('POST', url, w.staff.headers, { teacherIds: [teacherId] }),
    );
    expect(first.sent.map((s) => s.teacherId)).toEqual([teacherId]);
    expect(first.skipped).toEqual([]);
    expect(await mailsTo()).toBe(1);

    // At once again, and for everyone: this reviewer is skipped, the mail not sent twice.
    const again = ok<{ sent: { teacherId: string }[]; skipped: unknown[] }>(
      await w.call('POST', url, w.staff.headers, {}),
    );
    expect(again.sent.map((s) => s.teacherId)).not.toContain(teacherId);
    expect(again.skipped).toContainEqual({
      teacherId,
      retryAfter: new Date(clock.now().getTime() + 12 * 3600_000).toISOString(),
    });
    expect(await mailsTo()).toBe(1);

    // Twelve hours on, the next reminder goes.
    const now = clock.now().toISOString();
    clock.set(new Date(clock.now().getTime() + 12 * 3600_000).toISOString());
    const later = ok<{ sent: { teacherId: string }[] }>(
      await w.call('POST', url, w.staff.headers, { teacherIds: [teacherId] }),
    );
    expect(later.sent.map((s) => s.teacherId)).toEqual([teacherId]);
    expect(await mailsTo()).toBe(2);
    clock.set(now);
  });
});

describe('reassigning open marks', () => {
  it('refuses a named teacher who coordinates the student, and never picks one by itself', async () => {
    const { row, reviewers } = await entryOf(w.ana.id);
    const from = reviewers[0] ?? '';
    const url = `${base()}/reassignments`;
    const named = await w.call('POST', url, w.staff.headers, {
      teacherId: from,
      itemId: w.hybridItemId,
      toTeacherId: w.coordinator.id,
    });
    expect(named.statusCode, named.body).toBe(400);
    expect(detailsOf(named)).toEqual({ toTeacherId: ['conflict'] });
    expect((await entryOf(w.ana.id)).reviewers).toEqual(reviewers);

    // Only Ana's coordinator is left to take it: her mark stays, counted as unmoved.
    const others = [w.r1.id, w.r2.id, w.r3.id, w.r4.id].filter((id) => !reviewers.includes(id));
    const teachersUrl = `/resource-mgmt${w.phasePath(w.hybrid.id)}/items/${w.hybridItemId}/teachers`;
    const body = { mediatorTeacher: null, gradingTeachers: others };
    ok(await w.call('DELETE', teachersUrl, w.examAdmin.headers, body));
    const auto = ok<{ moved: number; unmoved: number }>(
      await w.call('POST', url, w.staff.headers, { teacherId: from, itemId: w.hybridItemId }),
    );
    expect(auto.unmoved).toBeGreaterThanOrEqual(1);
    const after = await entryOf(w.ana.id);
    expect(after.row.id).toBe(row.id);
    expect(after.reviewers).toEqual(reviewers);
    expect(after.reviewers).not.toContain(w.coordinator.id);
    ok(await w.call('POST', teachersUrl, w.examAdmin.headers, body));
  });
});

describe('a marker who coordinates the student', () => {
  it('may not mark the answer, even when assigned before', async () => {
    const { row, reviewers } = await entryOf(w.bogdan.id);
    const [p, q] = reviewers.map(signedOf);
    if (!p || !q) throw new Error('reviewers');
    const url = `${base()}/reviews/${row.id}`;
    // Bogdan names p his coordinating teacher after the assignment.
    await setCoordinator(w.bogdan.id, p.id);
    const refused = await w.call('PUT', url, p.headers, { reviewerScore: 6 });
    expect(refused.statusCode, refused.body).toBe(403);
    expect(codeOf(refused)).toBe('CONFLICT_OF_INTEREST');
    const [mark] = await t.database.db
      .select()
      .from(reviewMarks)
      .where(and(eq(reviewMarks.parentId, row.id), eq(reviewMarks.reviewerId, p.id)));
    expect(mark?.score).toBeNull();
    await setCoordinator(w.bogdan.id, w.otherTeacher.id);
    ok(await w.call('PUT', url, p.headers, { reviewerScore: 6 }));
  });
});

describe("a marker's zip of the pages", () => {
  it('carries no upload time: every entry dated 1980-01-01, the archive named by the code', async () => {
    const { row, reviewers } = await entryOf(w.carmen.id);
    const res = await w.call(
      'GET',
      `${base()}/reviews/${row.id}/answer`,
      signedOf(reviewers[0] ?? '').headers,
    );
    expect(res.statusCode).toBe(200);
    const disposition = String(res.headers['content-disposition']);
    expect(disposition).toContain(`response_${row.code}.zip`);
    expect(disposition).not.toContain(row.answerId);
    const headers = zipHeaders(res.rawPayload);
    expect(headers.map((h) => [h.kind, h.name])).toEqual([
      ['local', 'page-01.png'],
      ['central', 'page-01.png'],
    ]);
    for (const h of headers) expect({ time: h.time, date: h.date }).toEqual(DOS_1980);
  });
});

describe('an appeal whose re-marks differ too much', () => {
  it('is not mediated by who mediated the answer first; the exam admins decide instead', async () => {
    // Carmen's first marks 2 and 8 go to the question's mediator, who decides 5.
    const { row, reviewers } = await entryOf(w.carmen.id);
    const entryUrl = `${base()}/reviews/${row.id}`;
    ok(await w.call('PUT', entryUrl, signedOf(reviewers[0] ?? '').headers, { reviewerScore: 2 }));
    ok(await w.call('PUT', entryUrl, signedOf(reviewers[1] ?? '').headers, { reviewerScore: 8 }));
    // While the mediator coordinates Carmen, the entry is not theirs: no list, count or badge has it.
    await setCoordinator(w.carmen.id, w.mediator.id);
    expect(await mediationsOf(w.mediator, 'reviews')).toEqual({ listed: 0, counted: 0, badge: 0 });
    await setCoordinator(w.carmen.id, w.otherTeacher.id);
    expect(await mediationsOf(w.mediator, 'reviews')).toEqual({ listed: 1, counted: 1, badge: 1 });
    ok(await w.call('PUT', `${entryUrl}/mediations`, w.mediator.headers, { reviewerScore: 5 }));

    await w.setPhase(w.hybrid.id, {
      appealStartDate: new Date('2026-11-23T09:00:00Z'),
      appealEndDate: new Date('2026-11-23T12:00:00Z'),
    });
    ok(
      await w.call(
        'PUT',
        `/test-review/tests/${w.hybridTest.id}/items/${w.hybridItemId}/appeal`,
        w.carmen.headers,
        { reason: 'Punctul c este corect.' },
      ),
    );
    const [appeal] = await t.database.db
      .select()
      .from(reviewAppeals)
      .where(eq(reviewAppeals.entryId, row.id));
    if (!appeal) throw new Error('no appeal');
    const remarkers = (
      await t.database.db.select().from(reviewMarks).where(eq(reviewMarks.parentId, appeal.id))
    ).map((m) => m.reviewerId);
    expect(remarkers).toHaveLength(2);
    for (const id of remarkers) expect([...reviewers, w.mediator.id]).not.toContain(id);
    const url = `${base()}/appeals/${appeal.id}`;
    ok(await w.call('PUT', url, signedOf(remarkers[0] ?? '').headers, { reviewerScore: 1 }));
    const split = ok<ContestationEntry>(
      await w.call('PUT', url, signedOf(remarkers[1] ?? '').headers, { reviewerScore: 9 }),
    );
    expect(split.appealInfo.status).toBe('needs_mediation');

    // The question's mediator decided the first round: not theirs to mediate, nor to see.
    const byMediator = await w.call('PUT', `${url}/mediations`, w.mediator.headers, {
      reviewerScore: 9,
    });
    expect(byMediator.statusCode, byMediator.body).toBe(404);
    const waiting = ok<ContestationEntry[]>(
      await list(`${base()}/appeals`, w.mediator, { type: 'NEEDS_MEDIATION_ITEMS' }),
    );
    expect(waiting.some((a) => a._id === appeal.id && a.canMediate)).toBe(false);
    expect(await mediationsOf(w.mediator, 'appeals')).toEqual({ listed: 0, counted: 0, badge: 0 });

    // The exam's admins decide it; staff who do not manage the exam do not.
    const adminView = ok<ContestationEntry[]>(
      await list(`${base()}/appeals`, w.examAdmin, { type: 'NEEDS_MEDIATION_ITEMS' }),
    ).find((a) => a._id === appeal.id);
    expect(adminView?.canMediate).toBe(true);
    expect(
      (await w.call('PUT', `${url}/mediations`, w.staff.headers, { reviewerScore: 6 })).statusCode,
    ).toBe(403);
    // An admin who coordinates Carmen is refused with the conflict's own code.
    await setCoordinator(w.carmen.id, w.examAdmin.id);
    const conflicted = await w.call('PUT', `${url}/mediations`, w.examAdmin.headers, {
      reviewerScore: 6,
    });
    expect(conflicted.statusCode).toBe(403);
    expect(codeOf(conflicted)).toBe('CONFLICT_OF_INTEREST');
    await setCoordinator(w.carmen.id, w.otherTeacher.id);

    const done = ok<ContestationEntry>(
      await w.call('PUT', `${url}/mediations`, w.examAdmin.headers, { reviewerScore: 6 }),
    );
    expect(done.appealInfo).toMatchObject({ status: 'resolved', resultScore: 6, finalScore: 6 });
    const [decided] = await t.database.db
      .select()
      .from(reviewAppeals)
      .where(eq(reviewAppeals.id, appeal.id));
    expect(decided?.mediatorId).toBe(w.examAdmin.id);
  });
});

describe("a committee appeal of an exam admin's own student", () => {
  it('is decided by another admin', async () => {
    clock.set('2026-11-24T09:00:00.000Z');
    ok(await setTeachers(w.online.id, w.openItemId, w.mediator.id, [w.r1.id, w.r2.id]));
    ok(await startReview(w.online.id));
    await w.setPhase(w.online.id, {
      appealStartDate: new Date('2026-11-24T08:00:00Z'),
      appealEndDate: new Date('2026-11-25T12:00:00Z'),
    });
    ok(
      await w.call(
        'PUT',
        `/test-review/tests/${w.onlineTest.id}/items/${w.singleItemId}/appeal`,
        w.ana.headers,
        { reason: 'Varianta a este corectă.' },
      ),
    );
    const onlineBase = w.reviewBase(w.online.id);
    const [appeal] = ok<ContestationEntry[]>(
      await list(`${onlineBase}/appeals`, w.examAdmin, { type: 'COMMITTEE_ITEMS' }),
    );
    if (!appeal) throw new Error('no appeal');
    const url = `${onlineBase}/appeals/${appeal._id}/decision`;
    await setCoordinator(w.ana.id, w.examAdmin.id);
    const refused = await w.call('PUT', url, w.examAdmin.headers, { note: 'Barem corect' });
    expect(refused.statusCode, refused.body).toBe(403);
    expect(codeOf(refused)).toBe('CONFLICT_OF_INTEREST');
    const [still] = await t.database.db
      .select()
      .from(reviewAppeals)
      .where(eq(reviewAppeals.id, appeal._id));
    expect(still?.status).toBe('pending');
    const closed = ok<ContestationEntry>(
      await w.call('PUT', url, w.admin.headers, { note: 'Barem corect' }),
    );
    expect(closed.appealInfo.status).toBe('resolved');
    await setCoordinator(w.ana.id, w.coordinator.id);
    clock.set('2026-11-23T10:00:00.000Z');
  });
});

describe('the trail a marker reads', () => {
  it('names nobody and shows no one else’s work before their own mark', async () => {
    const { row, reviewers } = await entryOf(w.ana.id);
    const r = signedOf(reviewers[1] ?? '');
    const trail = ok<{ actorId: string | null; by: string }[]>(
      await w.call('GET', `${base()}/reviews/${row.id}/history`, r.headers),
    );
    expect(trail.every((e) => e.actorId === null)).toBe(true);
    expect(JSON.stringify(trail)).not.toContain(w.ana.id);
    expect(trail.every((e) => e.by === 'me' || e.by === 'system')).toBe(true);
    const listed = ok<ReviewEntry[]>(await list(`${base()}/reviews`, r));
    expect(JSON.stringify(listed)).not.toContain(w.ana.id);
  });
});

/** The millisecond a UUIDv7 was made at; undefined for any other version. */
const v7Time = (id: string) =>
  id[14] === '7' ? Number.parseInt(id.replace(/-/g, '').slice(0, 12), 16) : undefined;
const UUIDS = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

describe('the ids a marker is shown', () => {
  it('tell nothing of when the pages came, and still open them', async () => {
    const hybridAnswers = await t.database.db
      .select()
      .from(answers)
      .where(eq(answers.testId, w.hybridTest.id));
    const fileIds = hybridAnswers.flatMap((a) => a.fileIds);
    const realIds = [...hybridAnswers.map((a) => a.id), ...fileIds];
    const uploadTimes = new Set(realIds.map((id) => v7Time(id)));
    expect(uploadTimes.has(undefined)).toBe(false);

    const { row, reviewers } = await entryOf(w.carmen.id);
    const r = signedOf(reviewers[0] ?? '');
    const [appeal] = await t.database.db
      .select()
      .from(reviewAppeals)
      .where(eq(reviewAppeals.entryId, row.id));
    if (!appeal) throw new Error('no appeal');
    const [remarker] = await t.database.db
      .select()
      .from(reviewMarks)
      .where(eq(reviewMarks.parentId, appeal.id));
    const rr = signedOf(remarker?.reviewerId ?? '');
    const detail = ok<ReviewDetail>(await w.call('GET', `${base()}/reviews/${row.id}`, r.headers));
    const appealDetail = ok<AppealDetail>(
      await w.call('GET', `${base()}/appeals/${appeal.id}`, rr.headers),
    );
    const zip = await w.call('GET', `${base()}/reviews/${row.id}/answer`, r.headers);
    const payloads = [
      (await list(`${base()}/reviews`, r)).body,
      (await list(`${base()}/appeals`, rr)).body,
      JSON.stringify(detail),
      JSON.stringify(appealDetail),
      (await w.call('GET', `${base()}/reviews/${row.id}/history`, r.headers)).body,
      (await w.call('GET', `${base()}/appeals/${appeal.id}/history`, rr.headers)).body,
      String(zip.headers['content-disposition']),
    ].join('\n');
    const shown = payloads.match(UUIDS) ?? [];
    expect(shown.length).toBeGreaterThan(0);
    for (const id of shown) {
      expect(realIds).not.toContain(id);
      expect(uploadTimes.has(v7Time(id))).toBe(false);
    }
    // The entry and its appeal show the answer by the same stand-in.
    expect(appealDetail.entry.answerId).toBe(detail.entry.answerId);

    // The page opens by the id shown, and by no other.
    const [page] = detail.answer.pages;
    const url = (id: string) => `${base()}/reviews/${row.id}/files/${id}`;
    expect((await w.call('GET', url(page?._id ?? ''), r.headers)).statusCode).toBe(200);
    const realPage = hybridAnswers.find((a) => a.id === row.answerId)?.fileIds[0] ?? '';
    expect((await w.call('GET', url(realPage), r.headers)).statusCode).toBe(404);

    // Staff, who see the student, keep the ids themselves.
    const staffView = ok<ReviewDetail>(
      await w.call('GET', `${base()}/reviews/${row.id}`, w.examAdmin.headers),
    );
    expect(staffView.entry.answerId).toBe(row.answerId);
    expect(staffView.answer.pages.map((p) => p._id)).toEqual([realPage]);
  });
});

describe('a page stored before stripping existed', () => {
  it('reaches a marker without its metadata, alone and in the zip', async () => {
    const artist = 'Ana Popescu, Str. Lunga 5';
    const tagged = await sharp({
      create: { width: 8, height: 8, channels: 3, background: { r: 200, g: 10, b: 10 } },
    })
      .jpeg()
      .withExif({ IFD0: { Artist: artist } })
      .toBuffer();
    expect(tagged.includes(artist)).toBe(true);
    // Stored raw, as uploads did before: the row says nothing went through the stripping.
    const { row, reviewers } = await entryOf(w.bogdan.id);
    const [answer] = await t.database.db.select().from(answers).where(eq(answers.id, row.answerId));
    const [file] = await t.database.db
      .select()
      .from(files)
      .where(eq(files.id, answer?.fileIds[0] ?? ''));
    if (!file) throw new Error('no page');
    await createStorage(t.config).put(file.storageKey, tagged, 'image/jpeg');
    await t.database.db
      .update(files)
      .set({ mime: 'image/jpeg', size: tagged.length, strippedVersion: null })
      .where(eq(files.id, file.id));

    const r = signedOf(reviewers[0] ?? '');
    const detail = ok<ReviewDetail>(await w.call('GET', `${base()}/reviews/${row.id}`, r.headers));
    const page = await w.call(
      'GET',
      `${base()}/reviews/${row.id}/files/${detail.answer.pages[0]?._id}`,
      r.headers,
    );
    expect(page.statusCode).toBe(200);
    expect(page.rawPayload.includes(artist)).toBe(false);
    const meta = await sharp(page.rawPayload).metadata();
    expect(meta).toMatchObject({ format: 'jpeg', width: 8, height: 8 });
    expect(meta.exif).toBeUndefined();
    const zip = await w.call('GET', `${base()}/reviews/${row.id}/answer`, r.headers);
    expect(zip.statusCode).toBe(200);
    expect(zip.rawPayload.includes(artist)).toBe(false);
    expect(zipHeaders(zip.rawPayload).map((h) => h.name)).toContain('page-01.jpg');
  });
});

describe('an appeal fewer than two teachers are free to re-mark', () => {
  it('is shown waiting for them, named when closing is refused, and the exam admins decide it', async () => {
    // Bogdan's first marks 6 and 6 make 6; then only his two markers grade the question.
    const { row, reviewers } = await entryOf(w.bogdan.id);
    const second = signedOf(reviewers[1] ?? '');
    ok(await w.call('PUT', `${base()}/reviews/${row.id}`, second.headers, { reviewerScore: 6 }));
    const teachersUrl = `/resource-mgmt${w.phasePath(w.hybrid.id)}/items/${w.hybridItemId}/teachers`;
    const others = [w.coordinator.id, w.r1.id, w.r2.id, w.r3.id, w.r4.id].filter(
      (id) => !reviewers.includes(id),
    );
    const body = { mediatorTeacher: null, gradingTeachers: others };
    ok(await w.call('DELETE', teachersUrl, w.examAdmin.headers, body));
    ok(
      await w.call(
        'PUT',
        `/test-review/tests/${w.hybridTest.id}/items/${w.hybridItemId}/appeal`,
        w.bogdan.headers,
        { reason: 'Am rezolvat și punctul d.' },
      ),
    );
    const [appeal] = await t.database.db
      .select()
      .from(reviewAppeals)
      .where(eq(reviewAppeals.entryId, row.id));
    if (!appeal) throw new Error('no appeal');
    const waiting = ok<ContestationEntry[]>(
      await list(`${base()}/appeals`, w.examAdmin, { type: 'NEEDS_MEDIATION_ITEMS', limit: 100 }),
    ).find((a) => a._id === appeal.id);
    expect(waiting?.appealInfo).toMatchObject({ status: 'pending', waitsForMarkers: true });
    expect(waiting?.canMediate).toBe(true);
    // Not the question's mediator's: the admins decide what no re-marking can settle.
    expect(await mediationsOf(w.mediator, 'appeals')).toEqual({ listed: 0, counted: 0, badge: 0 });
    // The exam admins' menu counts it as waiting for them; nobody else's does.
    const decisions = async (who: Signed) =>
      ok<AdminDecisionPhase[]>(await w.call('GET', '/test-review/admin-decisions', who.headers));
    const waitingForAdmin = (await decisions(w.examAdmin)).find((p) => p.phaseId === w.hybrid.id);
    expect(waitingForAdmin).toMatchObject({
      examId: w.exam.id,
      editionId: w.edition.id,
      phaseName: w.hybrid.name,
    });
    const before = waitingForAdmin?.appeals ?? 0;
    expect(before).toBeGreaterThanOrEqual(1);
    expect(await decisions(w.mediator)).toEqual([]);
    expect(await decisions(w.staff)).toEqual([]);
    expect((await w.call('GET', '/test-review/admin-decisions', w.bogdan.headers)).statusCode).toBe(
      403,
    );

    const refused = await w.call(
      'PUT',
      `/exam-mgmt${w.phasePath(w.hybrid.id)}/finish`,
      w.examAdmin.headers,
      { lastPhase: true },
    );
    expect(refused.statusCode, refused.body).toBe(409);
    expect(codeOf(refused), refused.body).toBe('RESULTS_INCOMPLETE');
    expect(detailsOf(refused)).toMatchObject({
      appealsWithoutMarkers: 1,
      shortAppealIds: [appeal.id],
    });

    const url = `${base()}/appeals/${appeal.id}/mediations`;
    expect((await w.call('PUT', url, w.mediator.headers, { reviewerScore: 8 })).statusCode).toBe(
      404,
    );
    const decided = ok<ContestationEntry>(
      await w.call('PUT', url, w.examAdmin.headers, { reviewerScore: 8 }),
    );
    expect(decided.appealInfo).toMatchObject({
      status: 'resolved',
      resultScore: 8,
      finalScore: 8,
      waitsForMarkers: false,
    });
    const after = (await decisions(w.examAdmin)).find((p) => p.phaseId === w.hybrid.id);
    expect(after?.appeals ?? 0).toBe(before - 1);
    ok(await w.call('POST', teachersUrl, w.examAdmin.headers, body));
  });
});
