import { and, eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  auditEvents,
  questionReviewers,
  questions,
  reviewEntries,
  reviewMarks,
} from '../../db/schema.js';
import { buildTestApp, type TestApp } from '../../test/app.js';
import { fixedClock, type Signed } from '../../test/competition.js';
import { reviewWorld } from '../reviews/reviews.fixtures.js';

// People who leave (issue 31): a teacher with marking work still open cannot be deleted or
// anonymised (USER_HAS_RESULTS, with how much is open); once they go, they are out of every
// question's pool, so no later mark, mediation or appeal is assigned to them.

let t: TestApp;
let w: Awaited<ReturnType<typeof reviewWorld>>;
let admin: Signed;

const errorOf = (res: LightMyRequestResponse) =>
  (res.json() as { error?: { code?: string; details?: unknown } }).error;
const remove = (who: Signed) => w.call('DELETE', `/user-mgmt/teachers/${who.id}`, admin.headers);
const anonymise = (who: Signed) =>
  w.call('POST', `/user-mgmt/users/${who.id}/anonymise`, admin.headers);
const pool = async () => {
  const [q] = await t.database.db
    .select({ mediator: questions.mediatorTeacherId })
    .from(questions)
    .where(eq(questions.id, w.hybridItemId));
  const graders = await t.database.db
    .select({ id: questionReviewers.teacherId })
    .from(questionReviewers)
    .where(eq(questionReviewers.questionId, w.hybridItemId));
  return { mediator: q?.mediator ?? null, graders: graders.map((g) => g.id).sort() };
};
const openMarksOf = async (teacherId: string) =>
  (
    await t.database.db.select().from(reviewMarks).where(eq(reviewMarks.reviewerId, teacherId))
  ).filter((m) => m.score === null).length;

beforeAll(async () => {
  t = await buildTestApp({ clock: fixedClock() });
  w = await reviewWorld(t);
  const u = await t.createUser({ type: 'admin' });
  admin = { id: u.id, email: u.email, headers: await t.login(u.email, u.password) };
  const teachers = await w.call(
    'POST',
    `/resource-mgmt${w.phasePath(w.hybrid.id)}/items/${w.hybridItemId}/teachers`,
    w.examAdmin.headers,
    { mediatorTeacher: w.mediator.id, gradingTeachers: [w.r1.id, w.r2.id, w.r3.id] },
  );
  expect(teachers.statusCode, teachers.body).toBe(200);
  const started = await w.call(
    'PUT',
    `/exam-mgmt${w.phasePath(w.hybrid.id)}/review`,
    w.examAdmin.headers,
  );
  expect(started.statusCode, started.body).toBe(200);
}, 300_000);
afterAll(async () => {
  await t?.close();
});

describe('a teacher who leaves (issue 31)', () => {
  it('is refused with USER_HAS_RESULTS and how many marks are open, changing nothing', async () => {
    const open = await openMarksOf(w.r1.id);
    expect(open).toBeGreaterThan(0);
    for (const res of [await remove(w.r1), await anonymise(w.r1)]) {
      expect(res.statusCode, res.body).toBe(409);
      expect(errorOf(res)).toMatchObject({
        code: 'USER_HAS_RESULTS',
        details: { reason: 'open_marking_work', openMarks: open, pendingMediations: 0 },
      });
    }
    expect((await pool()).graders).toContain(w.r1.id);
    expect(await openMarksOf(w.r1.id)).toBe(open);
  });

  it('goes once their marks were handed on, and leaves every question pool', async () => {
    const moved = await w.call(
      'POST',
      `${w.reviewBase(w.hybrid.id)}/reassignments`,
      w.staff.headers,
      { teacherId: w.r1.id },
    );
    expect(moved.statusCode, moved.body).toBe(200);
    expect(await openMarksOf(w.r1.id)).toBe(0);
    const removed = await remove(w.r1);
    expect(removed.statusCode, removed.body).toBe(204);
    expect(await pool()).toEqual({
      mediator: w.mediator.id,
      graders: [w.r2.id, w.r3.id].sort(),
    });
    const [event] = await t.database.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.entityId, w.hybridItemId), eq(auditEvents.reason, 'user.leave')));
    expect(event).toMatchObject({ action: 'question.teachers.remove', actorId: admin.id });
  });

  it("waits for a mediator's pending mediations; once anonymised, they mediate nothing more", async () => {
    const [entry] = await t.database.db
      .select()
      .from(reviewEntries)
      .where(eq(reviewEntries.answerId, w.answerIds[w.bogdan.id] ?? ''));
    const url = `${w.reviewBase(w.hybrid.id)}/reviews/${entry?.id}`;
    for (const [who, score] of [
      [w.r2, 0],
      [w.r3, 10],
    ] as const) {
      const marked = await w.call('PUT', url, who.headers, { reviewerScore: score });
      expect(marked.statusCode, marked.body).toBe(200);
    }
    const refused = await anonymise(w.mediator);
    expect(refused.statusCode, refused.body).toBe(409);
    expect(errorOf(refused)).toMatchObject({
      code: 'USER_HAS_RESULTS',
      details: { reason: 'open_marking_work', openMarks: 0, pendingMediations: 1 },
    });
    expect((await pool()).mediator).toBe(w.mediator.id);

    const mediated = await w.call('PUT', `${url}/mediations`, w.mediator.headers, {
      reviewerScore: 5,
    });
    expect(mediated.statusCode, mediated.body).toBe(200);
    const done = await anonymise(w.mediator);
    expect(done.statusCode, done.body).toBe(200);
    expect((await pool()).mediator).toBeNull();
    // The mediation they gave stays, with their id.
    const [after] = await t.database.db
      .select()
      .from(reviewEntries)
      .where(eq(reviewEntries.id, entry?.id ?? ''));
    expect(after).toMatchObject({ mediatorId: w.mediator.id, mediatorScore: 5 });
  });
});
