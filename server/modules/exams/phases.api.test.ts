import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeEnrolment } from '../../db/factories.js';
import { phases } from '../../db/schema.js';
import { buildTestApp, type TestApp } from '../../test/app.js';
import { codeOf, detailsOf, examsKit, type Person } from './exams.fixtures.js';

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

const DATE_DETAILS = { startDate: ['invalid_date'], endDate: ['invalid_date'] };
const phaseBody = (start: string, end: string, extra: object = {}) => ({
  name: 'Etapa locală',
  type: 'online',
  startDate: start,
  endDate: end,
  ...extra,
});
describe('POST …/phases', () => {
  it('creates phases for exam admins; the first one takes every enrolled student', async () => {
    const w = await kit.world();
    const s1 = await t.createUser({ grade: 5 });
    const s2 = await t.createUser({ grade: 6 });
    await makeEnrolment(t.database.db, { editionId: w.edition.id, studentId: s1.id, grade: 5 });
    await makeEnrolment(t.database.db, { editionId: w.edition.id, studentId: s2.id, grade: 6 });
    const res = await kit.call(
      'POST',
      `${w.editionUrl}/phases`,
      w.examAdmin.headers,
      phaseBody('2026-12-01T08:00:00+02:00', '2026-12-01T12:00:00+02:00', {
        type: 'hybrid',
        registrationOpen: true,
        mediationThreshold: 0.2,
      }),
    );
    expect(res.statusCode).toBe(201);
    const first = res.json();
    expect(first).toMatchObject({
      examId: w.exam.id,
      editionId: w.edition.id,
      name: 'Etapa locală',
      type: 'hybrid',
      startDate: '2026-12-01T06:00:00.000Z',
      endDate: '2026-12-01T10:00:00.000Z',
      state: 'open',
      registrationOpen: true,
      reviewStarted: false,
      allPublished: false,
      mediationThreshold: 0.2,
      closedAt: null,
    });
    expect(await kit.participants(first._id)).toEqual(
      [`${s1.id}:enrolment:null`, `${s2.id}:enrolment:null`].sort(),
    );
    expect(await kit.auditActions(first._id)).toContain('phase.create');

    // A later phase takes nobody by itself; one placed before becomes the first.
    const later = await kit.call(
      'POST',
      `${w.editionUrl}/phases`,
      admin.headers,
      phaseBody('2027-01-10T08:00:00Z', '2027-01-10T12:00:00Z'),
    );
    expect(await kit.participants(later.json()._id)).toEqual([]);
    const earlier = await kit.call(
      'POST',
      `${w.editionUrl}/phases`,
      admin.headers,
      phaseBody('2026-11-01T08:00:00Z', '2026-11-01T12:00:00Z'),
    );
    expect(await kit.participants(earlier.json()._id)).toHaveLength(2);
    expect(await kit.participants(first._id)).toEqual([]);

    const list = await kit.call('GET', `${w.editionUrl}/phases`, w.coordinator.headers);
    expect((list.json() as { _id: string }[]).map((p) => p._id)).toEqual([
      earlier.json()._id,
      first._id,
      later.json()._id,
    ]);
  });

  it('rejects a start after the end and overlaps, marking both date fields', async () => {
    const w = await kit.world();
    const url = `${w.editionUrl}/phases`;
    const ok = await kit.call(
      'POST',
      url,
      admin.headers,
      phaseBody('2026-12-01T08:00:00Z', '2026-12-05T08:00:00Z'),
    );
    expect(ok.statusCode).toBe(201);

    const reversed = await kit.call(
      'POST',
      url,
      admin.headers,
      phaseBody('2026-12-10T08:00:00Z', '2026-12-09T08:00:00Z'),
    );
    expect(reversed.statusCode).toBe(400);
    expect(codeOf(reversed)).toBe('INVALID_PHASE_DATES');
    expect(detailsOf(reversed)).toEqual(DATE_DETAILS);
    const empty = await kit.call(
      'POST',
      url,
      admin.headers,
      phaseBody('2026-12-10T08:00:00Z', '2026-12-10T08:00:00Z'),
    );
    expect(codeOf(empty)).toBe('INVALID_PHASE_DATES');

    const overlap = await kit.call(
      'POST',
      url,
      admin.headers,
      phaseBody('2026-12-04T08:00:00Z', '2026-12-07T08:00:00Z'),
    );
    expect(overlap.statusCode).toBe(400);
    expect(codeOf(overlap)).toBe('OVERLAPPING_PHASE_DATES');
    expect(detailsOf(overlap)).toEqual(DATE_DETAILS);
    const inside = await kit.call(
      'POST',
      url,
      admin.headers,
      phaseBody('2026-11-30T08:00:00Z', '2026-12-06T08:00:00Z'),
    );
    expect(codeOf(inside)).toBe('OVERLAPPING_PHASE_DATES');

    // Touching the end is not an overlap.
    const next = await kit.call(
      'POST',
      url,
      admin.headers,
      phaseBody('2026-12-05T08:00:00Z', '2026-12-06T08:00:00Z'),
    );
    expect(next.statusCode).toBe(201);

    const bad = await kit.call(
      'POST',
      url,
      admin.headers,
      phaseBody('2026-02-30T08:00:00Z', 'mâine'),
    );
    expect(codeOf(bad)).toBe('VALIDATION_FAILED');
    expect(detailsOf(bad)).toEqual(
      expect.arrayContaining([
        { code: 'invalid_date', path: ['startDate'] },
        { code: 'invalid_date', path: ['endDate'] },
      ]),
    );
    const noType = await kit.call('POST', url, admin.headers, {
      ...phaseBody('2027-01-01T08:00:00Z', '2027-01-02T08:00:00Z'),
      type: 'offline',
    });
    expect(codeOf(noType)).toBe('VALIDATION_FAILED');
    const rows = await t.database.db
      .select()
      .from(phases)
      .where(eq(phases.editionId, w.edition.id));
    expect(rows).toHaveLength(2);
  });

  it('never places a phase before a closed one', async () => {
    const w = await kit.world();
    await kit.phase(w.edition.id, '2026-12-01T08:00:00Z', 1, { state: 'closed' });
    const res = await kit.call(
      'POST',
      `${w.editionUrl}/phases`,
      admin.headers,
      phaseBody('2026-11-01T08:00:00Z', '2026-11-02T08:00:00Z'),
    );
    expect(codeOf(res)).toBe('INVALID_PHASE_DATES');
    expect(detailsOf(res)).toEqual(DATE_DETAILS);
  });

  it('is 403 for staff and coordinators and 404 for outsiders', async () => {
    const w = await kit.world();
    const body = phaseBody('2026-12-01T08:00:00Z', '2026-12-02T08:00:00Z');
    for (const p of [w.staff, w.coordinator]) {
      expect(codeOf(await kit.call('POST', `${w.editionUrl}/phases`, p.headers, body))).toBe(
        'OPERATION_NOT_PERMITTED',
      );
    }
    expect(
      (await kit.call('POST', `${w.editionUrl}/phases`, w.outsider.headers, body)).statusCode,
    ).toBe(404);
    expect(
      await t.database.db.select().from(phases).where(eq(phases.editionId, w.edition.id)),
    ).toHaveLength(0);
  });
});

describe('GET|PATCH|POST …/phases/{phaseId}', () => {
  it('reads a phase in scope, also by exam and phase alone', async () => {
    const w = await kit.world();
    const other = await kit.world();
    const p = await kit.phase(w.edition.id, '2026-12-01T08:00:00Z');
    const url = `${w.editionUrl}/phases/${p.id}`;
    expect((await kit.call('GET', url, w.staff.headers)).json()).toMatchObject({
      _id: p.id,
      examId: w.exam.id,
    });
    const byExam = await kit.call(
      'GET',
      `/exams/${w.exam.id}/phases/${p.id}`,
      w.coordinator.headers,
    );
    expect(byExam.json()).toMatchObject({ _id: p.id, editionId: w.edition.id });
    expect((await kit.call('GET', url, other.staff.headers)).statusCode).toBe(404);
    expect(
      (await kit.call('GET', `/exams/${other.exam.id}/phases/${p.id}`, admin.headers)).statusCode,
    ).toBe(404);
    expect(
      (await kit.call('GET', `${other.editionUrl}/phases/${p.id}`, admin.headers)).statusCode,
    ).toBe(404);
  });

  it('updates by PATCH and by POST, checking dates against the other phases', async () => {
    const w = await kit.world();
    const a = await kit.phase(w.edition.id, '2026-12-01T08:00:00Z', 2);
    const b = await kit.phase(w.edition.id, '2026-12-10T08:00:00Z', 2);
    const url = `${w.editionUrl}/phases/${b.id}`;
    const patched = await kit.call('PATCH', url, w.examAdmin.headers, {
      name: 'Etapa județeană',
      registrationOpen: true,
    });
    expect(patched.json()).toMatchObject({ name: 'Etapa județeană', registrationOpen: true });
    const posted = await kit.call('POST', url, w.examAdmin.headers, {
      type: 'hybrid',
      endDate: '2026-12-20T08:00:00Z',
    });
    expect(posted.statusCode).toBe(200);
    expect(posted.json()).toMatchObject({ type: 'hybrid', endDate: '2026-12-20T08:00:00.000Z' });

    const overlap = await kit.call('PATCH', url, admin.headers, {
      startDate: '2026-12-02T08:00:00Z',
    });
    expect(codeOf(overlap)).toBe('OVERLAPPING_PHASE_DATES');
    expect(detailsOf(overlap)).toEqual(DATE_DETAILS);
    const reversed = await kit.call('POST', url, admin.headers, {
      endDate: '2026-12-09T08:00:00Z',
    });
    expect(codeOf(reversed)).toBe('INVALID_PHASE_DATES');
    expect((await kit.phaseRow(b.id))?.startDate.toISOString()).toBe('2026-12-10T08:00:00.000Z');
    // Its own dates are no overlap.
    expect(
      (
        await kit.call('PATCH', `${w.editionUrl}/phases/${a.id}`, admin.headers, {
          endDate: '2026-12-04T08:00:00Z',
        })
      ).statusCode,
    ).toBe(200);

    for (const p of [w.staff, w.coordinator]) {
      expect(codeOf(await kit.call('PATCH', url, p.headers, { name: 'Furat' }))).toBe(
        'OPERATION_NOT_PERMITTED',
      );
    }
    expect((await kit.call('PATCH', url, admin.headers, { allPublished: true })).statusCode).toBe(
      400,
    );
    expect(await kit.auditActions(b.id)).toContain('phase.update');
  });

  it('lets a closed phase change only its name (PHASE_CLOSED)', async () => {
    const w = await kit.world();
    const p = await kit.phase(w.edition.id, '2026-12-01T08:00:00Z', 1, { state: 'closed' });
    const url = `${w.editionUrl}/phases/${p.id}`;
    expect((await kit.call('PATCH', url, admin.headers, { name: 'Etapa veche' })).statusCode).toBe(
      200,
    );
    const res = await kit.call('PATCH', url, admin.headers, { registrationOpen: true });
    expect(res.statusCode).toBe(409);
    expect(codeOf(res)).toBe('PHASE_CLOSED');
    expect((await kit.phaseRow(p.id))?.registrationOpen).toBe(false);
  });
});
