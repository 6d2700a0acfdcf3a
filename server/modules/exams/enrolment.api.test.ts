import { and, eq, inArray } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeEnrolment, makeTestWithItems } from '../../db/factories.js';
import { answers, attempts, auditEvents, editionStudents, phaseStudents } from '../../db/schema.js';
import type { Clock } from '../../lib/clock.js';
import { uuidv7 } from '../../lib/ids.js';
import { buildTestApp, type TestApp } from '../../test/app.js';
import { codeOf, examsKit, type Person } from './exams.fixtures.js';

// 23:30 UTC is already the next day in Bucharest: the file name uses the Romanian date.
const clock: Clock = { now: () => new Date('2026-11-23T23:30:00Z') };
let t: TestApp;
let kit: ReturnType<typeof examsKit>;
let admin: Person;

beforeAll(async () => {
  t = await buildTestApp({ clock });
  kit = examsKit(t);
  admin = await kit.person({ type: 'admin' });
});
afterAll(async () => {
  await t.close();
});

const enrolled = async (editionId: string) =>
  (
    await t.database.db
      .select()
      .from(editionStudents)
      .where(eq(editionStudents.editionId, editionId))
  )
    .map((r) => r.studentId)
    .sort();
const inPhase = async (phaseId: string) =>
  (await t.database.db.select().from(phaseStudents).where(eq(phaseStudents.phaseId, phaseId)))
    .map((r) => r.studentId)
    .sort();
const sorted = (...ids: (string | undefined)[]) => ids.map((id) => id ?? '').sort();

async function setup() {
  const w = await kit.world({ grades: [5, 6] });
  const phase = await kit.phase(w.edition.id, '2026-12-01T08:00:00Z');
  const student = (seed: Parameters<TestApp['createUser']>[0] = {}) =>
    t.createUser({ grade: 5, ...seed });
  const mine = await student({ teacherRef: w.coordinator.id, studentCentre: 'Liceul 1' });
  const mine2 = await student({ teacherRef: w.coordinator.id, grade: 6 });
  const staffs = await student({ teacherRef: w.staff.id });
  const others = await student({ teacherRef: w.outsider.id });
  return { ...w, phase, mine, mine2, staffs, others, student };
}

describe('POST …/editions/{editionId}/students', () => {
  it('enrols eligible students with judge credentials and puts them in the first phase', async () => {
    const s = await setup();
    const inactive = await s.student({ state: 'inactive' });
    const unregistered = await s.student({ registered: false });
    const wrongGrade = await s.student({ grade: 9 });
    const teacher = await t.createUser({ type: 'teacher' });
    const unknown = '0190a000-0000-7000-8000-000000000001';
    const res = await kit.call('POST', `${s.editionUrl}/students`, s.examAdmin.headers, {
      students: [
        s.mine.id,
        s.others.id,
        inactive.id,
        unregistered.id,
        wrongGrade.id,
        teacher.id,
        unknown,
      ],
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().failedStudents.sort()).toEqual(
      sorted(inactive.id, unregistered.id, wrongGrade.id, teacher.id, unknown),
    );
    // Each with why, so the dialog can say it.
    const why = Object.fromEntries(
      (res.json().failures as { studentId: string; reason: string }[]).map((f) => [
        f.studentId,
        f.reason,
      ]),
    );
    expect(why).toEqual({
      [inactive.id]: 'inactive',
      [unregistered.id]: 'unregistered',
      [wrongGrade.id]: 'grade',
      [teacher.id]: 'unknown',
      [unknown]: 'unknown',
    });
    expect(await enrolled(s.edition.id)).toEqual(sorted(s.mine.id, s.others.id));
    expect(await inPhase(s.phase.id)).toEqual(sorted(s.mine.id, s.others.id));
    const rows = await t.database.db
      .select()
      .from(editionStudents)
      .where(eq(editionStudents.editionId, s.edition.id));
    for (const row of rows) {
      expect(row.cmsUsername).toMatch(/^e[a-z2-9]{8}$/);
      expect(row.cmsPassword).toMatch(/^[A-Za-z2-9]{10}$/);
      expect(row.addedBy).toBe(s.examAdmin.id);
    }
    expect(rows.find((r) => r.studentId === s.mine.id)).toMatchObject({
      grade: 5,
      studentCentre: 'Liceul 1',
    });
    expect(new Set(rows.map((r) => r.cmsUsername)).size).toBe(rows.length);

    // Again: nothing fails, nothing doubles, credentials stay.
    const again = await kit.call('POST', `${s.editionUrl}/students`, admin.headers, {
      students: [s.mine.id],
    });
    expect(again.json()).toEqual({ failedStudents: [], failures: [] });
    const [row] = await t.database.db
      .select()
      .from(editionStudents)
      .where(
        and(eq(editionStudents.editionId, s.edition.id), eq(editionStudents.studentId, s.mine.id)),
      );
    expect(row?.cmsUsername).toBe(rows.find((r) => r.studentId === s.mine.id)?.cmsUsername);
    const audit = await t.database.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.entityId, s.edition.id));
    expect(audit.filter((e) => e.action === 'edition.students.add')).toHaveLength(1);
  });

  it("lets coordinators and staff enrol only their own students (others' fail)", async () => {
    const s = await setup();
    const byCoordinator = await kit.call(
      'POST',
      `${s.editionUrl}/students`,
      s.coordinator.headers,
      {
        students: [s.mine.id, s.others.id, s.staffs.id],
      },
    );
    expect(byCoordinator.json().failedStudents.sort()).toEqual(sorted(s.others.id, s.staffs.id));
    const byStaff = await kit.call('POST', `${s.editionUrl}/students`, s.staff.headers, {
      students: [s.staffs.id, s.others.id],
    });
    expect(byStaff.json()).toEqual({
      failedStudents: [s.others.id],
      failures: [{ studentId: s.others.id, reason: 'not_theirs' }],
    });
    expect(await enrolled(s.edition.id)).toEqual(sorted(s.mine.id, s.staffs.id));

    expect(
      (
        await kit.call('POST', `${s.editionUrl}/students`, s.outsider.headers, {
          students: [s.others.id],
        })
      ).statusCode,
    ).toBe(404);
    const student = await kit.person();
    expect(
      (
        await kit.call('POST', `${s.editionUrl}/students`, student.headers, {
          students: [student.id],
        })
      ).statusCode,
    ).toBe(403);
    for (const payload of [{ students: [] }, { students: ['x'] }, {}]) {
      expect(
        codeOf(await kit.call('POST', `${s.editionUrl}/students`, admin.headers, payload)),
      ).toBe('VALIDATION_FAILED');
    }
    expect(await enrolled(s.edition.id)).toEqual(sorted(s.mine.id, s.staffs.id));
  });

  it('does not put anyone into a closed first phase', async () => {
    const w = await kit.world();
    const closed = await kit.phase(w.edition.id, '2026-10-01T08:00:00Z', 1, { state: 'closed' });
    const s = await t.createUser({ grade: 6 });
    await kit.call('POST', `${w.editionUrl}/students`, admin.headers, { students: [s.id] });
    expect(await enrolled(w.edition.id)).toEqual([s.id]);
    expect(await inPhase(closed.id)).toEqual([]);
  });
});

describe('POST …/students/all-mine and …/students/for-coordinators', () => {
  it('all-mine enrols the caller’s own eligible students', async () => {
    const s = await setup();
    await s.student({ teacherRef: s.coordinator.id, grade: 10 });
    await s.student({ teacherRef: s.coordinator.id, state: 'inactive' });
    const res = await kit.call('POST', `${s.editionUrl}/students/all-mine`, s.coordinator.headers);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ failedStudents: [], enrolledCount: 2 });
    expect(await enrolled(s.edition.id)).toEqual(sorted(s.mine.id, s.mine2.id));
    expect(
      (await kit.call('POST', `${s.editionUrl}/students/all-mine`, s.outsider.headers)).statusCode,
    ).toBe(404);
    expect(
      (await kit.call('POST', `${s.editionUrl}/students/all-mine`, admin.headers)).json(),
    ).toEqual({
      failedStudents: [],
      enrolledCount: 0,
    });
  });

  it('for-coordinators enrols every coordinator’s students, for exam admins only', async () => {
    const s = await setup();
    for (const p of [s.staff, s.coordinator]) {
      const denied = await kit.call('POST', `${s.editionUrl}/students/for-coordinators`, p.headers);
      expect(codeOf(denied)).toBe('OPERATION_NOT_PERMITTED');
    }
    expect(await enrolled(s.edition.id)).toEqual([]);
    const res = await kit.call(
      'POST',
      `${s.editionUrl}/students/for-coordinators`,
      s.examAdmin.headers,
    );
    expect(res.json()).toEqual({ failedStudents: [], enrolledCount: 2 });
    expect(await enrolled(s.edition.id)).toEqual(sorted(s.mine.id, s.mine2.id));
  });
});

describe('DELETE and PUT …/editions/{editionId}/students', () => {
  it('removes students from the edition and its phases, except those with results', async () => {
    const s = await setup();
    await kit.call('POST', `${s.editionUrl}/students`, admin.headers, {
      students: [s.mine.id, s.mine2.id, s.others.id],
    });
    await t.database.db
      .update(phaseStudents)
      .set({ result: 'admitted' })
      .where(and(eq(phaseStudents.phaseId, s.phase.id), eq(phaseStudents.studentId, s.mine2.id)));
    const byCoordinator = await kit.call(
      'DELETE',
      `${s.editionUrl}/students`,
      s.coordinator.headers,
      {
        students: [s.mine.id, s.mine2.id, s.others.id, s.staffs.id],
      },
    );
    expect(byCoordinator.statusCode).toBe(200);
    // Decided, someone else's, never enrolled.
    expect(byCoordinator.json().failedStudents.sort()).toEqual(
      sorted(s.mine2.id, s.others.id, s.staffs.id),
    );
    expect(await enrolled(s.edition.id)).toEqual(sorted(s.mine2.id, s.others.id));
    expect(await inPhase(s.phase.id)).toEqual(sorted(s.mine2.id, s.others.id));
    const audit = await t.database.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.entityId, s.edition.id));
    expect(audit.find((e) => e.action === 'edition.students.remove')?.before).toEqual([
      { studentId: s.mine.id, grade: 5, studentCentre: 'Liceul 1' },
    ]);
    expect(
      (
        await kit.call('DELETE', `${s.editionUrl}/students`, s.outsider.headers, {
          students: [s.others.id],
        })
      ).statusCode,
    ).toBe(404);
  });

  it('keeps a student who started a test or has an uploaded answer in the edition', async () => {
    const s = await setup();
    const third = await s.student({ teacherRef: s.coordinator.id });
    await kit.call('POST', `${s.editionUrl}/students`, admin.headers, {
      students: [s.mine.id, s.mine2.id, third.id],
    });
    const { test, questions } = await makeTestWithItems(t.database.db, {
      phaseId: s.phase.id,
      grades: [5, 6],
    });
    const question = questions[0]?.id ?? '';
    const startedAt = new Date('2026-12-01T08:05:00Z');
    // mine is in the middle of the online test; mine2 has a paper answer uploaded.
    await t.database.db.insert(attempts).values({
      id: uuidv7(),
      testId: test.id,
      studentId: s.mine.id,
      state: 'in_progress',
      startedAt,
      deadlineAt: new Date('2026-12-01T09:05:00Z'),
      itemOrder: [question],
    });
    await t.database.db.insert(answers).values({
      id: uuidv7(),
      testId: test.id,
      studentId: s.mine2.id,
      questionId: question,
      updatedAt: startedAt,
    });
    const res = await kit.call('DELETE', `${s.editionUrl}/students`, admin.headers, {
      students: [s.mine.id, s.mine2.id, third.id],
    });
    expect(res.json().failedStudents.sort()).toEqual(sorted(s.mine.id, s.mine2.id));
    expect(await enrolled(s.edition.id)).toEqual(sorted(s.mine.id, s.mine2.id));
    expect(await inPhase(s.phase.id)).toEqual(sorted(s.mine.id, s.mine2.id));
  });

  it('changes grade and exam location; bad grades and others’ students fail', async () => {
    const s = await setup();
    await kit.call('POST', `${s.editionUrl}/students`, admin.headers, {
      students: [s.mine.id, s.others.id],
    });
    const res = await kit.call('PUT', `${s.editionUrl}/students`, s.coordinator.headers, {
      students: [
        { studentId: s.mine.id, grade: 6, studentCentre: 'Centrul Iași' },
        { studentId: s.others.id, grade: 6 },
        { studentId: s.mine2.id, grade: 6 },
      ],
    });
    expect(res.json().failedStudents.sort()).toEqual(sorted(s.others.id, s.mine2.id));
    const bad = await kit.call('PUT', `${s.editionUrl}/students`, admin.headers, {
      students: [
        { studentId: s.others.id, grade: 9 },
        { studentId: s.mine.id, studentCentre: null },
      ],
    });
    expect(bad.json()).toEqual({ failedStudents: [s.others.id] });
    const rows = await t.database.db
      .select()
      .from(editionStudents)
      .where(inArray(editionStudents.studentId, [s.mine.id, s.others.id]));
    expect(rows.find((r) => r.studentId === s.mine.id)).toMatchObject({
      grade: 6,
      studentCentre: null,
    });
    expect(rows.find((r) => r.studentId === s.others.id)).toMatchObject({ grade: 5 });
    const audit = await t.database.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.entityId, s.edition.id));
    expect(audit.filter((e) => e.action === 'edition.students.change')).toHaveLength(2);
    expect(
      codeOf(
        await kit.call('PUT', `${s.editionUrl}/students`, admin.headers, {
          students: [{ studentId: s.mine.id, grade: 'V' }],
        }),
      ),
    ).toBe('VALIDATION_FAILED');
  });
});

describe('GET …/editions/{editionId}/students, /count and /credentials', () => {
  it('lists the students in scope without passwords', async () => {
    const s = await setup();
    await makeEnrolment(t.database.db, { editionId: s.edition.id, studentId: s.mine.id, grade: 5 });
    await makeEnrolment(t.database.db, {
      editionId: s.edition.id,
      studentId: s.others.id,
      grade: 6,
    });
    const all = await kit.call('GET', `${s.editionUrl}/students`, s.staff.headers);
    expect(
      all
        .json()
        .map((r: { studentId: string }) => r.studentId)
        .sort(),
    ).toEqual(sorted(s.mine.id, s.others.id));
    expect(all.json()[0]).not.toHaveProperty('cmsPassword');
    const mine = await kit.call('GET', `${s.editionUrl}/students`, s.coordinator.headers);
    expect(mine.json().map((r: { studentId: string }) => r.studentId)).toEqual([s.mine.id]);
    const count = await kit.call(
      'GET',
      `${s.editionUrl}/students/count?where=${kit.q({ studentGrade: 6 })}`,
      admin.headers,
    );
    expect(count.json()).toEqual({ count: 1 });
    const bad = await kit.call(
      'GET',
      `${s.editionUrl}/students?filter=${kit.q({ where: { cmsPassword: 'x' } })}`,
      admin.headers,
    );
    expect(codeOf(bad)).toBe('VALIDATION_FAILED');
  });

  it('downloads the credentials as download-cms-DD-MM-YYYY.xlsx, scoped like the list', async () => {
    const s = await setup();
    await kit.call('POST', `${s.editionUrl}/students`, admin.headers, {
      students: [s.mine.id, s.others.id],
    });
    const res = await kit.call('GET', `${s.editionUrl}/students/credentials`, admin.headers);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toBe(
      'attachment; filename="download-cms-24-11-2026.xlsx"',
    );
    expect(res.headers['content-type']).toContain('spreadsheetml');
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = book.worksheets[0];
    expect(sheet?.rowCount).toBe(3);
    expect(sheet?.getRow(1).getCell(8).value).toBe('Utilizator');
    const stored = await t.database.db
      .select()
      .from(editionStudents)
      .where(eq(editionStudents.editionId, s.edition.id));
    const usernames = [2, 3].map((i) => sheet?.getRow(i).getCell(8).value).sort();
    expect(usernames).toEqual(stored.map((r) => r.cmsUsername).sort());

    const coordinatorFile = await kit.call(
      'GET',
      `${s.editionUrl}/students/credentials`,
      s.coordinator.headers,
    );
    const own = new ExcelJS.Workbook();
    await own.xlsx.load(coordinatorFile.rawPayload as unknown as ArrayBuffer);
    expect(own.worksheets[0]?.rowCount).toBe(2);
    expect(
      (await kit.call('GET', `${s.editionUrl}/students/credentials`, s.outsider.headers))
        .statusCode,
    ).toBe(404);
  });
});
