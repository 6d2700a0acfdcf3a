import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeEdition, makeExam } from '../../db/factories.js';
import { auditEvents, editionStudents, editions, phaseStudents, phases } from '../../db/schema.js';
import { buildTestApp, type TestApp } from '../../test/app.js';
import { codeOf, examsKit, type Person } from './exams.fixtures.js';

let t: TestApp;
let kit: ReturnType<typeof examsKit>;

beforeAll(async () => {
  t = await buildTestApp();
  kit = examsKit(t);
});
afterAll(async () => {
  await t.close();
});

/** An edition of a grade 7–8 competition; registration open on its first phase unless told. */
async function openEdition(opts: { grades?: number[]; open?: boolean; name?: string } = {}) {
  const exam = await makeExam(t.database.db, { grades: opts.grades ?? [8, 7], name: opts.name });
  const edition = await makeEdition(t.database.db, { examId: exam.id, name: 'Ediția 2026' });
  const first = await kit.phase(edition.id, '2026-12-01T08:00:00Z', 7, {
    registrationOpen: opts.open ?? true,
  });
  return { exam, edition, first };
}
const openIds = async (p: Person) => {
  const res = await kit.call('GET', '/open-exams', p.headers);
  expect(res.statusCode).toBe(200);
  return res.json() as { _id: string; registered: boolean }[];
};
const rowsOf = (editionId: string, studentId: string) =>
  t.database.db
    .select()
    .from(editionStudents)
    .where(and(eq(editionStudents.editionId, editionId), eq(editionStudents.studentId, studentId)));
const phaseRowsOf = async (studentId: string) =>
  (await t.database.db.select().from(phaseStudents).where(eq(phaseStudents.studentId, studentId)))
    .map((r) => `${r.phaseId}:${r.source}`)
    .sort();

describe('GET /open-exams', () => {
  it('lists active editions taking sign-ups for the student’s grade', async () => {
    const student = await kit.person({ grade: 7 });
    const open = await openEdition({ name: 'Concurs deschis' });
    await openEdition({ grades: [11] });
    await openEdition({ open: false });
    const archived = await openEdition();
    await t.database.db
      .update(phases)
      .set({ state: 'closed' })
      .where(eq(phases.id, (await openEdition()).first.id));
    await t.database.db
      .update(editions)
      .set({ state: 'archived' })
      .where(eq(editions.id, archived.edition.id));

    const list = await openIds(student);
    expect(list).toEqual([
      {
        _id: open.edition.id,
        editionId: open.edition.id,
        editionName: 'Ediția 2026',
        year: 2026,
        termsUrl: null,
        examId: open.exam.id,
        examName: 'Concurs deschis',
        subject: 'Matematică',
        description: null,
        grades: [7, 8],
        phaseId: open.first.id,
        phaseName: open.first.name,
        startDate: '2026-12-01T08:00:00.000Z',
        endDate: '2026-12-08T08:00:00.000Z',
        registered: false,
      },
    ]);
    const teacher = await kit.person({ type: 'teacher' });
    expect((await kit.call('GET', '/open-exams', teacher.headers)).statusCode).toBe(403);
  });
});

describe('PUT /open-exams/{id}/register and /unregister', () => {
  it('signs the student up once, with credentials, into the phases taking sign-ups', async () => {
    const student = await kit.person({ grade: 8, studentCentre: 'Centrul Cluj' });
    const { edition, first } = await openEdition();
    const later = await kit.phase(edition.id, '2027-01-10T08:00:00Z', 1, {
      registrationOpen: true,
    });
    const res = await kit.call('PUT', `/open-exams/${edition.id}/register`, student.headers);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ _id: edition.id, registered: true, phaseId: first.id });
    const [row] = await rowsOf(edition.id, student.id);
    expect(row).toMatchObject({ grade: 8, studentCentre: 'Centrul Cluj', addedBy: student.id });
    expect(row?.cmsUsername).toBeTruthy();
    expect(await phaseRowsOf(student.id)).toEqual(
      [`${first.id}:enrolment`, `${later.id}:signup`].sort(),
    );
    expect((await openIds(student)).find((e) => e._id === edition.id)?.registered).toBe(true);

    expect(
      (await kit.call('PUT', `/open-exams/${edition.id}/register`, student.headers)).statusCode,
    ).toBe(200);
    expect(await rowsOf(edition.id, student.id)).toHaveLength(1);
    const audit = await t.database.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.entityId, edition.id));
    expect(audit.filter((e) => e.action === 'edition.signup')).toHaveLength(1);

    // Own credentials and registrations; nobody else's.
    const creds = await kit.call('GET', '/cms-credentials', student.headers);
    expect(creds.json()).toEqual([
      expect.objectContaining({
        editionId: edition.id,
        username: row?.cmsUsername,
        password: row?.cmsPassword,
      }),
    ]);
    const regs = await kit.call('GET', '/external-registrations', student.headers);
    expect(regs.json()).toEqual([
      expect.objectContaining({ editionId: edition.id, editionName: 'Ediția 2026', grade: 8 }),
    ]);
    const other = await kit.person({ grade: 8 });
    expect((await kit.call('GET', '/cms-credentials', other.headers)).json()).toEqual([]);
    expect((await kit.call('GET', '/external-registrations', other.headers)).json()).toEqual([]);
    const teacher = await kit.person({ type: 'teacher' });
    expect((await kit.call('GET', '/cms-credentials', teacher.headers)).statusCode).toBe(403);
  });

  it('refuses when registration is closed (409), for another grade (404) and to teachers (403)', async () => {
    const student = await kit.person({ grade: 7 });
    const closed = await openEdition({ open: false });
    const res = await kit.call('PUT', `/open-exams/${closed.edition.id}/register`, student.headers);
    expect(res.statusCode).toBe(409);
    expect(codeOf(res)).toBe('REGISTRATION_CLOSED');
    const otherGrade = await openEdition({ grades: [11, 12] });
    expect(
      (await kit.call('PUT', `/open-exams/${otherGrade.edition.id}/register`, student.headers))
        .statusCode,
    ).toBe(404);
    expect(
      (
        await kit.call(
          'PUT',
          '/open-exams/0190a000-0000-7000-8000-000000000002/register',
          student.headers,
        )
      ).statusCode,
    ).toBe(404);
    expect(codeOf(await kit.call('PUT', '/open-exams/nu/register', student.headers))).toBe(
      'VALIDATION_FAILED',
    );
    const teacher = await kit.person({ type: 'teacher' });
    expect(
      (await kit.call('PUT', `/open-exams/${closed.edition.id}/register`, teacher.headers))
        .statusCode,
    ).toBe(403);
    expect(await rowsOf(closed.edition.id, student.id)).toHaveLength(0);
    expect(await rowsOf(otherGrade.edition.id, student.id)).toHaveLength(0);
  });

  it('follows the edition’s own sign-up switch as well as the phase’s (SPEC.md §4)', async () => {
    const student = await kit.person({ grade: 7 });
    const admin = await kit.person({ type: 'admin' });
    const { exam, edition } = await openEdition();
    const url = `/exams/${exam.id}/editions/${edition.id}`;
    const patch = (body: unknown) => kit.call('PATCH', url, admin.headers, body);
    expect((await kit.call('GET', url, admin.headers)).json()).toMatchObject({
      registrationOpen: true,
    });

    const closing = await patch({ registrationOpen: false });
    expect(closing.statusCode).toBe(200);
    expect(closing.json()).toMatchObject({ registrationOpen: false });
    expect((await openIds(student)).map((e) => e._id)).not.toContain(edition.id);
    const refused = await kit.call('PUT', `/open-exams/${edition.id}/register`, student.headers);
    expect(refused.statusCode).toBe(409);
    expect(codeOf(refused)).toBe('REGISTRATION_CLOSED');
    expect(await rowsOf(edition.id, student.id)).toHaveLength(0);

    // A bad value is refused and changes nothing.
    const bad = await patch({ registrationOpen: 'da' });
    expect(bad.statusCode).toBe(400);
    expect(codeOf(bad)).toBe('VALIDATION_FAILED');
    expect((await kit.call('GET', url, admin.headers)).json()).toMatchObject({
      registrationOpen: false,
    });

    expect((await patch({ registrationOpen: true })).statusCode).toBe(200);
    expect((await openIds(student)).map((e) => e._id)).toContain(edition.id);
    expect(
      (await kit.call('PUT', `/open-exams/${edition.id}/register`, student.headers)).statusCode,
    ).toBe(200);
    // Closed again: withdrawing waits for it to open, like a phase's switch.
    expect((await patch({ registrationOpen: false })).statusCode).toBe(200);
    const leaving = await kit.call('PUT', `/open-exams/${edition.id}/unregister`, student.headers);
    expect(codeOf(leaving)).toBe('REGISTRATION_CLOSED');
    expect(await rowsOf(edition.id, student.id)).toHaveLength(1);
    expect(await kit.auditActions(edition.id)).toContain('edition.update');
  });

  it('unregisters while open and without results; STUDENT_HAS_RESULTS and REGISTRATION_CLOSED otherwise', async () => {
    const student = await kit.person({ grade: 7 });
    const decided = await kit.person({ grade: 7 });
    const { edition, first } = await openEdition();
    for (const p of [student, decided])
      await kit.call('PUT', `/open-exams/${edition.id}/register`, p.headers);
    await t.database.db
      .update(phaseStudents)
      .set({ result: 'rejected' })
      .where(and(eq(phaseStudents.phaseId, first.id), eq(phaseStudents.studentId, decided.id)));

    const hasResults = await kit.call(
      'PUT',
      `/open-exams/${edition.id}/unregister`,
      decided.headers,
    );
    expect(hasResults.statusCode).toBe(409);
    expect(codeOf(hasResults)).toBe('STUDENT_HAS_RESULTS');
    expect(await rowsOf(edition.id, decided.id)).toHaveLength(1);

    const res = await kit.call('PUT', `/open-exams/${edition.id}/unregister`, student.headers);
    expect(res.statusCode).toBe(200);
    expect(res.json().registered).toBe(false);
    expect(await rowsOf(edition.id, student.id)).toHaveLength(0);
    expect(await phaseRowsOf(student.id)).toEqual([]);
    expect(
      (await kit.call('PUT', `/open-exams/${edition.id}/unregister`, student.headers)).json()
        .registered,
    ).toBe(false);

    await kit.call('PUT', `/open-exams/${edition.id}/register`, student.headers);
    await t.database.db
      .update(phases)
      .set({ registrationOpen: false })
      .where(eq(phases.id, first.id));
    const late = await kit.call('PUT', `/open-exams/${edition.id}/unregister`, student.headers);
    expect(late.statusCode).toBe(409);
    expect(codeOf(late)).toBe('REGISTRATION_CLOSED');
    expect(await rowsOf(edition.id, student.id)).toHaveLength(1);
  });
});
