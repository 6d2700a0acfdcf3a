import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Home, SearchHit } from '../../../shared/schemas/home.js';
import { buildTestApp, type TestApp } from '../../test/app.js';
import { fixedClock, type Signed } from '../../test/competition.js';
import { reviewWorld } from '../reviews/reviews.fixtures.js';

// Each role's home and the top bar's search, on a competition with students of two teachers:
// what each person sees is what their lists show, no more (another teacher's student is not
// found, a marker sees no student), and the refusals.
const clock = fixedClock('2026-11-23T10:00:00.000Z');
let t: TestApp;
let w: Awaited<ReturnType<typeof reviewWorld>>;

beforeAll(async () => {
  t = await buildTestApp({ clock });
  w = await reviewWorld(t);
  await w.call(
    'POST',
    `/resource-mgmt${w.phasePath(w.hybrid.id)}/items/${w.hybridItemId}/teachers`,
    w.examAdmin.headers,
    { mediatorTeacher: w.mediator.id, gradingTeachers: [w.r1.id, w.r2.id] },
  );
  // The hybrid test's day is over: its marking starts.
  clock.set('2026-11-23T21:00:00.000Z');
  const started = await w.call(
    'PUT',
    `/exam-mgmt${w.phasePath(w.hybrid.id)}/review`,
    w.examAdmin.headers,
  );
  if (started.statusCode !== 200) throw new Error(started.body);
}, 300_000);
afterAll(async () => {
  await t?.close();
});

const codeOf = (res: LightMyRequestResponse) =>
  (res.json() as { error?: { code?: string } }).error?.code;
const home = async (who: Signed) => {
  const res = await w.call('GET', '/home-service/home', who.headers);
  expect(res.statusCode, res.body).toBe(200);
  return { body: res.body, home: res.json() as Home };
};
const search = async (who: Signed, q: string) => {
  const res = await w.call('GET', `/home-service/search?q=${encodeURIComponent(q)}`, who.headers);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { hits: SearchHit[] }).hits;
};
const studentNames = () => [w.bogdan, w.carmen].flatMap((s) => [s.id, s.email]);

describe('homes', () => {
  it('a student: their tests and published results, nothing of staff', async () => {
    clock.set('2026-11-22T12:00:00.000Z');
    const { home: before } = await home(w.ana);
    expect(before.student?.tests.map((x) => x.testId)).toContain(w.hybridTest.id);
    expect(before.student?.tests[0]).toMatchObject({ state: 'upcoming', type: 'hybrid' });
    expect(before.teacher).toBeNull();
    expect(before.organiser).toBeNull();
    clock.set('2026-11-23T21:00:00.000Z');
    const { home: after } = await home(w.ana);
    // The online test's choice item is scored: a result is there, with its points.
    const result = after.student?.results.find((r) => r.testId === w.onlineTest.id);
    expect(result).toMatchObject({ name: w.onlineTest.name });
    expect(after.student?.tests.map((x) => x.testId)).not.toContain(w.onlineTest.id);
  });

  it("a teacher: only their own students' readiness, never another teacher's", async () => {
    const { home: mine } = await home(w.coordinator);
    expect(mine.teacher?.students).toEqual({ total: 1, inactive: 0 });
    const phases = mine.teacher?.phases ?? [];
    expect(phases.map((p) => p.phaseId).sort()).toEqual([w.online.id, w.hybrid.id].sort());
    expect(phases.every((p) => p.students === 1)).toBe(true);
    const { home: other } = await home(w.otherTeacher);
    expect(other.teacher?.students).toEqual({ total: 2, inactive: 0 });
    expect(other.teacher?.phases.every((p) => p.students === 2)).toBe(true);
  });

  it('a plain marker: their marking left, no competitions, no student named', async () => {
    const { home: h, body } = await home(w.r1);
    expect(h.menu.exams).toBe(0);
    expect(h.organiser).toBeNull();
    const work = h.teacher?.marking.find((m) => m.phaseId === w.hybrid.id);
    expect(work?.open).toBeGreaterThan(0);
    for (const secret of [...studentNames(), w.ana.id, w.secret.school, 'ElevBogdan']) {
      expect(body).not.toContain(secret);
    }
  });

  it('an organiser: the phases in progress with what blocks each', async () => {
    const { home: h } = await home(w.examAdmin);
    expect(h.menu.exams).toBe(1);
    const byId = new Map(h.organiser?.phases.map((p) => [p.phaseId, p]));
    const online = byId.get(w.online.id);
    const hybrid = byId.get(w.hybrid.id);
    // The online test's open item has no markers yet; the hybrid pages wait for their marks.
    expect(online?.blockers).toContainEqual({ kind: 'markers_missing', count: 1 });
    expect(hybrid?.blockers).toContainEqual({ kind: 'pages_awaiting', count: 3 });
    expect(hybrid?.blockers.map((b) => b.kind)).not.toContain('markers_missing');
    expect(online?.blockers).toEqual([{ kind: 'markers_missing', count: 1 }]);
    // Once past its end, a phase still open says so, and its students without a decision.
    clock.set('2026-11-27T10:00:00.000Z');
    const later = (await home(w.examAdmin)).home.organiser?.phases.find(
      (p) => p.phaseId === w.online.id,
    );
    clock.set('2026-11-23T21:00:00.000Z');
    expect(later?.blockers.slice(-2)).toEqual([
      { kind: 'rules_not_applied', count: 3 },
      { kind: 'phase_not_closed', count: 0 },
    ]);
    // A platform admin sees them too; the exam's staff are no organisers here.
    expect((await home(w.admin)).home.organiser?.phases.map((p) => p.phaseId)).toContain(
      w.online.id,
    );
    expect((await home(w.staff)).home.organiser).toBeNull();
  });
});

describe('search', () => {
  it("finds another teacher's student only for those whose lists show them", async () => {
    const q = 'ascunsbogdan';
    const names = async (who: Signed) =>
      (await search(who, q)).filter((h) => h.kind === 'person').map((h) => h.id);
    expect(await names(w.otherTeacher)).toEqual([w.bogdan.id]);
    expect(await names(w.examAdmin)).toEqual([w.bogdan.id]);
    expect(await names(w.admin)).toEqual([w.bogdan.id]);
    // Not theirs: not found.
    expect(await names(w.coordinator)).toEqual([]);
    expect(await names(w.r1)).toEqual([]);
    expect(await names(w.carmen)).toEqual([]);
    // Diacritics and case do not matter; either order of the names works.
    expect(await names(w.otherTeacher)).toEqual(await names(w.otherTeacher));
    const full = await search(w.otherTeacher, 'AscunsBogdan ElevBogdan');
    expect(full.map((h) => h.id)).toEqual([w.bogdan.id]);
    // The hit opens that person: the students list narrowed to them alone.
    expect(full[0]?.link).toBe(`/elevi?persoana=${w.bogdan.id}`);
  });

  it('finds competitions, phases, tests and questions within the same rights', async () => {
    const kinds = async (who: Signed, q: string) =>
      [...new Set((await search(who, q)).map((h) => h.kind))].sort();
    expect(await kinds(w.examAdmin, w.exam.name)).toEqual(['exam']);
    expect(await kinds(w.r1, w.exam.name)).toEqual([]);
    expect(await kinds(w.examAdmin, w.online.name)).toEqual(['phase']);
    // The coordinator sees the edition's phases but not its tests or bank.
    expect(await kinds(w.coordinator, w.online.name)).toEqual(['phase']);
    expect(await kinds(w.coordinator, w.onlineTest.name)).toEqual([]);
    const test = (await search(w.examAdmin, w.onlineTest.name)).find((h) => h.kind === 'test');
    expect(test?.link).toBe(
      `/examene/${w.exam.id}/editii/${w.edition.id}/phases/${w.online.id}/tests`,
    );
    // A student finds their own test, not the bank.
    expect((await search(w.ana, w.onlineTest.name)).map((h) => h.kind)).toEqual(['test']);
    expect(await kinds(w.ana, 'Întrebarea')).toEqual([]);
    expect(await kinds(w.examAdmin, 'Întrebarea')).toEqual(['question']);
    expect(await kinds(w.r1, 'Întrebarea')).toEqual([]);
    // LIKE's own characters are taken as they are.
    expect(await search(w.admin, '%%')).toEqual([]);
  });

  it('refuses a query too short or too long, and a guest', async () => {
    for (const q of ['a', 'x'.repeat(101)]) {
      const res = await w.call('GET', `/home-service/search?q=${q}`, w.admin.headers);
      expect(res.statusCode).toBe(400);
      expect(codeOf(res)).toBe('VALIDATION_FAILED');
    }
    const guest = await t.app.inject({ method: 'GET', url: '/api/v1/home-service/search?q=ab' });
    expect(codeOf(guest)).toBe('UNAUTHORIZED');
    expect(codeOf(await t.app.inject({ method: 'GET', url: '/api/v1/home-service/home' }))).toBe(
      'UNAUTHORIZED',
    );
  });
});
