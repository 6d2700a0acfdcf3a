import { eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NotificationsPage } from '../../../shared/schemas/notifications.js';
import { makeEdition, makeEnrolment, makeExam } from '../../db/factories.js';
import { notifications, users } from '../../db/schema.js';
import { buildTestApp, type TestApp } from '../../test/app.js';
import { fixedClock, type Signed } from '../../test/competition.js';
import { examsKit } from '../exams/exams.fixtures.js';
import { reviewWorld } from '../reviews/reviews.fixtures.js';

// The bell end to end: the events that write notifications (the mails' own, enrolment, a test
// about to open, marking assigned, a phase's results), each person seeing only theirs,
// read and unread, and the refusals.
const clock = fixedClock('2026-11-22T12:00:00.000Z');
let t: TestApp;
let w: Awaited<ReturnType<typeof reviewWorld>>;
const NOTE = '/notification-service/notifications';

beforeAll(async () => {
  t = await buildTestApp({ clock });
  clock.set('2026-11-23T10:00:00.000Z');
  w = await reviewWorld(t);
  clock.set('2026-11-22T12:00:00.000Z');
}, 300_000);
afterAll(async () => {
  await t?.close();
});

const codeOf = (res: LightMyRequestResponse) =>
  (res.json() as { error?: { code?: string } }).error?.code;
const bell = async (who: Signed) => {
  const res = await w.call('GET', NOTE, who.headers);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as NotificationsPage;
};
const kinds = async (who: Signed) => (await bell(who)).items.map((n) => n.kind);

describe('the events', () => {
  it('tells a student once that a test opens within a day, linking the connection check', async () => {
    const first = await bell(w.ana);
    const soon = first.items.filter((n) => n.kind === 'test-soon');
    // The hybrid test opens at 08:00 on 23 November, 20 hours after the clock; the online
    // one of the same day she has already taken (the world was made on the day), so no word.
    expect(soon.map((n) => n.params.test)).toEqual([w.hybridTest.name]);
    expect(soon[0]).toMatchObject({ link: '/verificare-conexiune', read: false });
    expect(soon[0]?.params.start).toBe('2026-11-23T08:00:00.000Z');
    expect(soon[0]?.params.minutes).toBe(String(w.hybridTest.durationMinutes));
    expect(first.unread).toBe(1);
    const again = await bell(w.ana);
    expect(again.items.filter((n) => n.kind === 'test-soon')).toHaveLength(1);
    expect(again.unread).toBe(1);
    // A teacher has no tests to take.
    expect(await kinds(w.coordinator)).not.toContain('test-soon');
  });

  it('tells a student enrolled in an edition through the API', async () => {
    const exam = await makeExam(t.database.db, { grades: [5], adminTeacherIds: [w.examAdmin.id] });
    const edition = await makeEdition(t.database.db, { examId: exam.id });
    const res = await w.call(
      'POST',
      `/exam-mgmt/exams/${exam.id}/editions/${edition.id}/students`,
      w.examAdmin.headers,
      { students: [w.bogdan.id, w.ana.id] },
    );
    expect(res.statusCode, res.body).toBe(200);
    const enrolled = (await bell(w.bogdan)).items.find((n) => n.kind === 'enrolled');
    expect(enrolled).toMatchObject({ link: '/tests', params: { exam: exam.name } });
    expect(await kinds(w.carmen)).not.toContain('enrolled');
  });

  it('writes a notification with each system mail (an activation) and none with a reset', async () => {
    const teacher = await t.createUser({ type: 'teacher' });
    const student = await t.createUser({
      type: 'student',
      state: 'inactive',
      teacherRef: teacher.id,
    });
    const h = await t.login(teacher.email, teacher.password);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/user-mgmt/students/state',
      headers: h,
      payload: { students: [{ email: student.email, state: 'active' }] },
    });
    expect(res.statusCode, res.body).toBe(200);
    await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth-service/auth/password/forgot',
      payload: { email: student.email },
    });
    const rows = await t.database.db
      .select()
      .from(notifications)
      .where(eq(notifications.userId, student.id));
    expect(rows.map((r) => r.kind)).toEqual(['account-activated']);
    expect(rows[0]?.link).toBe('/');
  });

  it('tells each assigned marker, and a reminder mail notifies too, naming no student', async () => {
    await w.call(
      'POST',
      `/resource-mgmt${w.phasePath(w.hybrid.id)}/items/${w.hybridItemId}/teachers`,
      w.examAdmin.headers,
      { mediatorTeacher: w.mediator.id, gradingTeachers: [w.r1.id, w.r2.id] },
    );
    clock.set('2026-11-23T21:00:00.000Z');
    const started = await w.call(
      'PUT',
      `/exam-mgmt${w.phasePath(w.hybrid.id)}/review`,
      w.examAdmin.headers,
    );
    expect(started.statusCode, started.body).toBe(200);
    for (const r of [w.r1, w.r2]) {
      const page = await bell(r);
      const assigned = page.items.find((n) => n.kind === 'marking-assigned');
      expect(assigned).toMatchObject({
        link: `/examene/${w.exam.id}/editii/${w.edition.id}/phases/${w.hybrid.id}/corectare`,
        params: { phase: w.hybrid.name },
      });
      const text = JSON.stringify(page);
      for (const s of [w.ana, w.bogdan, w.carmen]) {
        expect(text).not.toContain(s.id);
        expect(text).not.toContain(s.email);
      }
    }
    expect(await kinds(w.mediator)).not.toContain('marking-assigned');
    const reminded = await w.call(
      'POST',
      `${w.reviewBase(w.hybrid.id)}/reminders`,
      w.examAdmin.headers,
      { teacherIds: [w.r1.id] },
    );
    expect(reminded.statusCode, reminded.body).toBe(200);
    const reminder = (await bell(w.r1)).items.find((n) => n.kind === 'review-reminder');
    expect(reminder?.params).toMatchObject({ phase: w.hybrid.name, mediations: '0' });
    expect(reminder?.link).toMatch(/^\/examene\/.*\/corectare$/);
  });
});

describe('results published', () => {
  it('tells each student of a phase when it closes, once', async () => {
    const kit = examsKit(t);
    const x = await kit.world();
    const last = await kit.phase(x.edition.id, '2026-12-01T08:00:00Z');
    const student = await t.createUser({ grade: 6 });
    const outsider = await t.createUser({ grade: 6 });
    await makeEnrolment(t.database.db, {
      editionId: x.edition.id,
      studentId: student.id,
      grade: 6,
      phaseIds: [last.id],
      result: 'rejected',
    });
    const url = `/exam-mgmt${x.editionUrl}/phases/${last.id}/finish`;
    for (let i = 0; i < 2; i++) {
      const res = await w.call('PUT', url, w.admin.headers, { lastPhase: true });
      expect(res.statusCode, res.body).toBe(200);
    }
    const rows = await t.database.db
      .select()
      .from(notifications)
      .where(eq(notifications.kind, 'results-published'));
    expect(rows.map((r) => r.userId)).toEqual([student.id]);
    expect(rows[0]).toMatchObject({ link: '/tests', params: { phase: last.name } });
    expect(rows.some((r) => r.userId === outsider.id)).toBe(false);
  });
});

describe('read and unread', () => {
  it('marks one read, then all; another person’s is not found and stays unread', async () => {
    const before = await bell(w.ana);
    const [one, two] = before.items;
    if (!one || !two) throw new Error('ana has notifications');
    const stranger = await w.call('POST', `${NOTE}/${one._id}/read`, w.bogdan.headers);
    expect(stranger.statusCode).toBe(404);
    expect(codeOf(stranger)).toBe('NOT_FOUND');
    expect((await bell(w.ana)).unread).toBe(before.unread);

    expect((await w.call('POST', `${NOTE}/${one._id}/read`, w.ana.headers)).json()).toEqual({
      marked: 1,
    });
    const after = await bell(w.ana);
    expect(after.unread).toBe(before.unread - 1);
    expect(after.items.find((n) => n._id === one._id)?.read).toBe(true);

    const bogdanUnread = (await bell(w.bogdan)).unread;
    const all = await w.call('POST', `${NOTE}/read-all`, w.ana.headers);
    expect(all.json()).toEqual({ marked: before.unread - 1 });
    expect((await bell(w.ana)).unread).toBe(0);
    expect((await bell(w.bogdan)).unread).toBe(bogdanUnread);
  });

  it('refuses a malformed id and a guest, changing nothing', async () => {
    const bad = await w.call('POST', `${NOTE}/not-an-id/read`, w.ana.headers);
    expect(bad.statusCode).toBe(400);
    expect(codeOf(bad)).toBe('VALIDATION_FAILED');
    expect(codeOf(await t.app.inject({ method: 'GET', url: `/api/v1${NOTE}` }))).toBe(
      'UNAUTHORIZED',
    );
    expect(codeOf(await t.app.inject({ method: 'POST', url: `/api/v1${NOTE}/read-all` }))).toBe(
      'UNAUTHORIZED',
    );
  });

  it('goes with the person when they are anonymised', async () => {
    const [row] = await t.database.db.select().from(users).where(eq(users.id, w.carmen.id));
    expect(row).toBeDefined();
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/v1/user-mgmt/users/${w.bogdan.id}/anonymise`,
      headers: w.admin.headers,
    });
    expect(res.statusCode, res.body).toBe(200);
    const left = await t.database.db
      .select()
      .from(notifications)
      .where(eq(notifications.userId, w.bogdan.id));
    expect(left).toEqual([]);
  });
});
