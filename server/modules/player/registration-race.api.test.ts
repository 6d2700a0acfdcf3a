import { and, eq } from 'drizzle-orm';
import type pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { attempts, phaseStudents } from '../../db/schema.js';
import { uuidv7 } from '../../lib/ids.js';
import { sha256 } from '../../lib/secrets.js';
import { errorCode } from '../../test/app.js';
import { heldTransaction, someoneWaits } from '../../test/db.js';
import { DURING, type Person, type PlayerKit, playerApp } from './player.fixtures.js';
import { START_SQL } from './player.hot.repo.js';
import { insertAttempt } from './player.repo.js';

// A student removed from the phase in the same milliseconds as their first start: whichever
// commits first, no attempt is left without its registration. Only PostgreSQL has two
// transactions at once; here a second connection plays one side, held open until the other
// side is seen waiting for it.

let ctx: Awaited<ReturnType<typeof playerApp>>;
let kit: PlayerKit;
let w: Awaited<ReturnType<PlayerKit['world']>>;

beforeAll(async () => {
  ctx = await playerApp(DURING);
  kit = ctx.kit;
  w = await kit.world();
});
afterAll(() => ctx?.t.close());

const pool = () => {
  const p = ctx.t.database.pool;
  if (!p) throw new Error('PostgreSQL only');
  return p;
};
/** One side of the race, held open; rolled back if a test fails before committing it. */
let held: Awaited<ReturnType<typeof heldTransaction>> | undefined;
const hold = async (work: (c: pg.PoolClient) => Promise<unknown>) => {
  held = await heldTransaction(pool(), work);
  return held;
};
const release = async () => {
  const h = held;
  held = undefined;
  await h?.commit();
};
afterEach(async () => {
  const h = held;
  held = undefined;
  await h?.rollback();
});

const registration = (studentId: string) =>
  ctx.t.database.db
    .select()
    .from(phaseStudents)
    .where(and(eq(phaseStudents.phaseId, w.phase.id), eq(phaseStudents.studentId, studentId)));
const attemptOf = (studentId: string) =>
  ctx.t.database.db
    .select()
    .from(attempts)
    .where(and(eq(attempts.testId, w.test.id), eq(attempts.studentId, studentId)));

const deleteRegistration = (c: pg.PoolClient, studentId: string) =>
  c.query('delete from phase_students where phase_id = $1 and student_id = $2', [
    w.phase.id,
    studentId,
  ]);

/** The start statement exactly as the server sends it, for this student, creating. */
async function startStatement(c: pg.PoolClient, s: Person) {
  const token = (s.headers.authorization ?? '').replace(/^Bearer /, '');
  const now = new Date(DURING);
  await c.query(START_SQL, [
    sha256(token),
    now.toISOString(),
    w.phase.id,
    w.edition.id,
    w.test.id,
    uuidv7(now.getTime()),
    new Date(now.getTime() + 60 * 60_000).toISOString(),
    w.test.seed,
    '{5,6}',
    true,
  ]);
}

const removeFromEdition = (studentId: string) =>
  ctx.t.app.inject({
    method: 'DELETE',
    url: `/api/v1/exam-mgmt/exams/${w.exam.id}/editions/${w.edition.id}/students`,
    headers: w.admin.headers,
    payload: { students: [studentId] },
  });

describe.skipIf(!process.env.DATABASE_URL)('removal from the phase racing a first start', () => {
  it('a start that went first keeps the student: the removal waits, sees the attempt, changes nothing', async () => {
    const s = await kit.student(w);
    await hold((c) => startStatement(c, s));
    const removal = removeFromEdition(s.id);
    await someoneWaits(pool());
    await release();
    const res = await removal;
    expect(res.statusCode, res.body).toBe(409);
    expect(errorCode(res)).toBe('STUDENT_HAS_RESULTS');
    expect(await registration(s.id)).toHaveLength(1);
    expect(await attemptOf(s.id)).toHaveLength(1);
    // And the student goes on with the attempt.
    expect((await kit.start(s, w.test.id)).statusCode).toBe(200);
  });

  it('a removal that went first leaves nothing to start: the start waits, then finds no test', async () => {
    const s = await kit.student(w);
    await hold((c) => deleteRegistration(c, s.id));
    const start = kit.start(s, w.test.id);
    await someoneWaits(pool());
    await release();
    const res = await start;
    expect(res.statusCode, res.body).toBe(404);
    expect(await attemptOf(s.id)).toHaveLength(0);
  });

  it('the careful start (when the one-statement start declines) holds the registration too', async () => {
    const s = await kit.student(w);
    await hold((c) => deleteRegistration(c, s.id));
    const now = new Date(DURING);
    const created = insertAttempt(ctx.t.database.db, w.phase.id, {
      id: uuidv7(now.getTime()),
      testId: w.test.id,
      studentId: s.id,
      startedAt: now,
      deadlineAt: new Date(now.getTime() + 60 * 60_000),
      itemOrder: Object.values(w.q),
    });
    await someoneWaits(pool());
    await release();
    expect(await created).toBeUndefined();
    expect(await attemptOf(s.id)).toHaveLength(0);
  });
});
