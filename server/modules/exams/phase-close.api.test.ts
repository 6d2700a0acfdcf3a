import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeEnrolment, makeTestWithItems } from '../../db/factories.js';
import { phaseStudents } from '../../db/schema.js';
import { buildTestApp, type TestApp } from '../../test/app.js';
import { codeOf, examsKit, type Person } from './exams.fixtures.js';

let t: TestApp;
let kit: ReturnType<typeof examsKit>;
let admin: Person;

beforeAll(async () => {
  t = await buildTestApp();
  kit = examsKit(t);
  admin = await kit.person({ type: 'admin' });
});
afterAll(async () => {
  await t.close();
});

describe('PUT …/phases/{phaseId}/finish', () => {
  it('without a next phase fails with EDITION_PHASE_NOT_CREATED and changes nothing', async () => {
    const w = await kit.world();
    const p = await kit.phase(w.edition.id, '2026-12-01T08:00:00Z');
    const res = await kit.call('PUT', `${w.editionUrl}/phases/${p.id}/finish`, admin.headers);
    expect(res.statusCode).toBe(409);
    expect(codeOf(res)).toBe('EDITION_PHASE_NOT_CREATED');
    expect((await kit.phaseRow(p.id))?.state).toBe('open');
    expect(await kit.auditActions(p.id)).not.toContain('phase.close');
  });

  it('closes the last phase when asked and nobody is admitted; refuses while someone is', async () => {
    const w = await kit.world();
    const last = await kit.phase(w.edition.id, '2026-12-01T08:00:00Z');
    const student = await t.createUser({ grade: 6 });
    await makeEnrolment(t.database.db, {
      editionId: w.edition.id,
      studentId: student.id,
      grade: 6,
      phaseIds: [last.id],
      result: 'admitted',
    });
    const url = `${w.editionUrl}/phases/${last.id}/finish`;
    const bad = await kit.call('PUT', url, admin.headers, { lastPhase: 'yes' });
    expect(bad.statusCode).toBe(400);
    const admitted = await kit.call('PUT', url, admin.headers, { lastPhase: true });
    expect(codeOf(admitted)).toBe('EDITION_PHASE_NOT_CREATED');
    expect((await kit.phaseRow(last.id))?.state).toBe('open');
    await t.database.db
      .update(phaseStudents)
      .set({ result: 'rejected' })
      .where(eq(phaseStudents.phaseId, last.id));
    const closed = await kit.call('PUT', url, admin.headers, { lastPhase: true });
    expect(closed.statusCode, closed.body).toBe(200);
    expect(closed.json()).toMatchObject({ state: 'closed', advancedCount: 0 });
    expect(await kit.auditActions(last.id)).toContain('phase.close');
  });

  it('closes once and advances exactly the admitted students; a second close is the same', async () => {
    const w = await kit.world();
    const first = await kit.phase(w.edition.id, '2026-12-01T08:00:00Z', 2, {
      registrationOpen: true,
    });
    const second = await kit.phase(w.edition.id, '2027-01-10T08:00:00Z');
    const [yes1, yes2, no, undecided] = await Promise.all(
      [1, 2, 3, 4].map(() => t.createUser({ grade: 6 })),
    );
    for (const [s, result] of [
      [yes1, 'admitted'],
      [yes2, 'admitted'],
      [no, 'rejected'],
      [undecided, null],
    ] as const) {
      await makeEnrolment(t.database.db, {
        editionId: w.edition.id,
        studentId: s?.id ?? '',
        grade: 6,
        phaseIds: [first.id],
        result,
      });
    }
    const url = `${w.editionUrl}/phases/${first.id}/finish`;
    for (const p of [w.staff, w.coordinator]) {
      expect(codeOf(await kit.call('PUT', url, p.headers))).toBe('OPERATION_NOT_PERMITTED');
    }
    expect((await kit.call('PUT', url, w.outsider.headers)).statusCode).toBe(404);
    expect((await kit.phaseRow(first.id))?.state).toBe('open');

    // Two at once: both answer the same, one effect.
    const [a, b] = await Promise.all([
      kit.call('PUT', url, w.examAdmin.headers),
      kit.call('PUT', url, admin.headers),
    ]);
    expect(a.statusCode).toBe(200);
    expect(b.statusCode).toBe(200);
    expect(a.json()).toMatchObject({ state: 'closed', advancedCount: 2, registrationOpen: false });
    expect(b.json()).toEqual(a.json());
    const again = await kit.call('PUT', url, admin.headers);
    expect(again.json()).toEqual(a.json());
    expect((await kit.phaseRow(first.id))?.closedAt).toBeInstanceOf(Date);
    expect(await kit.participants(second.id)).toEqual(
      [`${yes1?.id}:advanced:null`, `${yes2?.id}:advanced:null`].sort(),
    );
    expect((await kit.auditActions(first.id)).filter((x) => x === 'phase.close')).toHaveLength(1);

    // Results are frozen once the phase is closed.
    const change = await kit.call(
      'PUT',
      `${w.editionUrl}/phases/${first.id}/students/`,
      admin.headers,
      {
        studentIds: [no?.id],
        result: 'admitted',
      },
    );
    expect(codeOf(change)).toBe('PHASE_CLOSED');
    const [row] = await t.database.db
      .select()
      .from(phaseStudents)
      .where(and(eq(phaseStudents.phaseId, first.id), eq(phaseStudents.studentId, no?.id ?? '')));
    expect(row?.result).toBe('rejected');
  });
});

describe('PUT …/phases/{phaseId}/review', () => {
  it('starts the review of a phase once; an online one waits for its tests, a closed one refuses', async () => {
    const w = await kit.world();
    const hybrid = await kit.phase(w.edition.id, '2026-12-01T08:00:00Z', 1, { type: 'hybrid' });
    const online = await kit.phase(w.edition.id, '2026-12-05T08:00:00Z', 1);
    const closed = await kit.phase(w.edition.id, '2026-11-01T08:00:00Z', 1, {
      type: 'hybrid',
      state: 'closed',
    });
    const url = (id: string) => `${w.editionUrl}/phases/${id}/review`;
    expect(codeOf(await kit.call('PUT', url(hybrid.id), w.staff.headers))).toBe(
      'OPERATION_NOT_PERMITTED',
    );
    const res = await kit.call('PUT', url(hybrid.id), w.examAdmin.headers);
    expect(res.statusCode).toBe(200);
    expect(res.json().reviewStarted).toBe(true);
    expect((await kit.call('PUT', url(hybrid.id), admin.headers)).json().reviewStarted).toBe(true);
    expect(
      (await kit.auditActions(hybrid.id)).filter((a) => a === 'phase.review.start'),
    ).toHaveLength(1);

    // An online phase's test still open (its window is the phase's, in December).
    await makeTestWithItems(t.database.db, { phaseId: online.id });
    const onlineRes = await kit.call('PUT', url(online.id), admin.headers);
    expect(codeOf(onlineRes)).toBe('TESTS_STILL_RUNNING');
    expect(codeOf(await kit.call('PUT', url(closed.id), admin.headers))).toBe('PHASE_CLOSED');
    expect((await kit.phaseRow(online.id))?.reviewStarted).toBe(false);
  });
});
