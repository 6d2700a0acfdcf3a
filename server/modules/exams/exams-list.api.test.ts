import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeEdition, makeExam, makePhase } from '../../db/factories.js';
import { auditEvents, examTeachers } from '../../db/schema.js';
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

const _auditOf = (entityId: string) =>
  t.database.db.select().from(auditEvents).where(eq(auditEvents.entityId, entityId));
const _linksOf = async (examId: string) =>
  (await t.database.db.select().from(examTeachers).where(eq(examTeachers.examId, examId)))
    .map((l) => `${l.role}:${l.teacherId}`)
    .sort();

describe('GET /exams and /exams/count', () => {
  it('shows each person only the competitions in their scope, the count agreeing', async () => {
    const w = await kit.world({ name: 'Concurs Vizibil Alfa', grades: [6, 7] });
    const other = await kit.world({ name: 'Concurs Vizibil Beta', grades: [11] });
    const names = async (p: Person) => {
      const where = { name: { like: 'Concurs Vizibil%' } };
      const list = await kit.call('GET', `/exams?filter=${kit.q({ where })}`, p.headers);
      expect(list.statusCode).toBe(200);
      const count = await kit.call('GET', `/exams/count?where=${kit.q(where)}`, p.headers);
      const got = (list.json() as { name: string }[]).map((e) => e.name);
      expect(count.json()).toEqual({ count: got.length });
      return got;
    };
    expect(await names(admin)).toEqual(['Concurs Vizibil Alfa', 'Concurs Vizibil Beta']);
    for (const p of [w.examAdmin, w.staff, w.coordinator]) {
      expect(await names(p)).toEqual(['Concurs Vizibil Alfa']);
    }
    expect(await names(w.outsider)).toEqual([]);
    expect(await names(other.staff)).toEqual(['Concurs Vizibil Beta']);

    // Students: only competitions open for sign-up in their grade.
    const grade7 = await kit.person({ grade: 7 });
    const grade11 = await kit.person({ grade: 11 });
    expect(await names(grade7)).toEqual([]);
    await kit.phase(w.edition.id, '2026-11-23T09:00:00Z', 7, { registrationOpen: true });
    await kit.phase(other.edition.id, '2026-11-23T09:00:00Z', 7, { registrationOpen: false });
    expect(await names(grade7)).toEqual(['Concurs Vizibil Alfa']);
    expect(await names(grade11)).toEqual([]);
    const roles = await kit.call(
      'GET',
      `/exams?filter=${kit.q({ where: { _id: w.exam.id } })}`,
      grade7.headers,
    );
    expect(roles.json()[0].myRole).toBe('student');
  });

  it('reports each role in the list (myRole)', async () => {
    const w = await kit.world({ name: 'Concurs Roluri' });
    const roleOf = async (p: Person) =>
      (
        await kit.call('GET', `/exams?filter=${kit.q({ where: { _id: w.exam.id } })}`, p.headers)
      ).json()[0]?.myRole;
    expect(await roleOf(admin)).toBe('admin');
    expect(await roleOf(w.examAdmin)).toBe('examAdmin');
    expect(await roleOf(w.staff)).toBe('staff');
    expect(await roleOf(w.coordinator)).toBe('coordinator');
    expect(await roleOf(w.outsider)).toBeUndefined();
  });

  it('filters by name (regexp, ilike, normalized) and subject, orders, pages and projects', async () => {
    const db = t.database.db;
    await makeExam(db, { name: 'Zeta Matematică Junior', subject: 'Matematică' });
    await makeExam(db, { name: 'Zeta Informatică Senior', subject: 'Informatică' });
    await makeExam(db, { name: 'Zeta Matematică Senior', subject: 'Matematică' });
    const list = async (filter: object) => {
      const res = await kit.call('GET', `/exams?filter=${kit.q(filter)}`, admin.headers);
      expect(res.statusCode).toBe(200);
      return res.json() as Record<string, unknown>[];
    };
    const names = async (filter: object) => (await list(filter)).map((e) => e.name);
    expect(await names({ where: { name: { regexp: '/^zeta mATE/i' } } })).toEqual([
      'Zeta Matematică Junior',
      'Zeta Matematică Senior',
    ]);
    expect(await names({ where: { name: { ilike: '%SENIOR%' } }, order: 'name DESC' })).toEqual([
      'Zeta Matematică Senior',
      'Zeta Informatică Senior',
    ]);
    expect(await names({ where: { nameNormalized: { like: 'zeta matematica%' } } })).toHaveLength(
      2,
    );
    expect(
      await names({ where: { and: [{ name: { like: 'Zeta%' } }, { subject: 'Informatică' }] } }),
    ).toEqual(['Zeta Informatică Senior']);
    expect(await names({ where: { name: { like: 'Zeta%' } }, limit: 1, skip: 1 })).toEqual([
      'Zeta Matematică Junior',
    ]);
    const projected = await list({ where: { name: { like: 'Zeta%' } }, fields: ['name'] });
    expect(Object.keys(projected[0] ?? {}).sort()).toEqual(['_id', 'name']);
    const count = await kit.call(
      'GET',
      `/exams/count?where=${kit.q({ subject: 'Informatică', name: { like: 'Zeta%' } })}`,
      admin.headers,
    );
    expect(count.json()).toEqual({ count: 1 });
  });

  it('answers VALIDATION_FAILED to malformed filters, unknown fields and negative skip', async () => {
    const bad: [string, (string | number)[]][] = [
      ['/exams?filter={not json', ['filter']],
      [`/exams?filter=${kit.q({ where: { password: 'x' } })}`, ['where', 'password']],
      [`/exams?filter=${kit.q({ skip: -1 })}`, ['skip']],
      [`/exams?filter=${kit.q({ order: 'grades ASC' })}`, ['order']],
      [`/exams?filter=${kit.q({ fields: ['secret'] })}`, ['fields', 0]],
      ['/exams/count?where={"name":', ['where']],
      [`/exams/count?where=${kit.q({ createdBy: 'x' })}`, ['where', 'createdBy']],
    ];
    for (const [url, path] of bad) {
      const res = await kit.call(
        'GET',
        url.replace('{not json', encodeURIComponent('{not json')),
        admin.headers,
      );
      expect(res.statusCode, url).toBe(400);
      expect(codeOf(res)).toBe('VALIDATION_FAILED');
      expect(detailsOf(res)).toEqual([{ code: 'invalid', path }]);
    }
  });
});

describe('OpenAPI', () => {
  it('documents every exam-mgmt call with its schemas', async () => {
    const res = await t.app.inject({ url: '/api/docs/json' });
    const paths = Object.keys(res.json().paths as object);
    const p = '/api/v1/exam-mgmt';
    const phase = `${p}/exams/{examId}/editions/{editionId}/phases/{phaseId}`;
    const edition = `${p}/exams/{examId}/editions/{editionId}`;
    for (const path of [
      `${p}/exams`,
      `${p}/exams/count`,
      `${p}/exams/{examId}`,
      `${p}/exams/{examId}/editions`,
      edition,
      `${edition}/phases`,
      phase,
      `${phase}/finish`,
      `${phase}/review`,
      `${phase}/students`,
      `${phase}/students/count`,
      `${phase}/students/admit-top`,
      `${phase}/students/admit-threshold`,
      `${edition}/students`,
      `${edition}/students/count`,
      `${edition}/students/all-mine`,
      `${edition}/students/for-coordinators`,
      `${edition}/students/credentials`,
      `${p}/exams/{examId}/phases/{phaseId}`,
      `${p}/open-exams`,
      `${p}/open-exams/{id}/register`,
      `${p}/open-exams/{id}/unregister`,
      `${p}/external-registrations`,
      `${p}/cms-credentials`,
    ]) {
      expect(paths, path).toContain(path);
    }
    // SPEC.md's trailing-slash twins answer, but are described once, without the slash.
    expect(paths).not.toContain(`${p}/exams/`);
    expect(paths).not.toContain(`${phase}/students/`);
    const ops = res.json().paths[phase];
    expect(Object.keys(ops).sort()).toEqual(['get', 'patch', 'post']);
    expect(ops.patch.requestBody.content['application/json'].schema.properties).toHaveProperty(
      'startDate',
    );
  });
});

// Keeps the factories honest for the demo seed and the browser tests.
describe('factories', () => {
  it('build a competition, edition and phase the API can read', async () => {
    const w = await kit.world();
    const phase = await makePhase(t.database.db, { editionId: w.edition.id });
    const edition = await makeEdition(t.database.db, { examId: w.exam.id });
    const res = await kit.call(
      'GET',
      `/exams/${w.exam.id}/editions/${w.edition.id}/phases/${phase.id}`,
      admin.headers,
    );
    expect(res.json()).toMatchObject({ _id: phase.id, examId: w.exam.id, state: 'open' });
    expect(
      (await kit.call('GET', `/exams/${w.exam.id}/editions/${edition.id}`, admin.headers))
        .statusCode,
    ).toBe(200);
  });
});
