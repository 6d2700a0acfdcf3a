import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeEdition } from '../../db/factories.js';
import { auditEvents, editionCoordinators, editions } from '../../db/schema.js';
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

const coordinatorsOf = async (editionId: string) =>
  (
    await t.database.db
      .select()
      .from(editionCoordinators)
      .where(eq(editionCoordinators.editionId, editionId))
  ).map((c) => c.teacherId);

describe('GET /exams/{examId}/editions', () => {
  it('lists editions by name; a coordinator sees only theirs; outsiders get 404', async () => {
    const w = await kit.world();
    const second = await makeEdition(t.database.db, {
      examId: w.exam.id,
      name: 'A doua',
      year: 2027,
    });
    const names = async (p: Person, filter?: object) => {
      const url = `/exams/${w.exam.id}/editions${filter ? `?filter=${kit.q(filter)}` : ''}`;
      const res = await kit.call('GET', url, p.headers);
      expect(res.statusCode).toBe(200);
      return (res.json() as { _id: string }[]).map((e) => e._id);
    };
    expect(await names(admin)).toEqual([second.id, w.edition.id]);
    expect(await names(w.staff)).toEqual([second.id, w.edition.id]);
    expect(await names(w.examAdmin)).toEqual([second.id, w.edition.id]);
    expect(await names(w.coordinator)).toEqual([w.edition.id]);
    expect(await names(admin, { where: { year: 2027 } })).toEqual([second.id]);
    expect(await names(admin, { order: 'name DESC' })).toEqual([w.edition.id, second.id]);

    const list = await kit.call('GET', `/exams/${w.exam.id}/editions`, admin.headers);
    expect(list.json()[1]).toEqual({
      _id: w.edition.id,
      examId: w.exam.id,
      name: w.edition.name,
      year: 2026,
      state: 'active',
      termsUrl: null,
      registrationOpen: true,
      teacherIds: [w.coordinator.id],
      createdAt: w.edition.createdAt.toISOString(),
    });
    const count = await kit.call(
      'GET',
      `/exams/${w.exam.id}/editions/count?where=${kit.q({ state: 'active' })}`,
      w.coordinator.headers,
    );
    expect(count.json()).toEqual({ count: 1 });

    const outsider = await kit.call('GET', `/exams/${w.exam.id}/editions`, w.outsider.headers);
    expect(outsider.statusCode).toBe(404);
    const student = await kit.call(
      'GET',
      `/exams/${w.exam.id}/editions`,
      (await kit.person()).headers,
    );
    expect(student.statusCode).toBe(403);
    const bad = await kit.call(
      'GET',
      `/exams/${w.exam.id}/editions?filter=${kit.q({ where: { foo: 1 } })}`,
      admin.headers,
    );
    expect(codeOf(bad)).toBe('VALIDATION_FAILED');
  });
});

describe('POST /exams/{examId}/editions', () => {
  it('lets exam admins create an edition with coordinators, audited', async () => {
    const w = await kit.world();
    const res = await kit.call('POST', `/exams/${w.exam.id}/editions`, w.examAdmin.headers, {
      name: 'Ediția 2026-2027',
      year: 2026,
      termsUrl: 'https://concurs.ro/regulament.pdf',
      teacherIds: [w.outsider.id],
    });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toMatchObject({
      examId: w.exam.id,
      name: 'Ediția 2026-2027',
      year: 2026,
      state: 'active',
      termsUrl: 'https://concurs.ro/regulament.pdf',
      teacherIds: [w.outsider.id],
    });
    expect(await coordinatorsOf(body._id)).toEqual([w.outsider.id]);
    const events = await t.database.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.entityId, body._id));
    expect(events.map((e) => e.action).sort()).toEqual(['edition.coordinators', 'edition.create']);
    // The new coordinator now sees the competition and that edition.
    expect(
      (await kit.call('GET', `/exams/${w.exam.id}/editions/${body._id}`, w.outsider.headers))
        .statusCode,
    ).toBe(200);
  });

  it('is 403 for staff and coordinators, 404 for outsiders, and rejects bad input', async () => {
    const w = await kit.world();
    const url = `/exams/${w.exam.id}/editions`;
    for (const p of [w.staff, w.coordinator]) {
      const res = await kit.call('POST', url, p.headers, { name: 'Ediție interzisă' });
      expect(codeOf(res)).toBe('OPERATION_NOT_PERMITTED');
    }
    expect((await kit.call('POST', url, w.outsider.headers, { name: 'Ediție' })).statusCode).toBe(
      404,
    );
    const cases: [object, string, string][] = [
      [{}, 'required', 'name'],
      [{ name: 'Ediție', year: 1999 }, 'invalid', 'year'],
      [{ name: 'Ediție', year: 2101 }, 'invalid', 'year'],
      [{ name: 'Ediție', termsUrl: 'ftp://x.ro/t' }, 'invalid', 'termsUrl'],
      [{ name: 'Ediție', state: 'deleted' }, 'invalid', 'state'],
    ];
    for (const [payload, code, field] of cases) {
      const res = await kit.call('POST', url, admin.headers, payload);
      expect(codeOf(res), JSON.stringify(payload)).toBe('VALIDATION_FAILED');
      expect(detailsOf(res)).toContainEqual({ code, path: [field] });
    }
    const inactive = await t.createUser({ type: 'teacher', state: 'inactive' });
    const res = await kit.call('POST', url, admin.headers, {
      name: 'Ediție',
      teacherIds: [inactive.id],
    });
    expect(codeOf(res)).toBe('CLIENT_ERROR');
    expect(detailsOf(res)).toEqual({ teacherIds: ['teacher_not_found'] });
    const rows = await t.database.db.select().from(editions).where(eq(editions.examId, w.exam.id));
    expect(rows).toHaveLength(1);
  });
});

describe('GET|PATCH /exams/{examId}/editions/{editionId}', () => {
  it('hides editions from people without a role on them', async () => {
    const w = await kit.world();
    const other = await kit.world();
    const second = await makeEdition(t.database.db, { examId: w.exam.id });
    // Coordinator of another edition of the same exam; teacher of another exam; wrong exam id.
    expect(
      (await kit.call('GET', `/exams/${w.exam.id}/editions/${second.id}`, w.coordinator.headers))
        .statusCode,
    ).toBe(404);
    expect((await kit.call('GET', w.editionUrl, other.examAdmin.headers)).statusCode).toBe(404);
    expect(
      (await kit.call('GET', `/exams/${other.exam.id}/editions/${w.edition.id}`, admin.headers))
        .statusCode,
    ).toBe(404);
    expect((await kit.call('GET', w.editionUrl, w.coordinator.headers)).statusCode).toBe(200);
  });

  it('changes coordinators (teacherIds) for exam admins only', async () => {
    const w = await kit.world();
    const extra = await kit.person({ type: 'teacher' });
    const res = await kit.call('PATCH', w.editionUrl, w.examAdmin.headers, {
      teacherIds: [w.coordinator.id, extra.id],
      state: 'archived',
      termsUrl: null,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      teacherIds: [w.coordinator.id, extra.id],
      state: 'archived',
    });
    expect((await coordinatorsOf(w.edition.id)).sort()).toEqual(
      [w.coordinator.id, extra.id].sort(),
    );

    const removed = await kit.call('PATCH', w.editionUrl, admin.headers, {
      teacherIds: [extra.id],
    });
    expect(removed.json().teacherIds).toEqual([extra.id]);
    // The removed coordinator no longer sees the competition.
    expect((await kit.call('GET', `/exams/${w.exam.id}`, w.coordinator.headers)).statusCode).toBe(
      404,
    );

    for (const p of [w.staff, extra]) {
      const denied = await kit.call('PATCH', w.editionUrl, p.headers, { name: 'Altă ediție' });
      expect(denied.statusCode).toBe(403);
      expect(codeOf(denied)).toBe('OPERATION_NOT_PERMITTED');
    }
    const [row] = await t.database.db.select().from(editions).where(eq(editions.id, w.edition.id));
    expect(row?.name).toBe(w.edition.name);
    const actions = (
      await t.database.db.select().from(auditEvents).where(eq(auditEvents.entityId, w.edition.id))
    ).map((e) => e.action);
    expect(actions.filter((a) => a === 'edition.coordinators')).toHaveLength(2);
  });
});
