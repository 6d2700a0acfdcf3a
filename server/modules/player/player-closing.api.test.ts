import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlayerItemsResponse, PlayerState } from '../../../shared/schemas/player.js';
import { makePhase } from '../../db/factories.js';
import { attempts, phaseResults } from '../../db/schema.js';
import { errorCode } from '../../test/app.js';
import { body, type PlayerKit, playerApp } from './player.fixtures.js';

/**
 * Nothing stays open once a phase closes, and an attempt never reopens once its answers could
 * be known: closing a phase ends every running attempt (scored before the admitted are moved
 * on), answers and starts after it are refused, and a reopen is refused in a closed phase or
 * once a student of the test has been shown its answer key.
 */

let ctx: Awaited<ReturnType<typeof playerApp>>;
let kit: PlayerKit;

beforeAll(async () => {
  ctx = await playerApp();
  kit = ctx.kit;
});
afterAll(async () => {
  await ctx?.t.close();
});

const db = () => ctx.t.database.db;

/** A world whose phase has a next one, so it can be closed. */
async function closableWorld() {
  const w = await kit.world();
  await makePhase(db(), {
    editionId: w.edition.id,
    startDate: new Date('2026-12-10T08:00:00Z'),
    endDate: new Date('2026-12-11T08:00:00Z'),
  });
  const close = () =>
    ctx.t.app.inject({
      method: 'PUT',
      url: `/api/v1/exam-mgmt/exams/${w.exam.id}/editions/${w.edition.id}/phases/${w.phase.id}/finish`,
      headers: w.examAdmin.headers,
    });
  return { w, close };
}

describe('closing a phase', () => {
  it('ends the attempts still running, scores them, and refuses what comes after', async () => {
    ctx.clock.set('2026-11-23T09:30:00.000Z');
    const { w, close } = await closableWorld();
    await kit.start(w.alice, w.test.id);
    await kit.answer(w.alice, w.test.id, { itemId: w.q.single, submittedAnswer: [1], seq: 1 });
    ctx.clock.set('2026-11-23T09:40:00.000Z');

    const res = await close();
    expect(res.statusCode, res.body).toBe(200);

    const [attempt] = await db()
      .select()
      .from(attempts)
      .where(and(eq(attempts.testId, w.test.id), eq(attempts.studentId, w.alice.id)));
    expect(attempt).toMatchObject({ state: 'finished', finishedBy: 'closed' });
    expect(attempt?.finishedAt?.toISOString()).toBe('2026-11-23T09:40:00.000Z');
    const [total] = await db()
      .select()
      .from(phaseResults)
      .where(and(eq(phaseResults.phaseId, w.phase.id), eq(phaseResults.studentId, w.alice.id)));
    expect(Number(total?.points)).toBe(10);

    // The answer the probe got in after the close is refused, and changes nothing.
    const late = await kit.answer(w.alice, w.test.id, {
      itemId: w.q.numeric,
      submittedAnswer: '3.5',
      seq: 2,
    });
    expect(late.statusCode).toBe(409);
    expect(errorCode(late)).toBe('TEST_NOT_ACTIVE');
    expect(body<PlayerState>(await kit.state(w.alice, w.test.id))).toMatchObject({
      state: 'finished',
      score: 10,
      finishedBy: 'closed',
    });
    // Nobody starts in a closed phase, on either path.
    const start = await kit.start(w.bob, w.test.id);
    expect(start.statusCode).toBe(409);
    expect(errorCode(start)).toBe('TEST_NOT_ACTIVE');
    // Nor reopens there.
    const reopen = await kit.reopen(w.staff, w.test.id, w.alice.id, {
      remainingSeconds: 600,
      reason: 'Curent întrerupt',
    });
    expect(reopen.statusCode).toBe(409);
    expect(errorCode(reopen)).toBe('PHASE_CLOSED');
    expect(body<PlayerState>(await kit.state(w.alice, w.test.id)).state).toBe('finished');
  });
});

describe('reopening after the answer key was shown', () => {
  it('is refused once any student of the test has seen its answers', async () => {
    ctx.clock.set('2026-11-23T09:30:00.000Z');
    const w = await kit.world();
    for (const s of [w.alice, w.bob]) {
      await kit.start(s, w.test.id);
      await kit.answer(s, w.test.id, { itemId: w.q.single, submittedAnswer: [0], seq: 1 });
      await kit.finish(s, w.test.id);
    }
    // After the window: before anyone looks, a proven incident may still reopen Bob's.
    ctx.clock.set('2026-11-23T12:00:05.000Z');
    const early = await kit.reopen(w.staff, w.test.id, w.bob.id, {
      remainingSeconds: 60,
      reason: 'Incident dovedit',
    });
    expect(early.statusCode, early.body).toBe(200);
    await kit.finish(w.bob, w.test.id);

    ctx.clock.set('2026-11-23T12:10:00.000Z');
    const seen = body<PlayerItemsResponse>(await kit.items(w.alice, w.test.id));
    expect(seen.reviewed).toBe(true);
    expect(seen.items.find((i) => i.itemId === w.q.single)).toMatchObject({
      itemCorrectAnswers: [1],
      awardedScore: 0,
      scoreState: 'final',
    });

    for (const who of [w.alice, w.bob]) {
      const res = await kit.reopen(w.staff, w.test.id, who.id, {
        remainingSeconds: 600,
        reason: 'Cerere după afișarea baremului',
      });
      expect(res.statusCode).toBe(409);
      expect(errorCode(res)).toBe('ANSWER_KEY_SHOWN');
    }
    // The score the key was shown with stays.
    expect(body<PlayerState>(await kit.state(w.alice, w.test.id))).toMatchObject({
      state: 'finished',
      score: 0,
    });
  });
});
