import { eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MarkerPhase, ReviewEntry, ReviewScope } from '../../../shared/schemas/reviews.js';
import { reviewEntries, reviewMarks, users } from '../../db/schema.js';
import { buildTestApp, type TestApp } from '../../test/app.js';
import { fixedClock, type Signed } from '../../test/competition.js';
import { reviewWorld } from './reviews.fixtures.js';

// Where a teacher marks: a grading teacher or mediator who is no one in the competition (not
// its admin, staff or coordinator) finds the phases they mark in, with their open work, and
// reaches the marking lists of those phases and nothing else; a teacher with no marking gets
// an empty list, a student is refused.

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

const ok = <T>(res: LightMyRequestResponse): T => {
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as T;
};
const myPhases = async (who: Signed) =>
  ok<MarkerPhase[]>(await w.call('GET', '/test-review/my-phases', who.headers));
const hybridBase = () => w.reviewBase(w.hybrid.id);
const signedOf = (id: string) =>
  [w.r1, w.r2, w.r3, w.r4, w.mediator].find((p) => p.id === id) as Signed;

/** The entries each teacher marks in the hybrid phase, from the database. */
async function assignments() {
  const rows = await t.database.db
    .select({
      entry: reviewEntries.id,
      reviewer: reviewMarks.reviewerId,
      student: reviewEntries.studentId,
    })
    .from(reviewMarks)
    .innerJoin(reviewEntries, eq(reviewEntries.id, reviewMarks.parentId));
  const of = (teacherId: string) =>
    rows.filter((r) => r.reviewer === teacherId).map((r) => r.entry);
  return { rows, of };
}

describe('GET /test-review/my-phases', () => {
  it('is empty for a teacher who marks nothing and refused to a student', async () => {
    expect(await myPhases(w.otherTeacher)).toEqual([]);
    expect(await myPhases(w.r1)).toEqual([]);
    const student = await w.call('GET', '/test-review/my-phases', w.ana.headers);
    expect(student.statusCode).toBe(403);
    expect((await w.call('GET', '/test-review/my-phases', {})).statusCode).toBe(401);
  });

  it('lists a phase to its grading teachers and mediator once assigned, before the start', async () => {
    const res = await w.call(
      'POST',
      `/resource-mgmt${w.phasePath(w.hybrid.id)}/items/${w.hybridItemId}/teachers`,
      w.examAdmin.headers,
      { mediatorTeacher: w.mediator.id, gradingTeachers: [w.r1.id, w.r2.id, w.r3.id] },
    );
    expect(res.statusCode, res.body).toBe(200);
    const [phase] = await myPhases(w.r1);
    expect(phase).toMatchObject({
      examId: w.exam.id,
      editionId: w.edition.id,
      phaseId: w.hybrid.id,
      phaseName: w.hybrid.name,
      phaseType: 'hybrid',
      reviewStarted: false,
      roles: ['reviewer'],
      open: { reviews: 0, mediations: 0, appeals: 0, appealMediations: 0 },
    });
    expect((await myPhases(w.mediator)).map((p) => [p.phaseId, p.roles])).toEqual([
      [w.hybrid.id, ['mediator']],
    ]);
    // The online phase's questions are not theirs: it is not listed.
    expect((await myPhases(w.r1)).map((p) => p.phaseId)).toEqual([w.hybrid.id]);
    expect(await myPhases(w.otherTeacher)).toEqual([]);
  });

  it("counts each teacher's own open marks, and the mediations waiting for the mediator", async () => {
    const started = await w.call(
      'PUT',
      `/exam-mgmt${w.phasePath(w.hybrid.id)}/review`,
      w.examAdmin.headers,
    );
    expect(started.statusCode, started.body).toBe(200);
    const { of } = await assignments();
    for (const r of [w.r1, w.r2, w.r3]) {
      const [phase] = await myPhases(r);
      expect(phase?.reviewStarted).toBe(true);
      expect(phase?.open.reviews).toBe(of(r.id).length);
    }
    // Two marks far apart on one entry: its reviewers owe one mark less, the mediator has one.
    const { rows } = await assignments();
    const entryId = rows.find((r) => r.student === w.carmen.id)?.entry ?? '';
    const [x, y] = rows.filter((r) => r.entry === entryId).map((r) => signedOf(r.reviewer));
    if (!x || !y) throw new Error('reviewers');
    const url = `${hybridBase()}/reviews/${entryId}`;
    ok(await w.call('PUT', url, x.headers, { reviewerScore: 1 }));
    ok(await w.call('PUT', url, y.headers, { reviewerScore: 9 }));
    expect((await myPhases(x))[0]?.open.reviews).toBe(of(x.id).length - 1);
    expect((await myPhases(w.mediator))[0]?.open).toEqual({
      reviews: 0,
      mediations: 1,
      appeals: 0,
      appealMediations: 0,
    });
  });

  it('does not count a mark its teacher is barred from since assignment', async () => {
    // Bogdan names one of his markers as his coordinator after the marks were drawn: that
    // marker may no longer mark his answer (saving it is refused), so it is not open work.
    const { rows } = await assignments();
    const entryId = rows.find((r) => r.student === w.bogdan.id)?.entry ?? '';
    const x = signedOf(rows.find((r) => r.entry === entryId)?.reviewer ?? '');
    const before = (await myPhases(x))[0]?.open.reviews ?? 0;
    expect(before).toBeGreaterThan(0);
    await t.database.db.update(users).set({ teacherRef: x.id }).where(eq(users.id, w.bogdan.id));
    try {
      expect((await myPhases(x))[0]?.open.reviews).toBe(before - 1);
      const refused = await w.call('PUT', `${hybridBase()}/reviews/${entryId}`, x.headers, {
        reviewerScore: 5,
      });
      expect((refused.json() as { error?: { code?: string } }).error?.code).toBe(
        'CONFLICT_OF_INTEREST',
      );
    } finally {
      await t.database.db
        .update(users)
        .set({ teacherRef: w.otherTeacher.id })
        .where(eq(users.id, w.bogdan.id));
    }
    expect((await myPhases(x))[0]?.open.reviews).toBe(before);
  });

  it('leads a reviewer who is no one in the competition to their own entries only', async () => {
    const { of } = await assignments();
    const base = hybridBase();
    const listed = ok<ReviewEntry[]>(
      await w.call(
        'GET',
        `${base}/reviews?filter=${encodeURIComponent('{"limit":50}')}`,
        w.r1.headers,
      ),
    );
    expect(listed.map((e) => e._id).sort()).toEqual(of(w.r1.id).sort());
    expect(listed.every((e) => e.myRole === 'reviewer' && e.studentId === null)).toBe(true);
    // The marking screens' header: the phase's names, and no staff tools for them.
    const scope = ok<ReviewScope>(await w.call('GET', `${base}/scope`, w.r1.headers));
    expect(scope).toMatchObject({
      phaseId: w.hybrid.id,
      phaseName: w.hybrid.name,
      examId: w.exam.id,
      seesWholePhase: false,
      managesExam: false,
    });
    expect(ok<ReviewScope>(await w.call('GET', `${base}/scope`, w.staff.headers))).toMatchObject({
      seesWholePhase: true,
    });
    // Not the progress (staff), not a phase they do not mark in.
    expect((await w.call('GET', `${base}/progress`, w.r1.headers)).statusCode).toBe(403);
    const online = w.reviewBase(w.online.id);
    expect((await w.call('GET', `${online}/scope`, w.r1.headers)).statusCode).toBe(404);
    expect((await w.call('GET', `${online}/reviews`, w.r1.headers)).statusCode).toBe(404);
    expect((await w.call('GET', `${base}/scope`, w.otherTeacher.headers)).statusCode).toBe(404);
  });

  it("counts an appeal's marks for the teachers who re-mark it", async () => {
    const { rows } = await assignments();
    const base = hybridBase();
    // Bogdan's entry: both marks close, final, then appealed inside the window.
    const entry = rows.find((r) => r.student === w.bogdan.id)?.entry ?? '';
    const first = rows.filter((r) => r.entry === entry).map((r) => r.reviewer);
    for (const id of first) {
      ok(
        await w.call('PUT', `${base}/reviews/${entry}`, signedOf(id).headers, { reviewerScore: 5 }),
      );
    }
    await w.setPhase(w.hybrid.id, {
      appealStartDate: new Date(clock.now().getTime() - 3_600_000),
      appealEndDate: new Date(clock.now().getTime() + 3_600_000),
    });
    ok(
      await w.call(
        'PUT',
        `/test-review/tests/${w.hybridTest.id}/items/${w.hybridItemId}/appeal`,
        w.bogdan.headers,
        { reason: 'Am scris toată demonstrația.' },
      ),
    );
    // The one grading teacher who did not mark it re-marks it.
    const other = [w.r1, w.r2, w.r3].find((r) => !first.includes(r.id));
    if (!other) throw new Error('no other teacher');
    expect((await myPhases(other))[0]?.open.appeals).toBe(1);
    for (const id of first) expect((await myPhases(signedOf(id)))[0]?.open.appeals).toBe(0);
  });
});
