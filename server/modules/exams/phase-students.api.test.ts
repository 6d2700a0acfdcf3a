import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeEnrolment } from '../../db/factories.js';
import { auditEvents, phaseStudents } from '../../db/schema.js';
import { buildTestApp, type TestApp } from '../../test/app.js';
import { codeOf, detailsOf, examsKit, type Person } from './exams.fixtures.js';

let t: TestApp;
let kit: ReturnType<typeof examsKit>;
let admin: Person;
let w: Awaited<ReturnType<ReturnType<typeof examsKit>['world']>>;
let phaseUrl: string;
let phaseId: string;
const ids: Record<string, string> = {};

// Grades deliberately unsorted: the default grade is the smallest (SPEC.md §3 sorts them).
beforeAll(async () => {
  t = await buildTestApp();
  kit = examsKit(t);
  admin = await kit.person({ type: 'admin' });
  w = await kit.world({ grades: [6, 5] });
  const phase = await kit.phase(w.edition.id, '2026-12-01T08:00:00Z');
  phaseId = phase.id;
  phaseUrl = `${w.editionUrl}/phases/${phase.id}`;
  const people: [string, Parameters<TestApp['createUser']>[0], number, 'admitted' | null][] = [
    [
      'ana',
      { givenName: 'Ana', familyName: 'Țurcanu', county: 'Iași', teacherRef: w.coordinator.id },
      5,
      null,
    ],
    ['bogdan', { givenName: 'Bogdan', familyName: 'Popa', county: 'Cluj' }, 5, 'admitted'],
    [
      'carmen',
      { givenName: 'Carmen', familyName: 'Pop', county: 'Cluj', teacherRef: w.coordinator.id },
      6,
      null,
    ],
    // Profile says 7, the edition says 5: the edition's grade counts.
    ['dan', { givenName: 'Dan', familyName: 'Ionescu', county: 'Alba', grade: 7 }, 5, null],
  ];
  for (const [key, seed, grade, result] of people) {
    const u = await t.createUser({ grade, ...seed });
    ids[key] = u.id;
    await makeEnrolment(t.database.db, {
      editionId: w.edition.id,
      studentId: u.id,
      grade,
      phaseIds: [phase.id],
      result,
    });
  }
});
afterAll(async () => {
  await t.close();
});

const list = async (p: Person, filter?: object) => {
  const url = `${phaseUrl}/students${filter ? `?filter=${kit.q(filter)}` : ''}`;
  const res = await kit.call('GET', url, p.headers);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as Record<string, unknown>[];
};
const givenNames = async (p: Person, filter?: object) =>
  (await list(p, filter)).map((r) => r.givenName);
const count = async (p: Person, where?: object) =>
  (
    await kit.call(
      'GET',
      `${phaseUrl}/students/count${where ? `?where=${kit.q(where)}` : ''}`,
      p.headers,
    )
  ).json();
const resultOf = async (studentId: string) =>
  (await t.database.db.select().from(phaseStudents).where(eq(phaseStudents.phaseId, phaseId))).find(
    (r) => r.studentId === studentId,
  )?.result;

describe('GET …/phases/{phaseId}/students', () => {
  it('defaults to the exam first grade, sorted by given name', async () => {
    const rows = await list(admin);
    expect(rows.map((r) => r.givenName)).toEqual(['Ana', 'Bogdan', 'Dan']);
    expect(rows[0]).toEqual({
      studentId: ids.ana,
      familyName: 'Țurcanu',
      givenName: 'Ana',
      studentCounty: 'Iași',
      studentSector: null,
      studentGrade: 5,
      studentCentre: null,
      school: 'Colegiul Național „Emil Racoviță”',
      status: null,
      total: null,
      awaitingItems: null,
    });
    expect(await count(admin)).toEqual({ count: 3 });
    expect(await givenNames(admin, { where: { studentGrade: '' } })).toEqual([
      'Ana',
      'Bogdan',
      'Carmen',
      'Dan',
    ]);
    expect(await count(admin, { studentGrade: '' })).toEqual({ count: 4 });
    expect(await givenNames(admin, { where: { studentGrade: 6 } })).toEqual(['Carmen']);
    expect(await givenNames(admin, { where: { and: [{ studentGrade: 6 }] } })).toEqual(['Carmen']);
  });

  it('searches, filters by county and status, sorts, pages and projects', async () => {
    const all = { studentGrade: '' };
    expect(
      await givenNames(admin, {
        where: {
          ...all,
          or: [{ familyName: { ilike: '%pop%' } }, { givenName: { ilike: '%pop%' } }],
        },
      }),
    ).toEqual(['Bogdan', 'Carmen']);
    expect(
      await givenNames(admin, { where: { ...all, familyNameNormalized: { like: 'turc%' } } }),
    ).toEqual(['Ana']);
    expect(await givenNames(admin, { where: { ...all, studentCounty: 'Cluj' } })).toEqual([
      'Bogdan',
      'Carmen',
    ]);
    expect(await givenNames(admin, { where: { ...all, status: 'admitted' } })).toEqual(['Bogdan']);
    expect(await givenNames(admin, { where: { ...all, status: null } })).toEqual([
      'Ana',
      'Carmen',
      'Dan',
    ]);
    expect(
      await givenNames(admin, { where: all, order: 'familyName DESC', limit: 2, skip: 1 }),
    ).toEqual(['Bogdan', 'Carmen']);
    const projected = await list(admin, { where: all, fields: ['status'] });
    expect(Object.keys(projected[0] ?? {}).sort()).toEqual(['status', 'studentId']);
    expect(await count(admin, { studentCounty: 'Cluj' })).toEqual({ count: 1 });
  });

  it('shows a coordinator only their own students; others get 404', async () => {
    expect(await givenNames(w.coordinator, { where: { studentGrade: '' } })).toEqual([
      'Ana',
      'Carmen',
    ]);
    expect(await count(w.coordinator, { studentGrade: '' })).toEqual({ count: 2 });
    expect(await givenNames(w.staff, { where: { studentGrade: '' } })).toHaveLength(4);
    expect((await kit.call('GET', `${phaseUrl}/students`, w.outsider.headers)).statusCode).toBe(
      404,
    );
    expect(
      (await kit.call('GET', `${phaseUrl}/students/count`, w.outsider.headers)).statusCode,
    ).toBe(404);
  });

  it('answers VALIDATION_FAILED to malformed filters', async () => {
    const cases: [string, (string | number)[]][] = [
      [`${phaseUrl}/students?filter=${encodeURIComponent('{"where":')}`, ['filter']],
      [`${phaseUrl}/students?filter=${kit.q({ where: { email: 'x' } })}`, ['where', 'email']],
      [`${phaseUrl}/students?filter=${kit.q({ skip: -5 })}`, ['skip']],
      [
        `${phaseUrl}/students?filter=${kit.q({ where: { studentGrade: 'cinci' } })}`,
        ['where', 'studentGrade'],
      ],
      [`${phaseUrl}/students/count?where=${encodeURIComponent('nu e json')}`, ['where']],
    ];
    for (const [url, path] of cases) {
      const res = await kit.call('GET', url, admin.headers);
      expect(res.statusCode, url).toBe(400);
      expect(codeOf(res)).toBe('VALIDATION_FAILED');
      expect((detailsOf(res) as { path: unknown }[])[0]?.path).toEqual(path);
    }
  });
});

describe('PUT …/phases/{phaseId}/students/', () => {
  it('lets staff admit or reject; unknown students come back in failedStudents', async () => {
    const stranger = await t.createUser({ grade: 5 });
    const res = await kit.call('PUT', `${phaseUrl}/students/`, w.staff.headers, {
      studentIds: [ids.ana, ids.dan, stranger.id],
      result: 'admitted',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ failedStudents: [stranger.id] });
    expect(await resultOf(ids.ana ?? '')).toBe('admitted');
    expect(await resultOf(ids.dan ?? '')).toBe('admitted');

    // Without the trailing slash too.
    const reject = await kit.call('PUT', `${phaseUrl}/students`, w.examAdmin.headers, {
      studentIds: [ids.dan],
      result: 'rejected',
    });
    expect(reject.json()).toEqual({ failedStudents: [] });
    expect(await resultOf(ids.dan ?? '')).toBe('rejected');
    const audit = await t.database.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.entityId, phaseId));
    const last = audit.filter((e) => e.action === 'phase.results.set').at(-1);
    expect(last).toMatchObject({
      actorId: w.examAdmin.id,
      before: [{ studentId: ids.dan, result: 'admitted' }],
      after: { result: 'rejected', studentIds: [ids.dan] },
    });
  });

  it('is 403 for coordinators, 404 for outsiders, and rejects bad bodies', async () => {
    const body = { studentIds: [ids.carmen], result: 'admitted' };
    const denied = await kit.call('PUT', `${phaseUrl}/students/`, w.coordinator.headers, body);
    expect(denied.statusCode).toBe(403);
    expect(codeOf(denied)).toBe('OPERATION_NOT_PERMITTED');
    expect(
      (await kit.call('PUT', `${phaseUrl}/students/`, w.outsider.headers, body)).statusCode,
    ).toBe(404);
    for (const payload of [
      { studentIds: [ids.carmen], result: 'maybe' },
      { studentIds: [], result: 'admitted' },
      { studentIds: ['nu-e-id'], result: 'admitted' },
      { result: 'admitted' },
    ]) {
      expect(codeOf(await kit.call('PUT', `${phaseUrl}/students/`, admin.headers, payload))).toBe(
        'VALIDATION_FAILED',
      );
    }
    expect(await resultOf(ids.carmen ?? '')).toBe(null);
  });
});

describe('admission rules: admit-top and admit-threshold', () => {
  it('check input and rights, and admit nobody while no phase total exists', async () => {
    const before = await list(admin, { where: { studentGrade: '' } });
    const top = await kit.call('POST', `${phaseUrl}/students/admit-top`, w.staff.headers, {
      count: 3,
    });
    expect(top.statusCode).toBe(200);
    expect(top.json()).toEqual({ admittedCount: 0 });
    const threshold = await kit.call(
      'POST',
      `${phaseUrl}/students/admit-threshold`,
      admin.headers,
      {
        minScore: 0,
        grade: 6,
      },
    );
    expect(threshold.json()).toEqual({ admittedCount: 0 });
    expect(await list(admin, { where: { studentGrade: '' } })).toEqual(before);

    const bad: [string, object, string, string][] = [
      ['admit-top', { count: 0 }, 'not_positive', 'count'],
      ['admit-top', { count: 2, grade: 13 }, 'invalid', 'grade'],
      ['admit-top', {}, 'required', 'count'],
      ['admit-threshold', { minScore: -1 }, 'invalid', 'minScore'],
    ];
    for (const [path, payload, code, field] of bad) {
      const res = await kit.call('POST', `${phaseUrl}/students/${path}`, admin.headers, payload);
      expect(codeOf(res), JSON.stringify(payload)).toBe('VALIDATION_FAILED');
      expect(detailsOf(res)).toContainEqual({ code, path: [field] });
    }
    for (const path of ['admit-top', 'admit-threshold']) {
      const body = path === 'admit-top' ? { count: 1 } : { minScore: 1 };
      expect(
        codeOf(await kit.call('POST', `${phaseUrl}/students/${path}`, w.coordinator.headers, body)),
      ).toBe('OPERATION_NOT_PERMITTED');
      expect(
        (await kit.call('POST', `${phaseUrl}/students/${path}`, w.outsider.headers, body))
          .statusCode,
      ).toBe(404);
    }
  });

  it('refuse a closed phase', async () => {
    const closed = await kit.phase(w.edition.id, '2026-10-01T08:00:00Z', 1, { state: 'closed' });
    const url = `${w.editionUrl}/phases/${closed.id}/students`;
    expect(codeOf(await kit.call('POST', `${url}/admit-top`, admin.headers, { count: 1 }))).toBe(
      'PHASE_CLOSED',
    );
    expect(
      codeOf(await kit.call('POST', `${url}/admit-threshold`, admin.headers, { minScore: 5 })),
    ).toBe('PHASE_CLOSED');
  });
});
