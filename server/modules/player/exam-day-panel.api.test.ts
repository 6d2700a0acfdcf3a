import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LiveResponse } from '../../../shared/schemas/exam-day.js';
import { buildApp } from '../../app.js';
import { makeEnrolment } from '../../db/factories.js';
import { createStorage } from '../../lib/files/storage.js';
import { createMailer } from '../../lib/mail/mailer.js';
import { errorCode } from '../../test/app.js';
import { body, type Person, playerApp } from './player.fixtures.js';

// The exam-day panel (GET …/phases/{phaseId}/live): counts per test and in total, the
// disconnected students, and the answer writes of every server process, read from the
// database; staff see the whole phase, a coordinator their own students, others 404.

let ctx: Awaited<ReturnType<typeof playerApp>>;
beforeAll(async () => {
  ctx = await playerApp();
});
afterAll(() => ctx.t.close());

describe('exam-day panel', () => {
  let w: Awaited<ReturnType<typeof ctx.kit.world>>;
  let own1: Person;
  let own2: Person;
  const live = (who: Person) =>
    ctx.kit.call(
      'GET',
      `/exams/${w.exam.id}/editions/${w.edition.id}/phases/${w.phase.id}/live`,
      who.headers,
    );

  beforeAll(async () => {
    const { kit, clock } = ctx;
    w = await kit.world();
    // Two students of the edition's coordinator (their teacherRef), registered in the phase.
    const mine = async () => {
      const s = await kit.person({ type: 'student', grade: 5, teacherRef: w.coordinator.id });
      await makeEnrolment(ctx.t.database.db, {
        editionId: w.edition.id,
        studentId: s.id,
        grade: 5,
        phaseIds: [w.phase.id],
      });
      return s;
    };
    own1 = await mine();
    own2 = await mine();
    // 09:30: four start, one of them finishes at once.
    for (const s of [w.alice, w.bob, own1, own2]) {
      expect((await kit.start(s, w.test.id)).statusCode).toBe(200);
    }
    expect((await kit.finish(own1, w.test.id)).statusCode).toBe(200);
    // 90 s later only Alice writes; Dan (not in the phase) is refused.
    clock.advance(90);
    const ok = await kit.answer(w.alice, w.test.id, {
      itemId: w.q.single,
      submittedAnswer: [1],
      seq: 1,
    });
    expect(ok.statusCode).toBe(200);
    const refused = await kit.answer(w.dan, w.test.id, {
      itemId: w.q.single,
      submittedAnswer: [1],
      seq: 1,
    });
    expect(refused.statusCode).toBe(404);
  });

  it('counts every student of the phase for staff, and lists who went quiet', async () => {
    for (const who of [w.staff, w.examAdmin, w.admin]) {
      const res = await live(who);
      expect(res.statusCode).toBe(200);
      const panel = body<LiveResponse>(res);
      expect(panel.scope).toBe('phase');
      // Carol (grade 7) has no test of her grade: in the total only.
      expect(panel.total).toEqual({
        registered: 5,
        signedIn: 5,
        started: 4,
        writing: 1,
        finished: 1,
        disconnected: 2,
      });
      expect(panel.tests).toHaveLength(1);
      expect(panel.tests[0]).toMatchObject({ testId: w.test.id, registered: 4, started: 4 });
      expect(panel.disconnected.map((d) => d.studentId).sort()).toEqual([w.bob.id, own2.id].sort());
      expect(panel.disconnected[0]?.lastSeenAt).toBe('2026-11-23T09:30:00.000Z');
    }
  });

  it('shows a coordinator only their own students', async () => {
    const res = await live(w.coordinator);
    expect(res.statusCode).toBe(200);
    const panel = body<LiveResponse>(res);
    expect(panel.scope).toBe('own');
    expect(panel.total).toEqual({
      registered: 2,
      signedIn: 2,
      started: 2,
      writing: 0,
      finished: 1,
      disconnected: 1,
    });
    expect(panel.disconnected.map((d) => d.studentId)).toEqual([own2.id]);
  });

  it('answers 404 to a student and to a teacher outside the competition', async () => {
    for (const who of [w.alice, w.outsider]) {
      const res = await live(who);
      expect(res.statusCode).toBe(404);
      expect(errorCode(res)).toBe('NOT_FOUND');
    }
    const bad = await ctx.kit.call(
      'GET',
      `/exams/${w.exam.id}/editions/${w.edition.id}/phases/not-an-id/live`,
      w.staff.headers,
    );
    expect(bad.statusCode).toBe(400);
    expect(errorCode(bad)).toBe('VALIDATION_FAILED');
  });

  it('counts a state check as a sign of life, and the writes and refusals per minute', async () => {
    expect((await ctx.kit.state(w.bob, w.test.id)).statusCode).toBe(200);
    const panel = body<LiveResponse>(await live(w.staff));
    expect(panel.total).toMatchObject({ writing: 2, disconnected: 1 });
    expect(panel.disconnected.map((d) => d.studentId)).toEqual([own2.id]);
    // 09:31:30 is the last of the ten minutes; Alice's write and Dan's refusal are in it.
    expect(panel.minutes).toHaveLength(10);
    expect(panel.minutes.at(-1)).toMatchObject({
      minute: '2026-11-23T09:31:00.000Z',
      writes: 1,
      errors: 1,
    });
    expect(panel.minutes.at(-1)?.p99Ms).toEqual(expect.any(Number));
    expect(panel).toMatchObject({ writes: 1, errors: 1, processes: 1 });
    expect(panel.p99Ms).toEqual(expect.any(Number));
  });

  it('adds up the answer writes of every server process on the database', async () => {
    const { t, clock } = ctx;
    // A second instance on the same database, as behind a load balancer.
    const other = await buildApp({
      config: t.config,
      database: t.database,
      mailer: createMailer(t.config, { info: () => {} }),
      storage: createStorage(t.config),
      clock,
      logger: false,
    });
    await other.ready();
    for (const [seq, itemId] of [
      [2, w.q.single],
      [1, w.q.multiple],
    ] as const) {
      const res = await other.inject({
        method: 'PUT',
        url: `/api/v1/test-player/mytests/${w.test.id}`,
        headers: w.alice.headers,
        payload: { itemId, submittedAnswer: [0], seq },
      });
      expect(res.statusCode).toBe(200);
    }
    // The other instance adds its counts when it closes (else every 5 s).
    await other.close();
    // A path that names no test is refused without being counted (nor blocking the counts);
    // Dan's second refusal here is counted.
    const bad = await ctx.kit.answer(w.dan, 'not-a-test', { itemId: w.q.single, seq: 2 });
    expect(bad.statusCode).toBe(400);
    const refused = await ctx.kit.answer(w.dan, w.test.id, {
      itemId: w.q.single,
      submittedAnswer: [1],
      seq: 2,
    });
    expect(refused.statusCode).toBe(404);
    const panel = body<LiveResponse>(await live(w.staff));
    expect(panel).toMatchObject({ writes: 3, errors: 2, processes: 2 });
    expect(panel.minutes.at(-1)).toMatchObject({ writes: 3, errors: 2 });
  });
});
