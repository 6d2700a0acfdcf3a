import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeExam } from '../../db/factories.js';
import { auditEvents, exams, examTeachers } from '../../db/schema.js';
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

const auditOf = (entityId: string) =>
  t.database.db.select().from(auditEvents).where(eq(auditEvents.entityId, entityId));
const linksOf = async (examId: string) =>
  (await t.database.db.select().from(examTeachers).where(eq(examTeachers.examId, examId)))
    .map((l) => `${l.role}:${l.teacherId}`)
    .sort();

describe('POST /exams/', () => {
  it('lets an admin create a competition with sorted grades and its teachers', async () => {
    const boss = await kit.person({ type: 'teacher' });
    const member = await kit.person({ type: 'teacher' });
    const res = await kit.call('POST', '/exams/', admin.headers, {
      name: '  Olimpiada de Informatică ',
      subject: 'Informatică',
      description: 'Etapele școlară, locală și județeană',
      grades: [12, 9, 99, 10, 9],
      adminTeacherIds: [boss.id],
      staffTeacherIds: [member.id],
    });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toMatchObject({
      name: 'Olimpiada de Informatică',
      subject: 'Informatică',
      grades: [9, 10, 12, 99],
      adminTeacherIds: [boss.id],
      staffTeacherIds: [member.id],
      myRole: 'admin',
    });
    expect(Object.keys(body).sort()).toEqual(
      [
        '_id',
        'adminTeacherIds',
        'createdAt',
        'description',
        'grades',
        'myRole',
        'name',
        'staffTeacherIds',
        'subject',
      ].sort(),
    );
    const [row] = await t.database.db.select().from(exams).where(eq(exams.id, body._id));
    expect(row).toMatchObject({ nameNormalized: 'olimpiada de informatica', createdBy: admin.id });
    expect(await linksOf(body._id)).toEqual([`admin:${boss.id}`, `staff:${member.id}`].sort());
    expect((await auditOf(body._id)).map((e) => e.action)).toContain('exam.create');
    // The same call without the trailing slash.
    const twin = await kit.call('POST', '/exams', admin.headers, {
      name: 'Concurs fără bară',
      subject: 'Matematică',
      grades: [5],
    });
    expect(twin.statusCode).toBe(201);
  });

  it('is refused to teachers and students (403) and to anonymous callers (401)', async () => {
    const teacher = await kit.person({ type: 'teacher' });
    const student = await kit.person();
    const body = { name: 'Concurs interzis', subject: 'Matematică', grades: [5] };
    for (const who of [teacher, student]) {
      const res = await kit.call('POST', '/exams/', who.headers, body);
      expect(res.statusCode).toBe(403);
      expect(codeOf(res)).toBe('OPERATION_NOT_PERMITTED');
    }
    expect((await kit.call('POST', '/exams/', {}, body)).statusCode).toBe(401);
    const rows = await t.database.db.select().from(exams).where(eq(exams.name, 'Concurs interzis'));
    expect(rows).toHaveLength(0);
  });

  it('rejects bad input with field codes and creates nothing', async () => {
    const before = (await t.database.db.select().from(exams)).length;
    const missing = await kit.call('POST', '/exams/', admin.headers, { subject: 'Matematică' });
    expect(missing.statusCode).toBe(400);
    expect(codeOf(missing)).toBe('VALIDATION_FAILED');
    expect(detailsOf(missing)).toEqual(
      expect.arrayContaining([
        { code: 'required', path: ['name'] },
        { code: 'required', path: ['grades'] },
      ]),
    );
    const cases: [object, string, (string | number)[]][] = [
      [{ name: 'ab', subject: 'Matematică', grades: [5] }, 'too_short', ['name']],
      [{ name: 'Concurs', subject: 'Matematică', grades: [] }, 'required', ['grades']],
      [{ name: 'Concurs', subject: 'Matematică', grades: [13] }, 'invalid', ['grades', 0]],
      [{ name: 'x'.repeat(201), subject: 'Matematică', grades: [5] }, 'too_long', ['name']],
      [
        { name: 'Concurs', subject: 'Matematică', grades: [5], adminTeacherIds: ['nu'] },
        'invalid',
        ['adminTeacherIds', 0],
      ],
    ];
    for (const [payload, code, path] of cases) {
      const res = await kit.call('POST', '/exams/', admin.headers, payload);
      expect(codeOf(res), JSON.stringify(payload)).toBe('VALIDATION_FAILED');
      expect(detailsOf(res)).toContainEqual({ code, path });
    }
    const unknown = await kit.call('POST', '/exams/', admin.headers, {
      name: 'Concurs',
      subject: 'Matematică',
      grades: [5],
      owner: 'eu',
    });
    expect(codeOf(unknown)).toBe('VALIDATION_FAILED');
    expect((await t.database.db.select().from(exams)).length).toBe(before);
  });

  it('accepts only existing active teachers in the teacher lists (CLIENT_ERROR on the field)', async () => {
    const inactive = await t.createUser({ type: 'teacher', state: 'inactive' });
    const student = await t.createUser();
    const before = (await t.database.db.select().from(exams)).length;
    for (const [field, id] of [
      ['adminTeacherIds', inactive.id],
      ['staffTeacherIds', student.id],
      ['staffTeacherIds', '0190a000-0000-7000-8000-000000000000'],
    ] as const) {
      const res = await kit.call('POST', '/exams/', admin.headers, {
        name: 'Concurs cu profesori',
        subject: 'Matematică',
        grades: [5],
        [field]: [id],
      });
      expect(res.statusCode).toBe(400);
      expect(codeOf(res)).toBe('CLIENT_ERROR');
      expect(detailsOf(res)).toEqual({ [field]: ['teacher_not_found'] });
    }
    expect((await t.database.db.select().from(exams)).length).toBe(before);
  });
});

describe('GET /exams/{examId}', () => {
  it('shows a competition to its people and is "not found" for anyone else', async () => {
    const w = await kit.world();
    const other = await kit.world();
    for (const [p, role] of [
      [admin, 'admin'],
      [w.examAdmin, 'examAdmin'],
      [w.staff, 'staff'],
      [w.coordinator, 'coordinator'],
    ] as const) {
      const res = await kit.call('GET', `/exams/${w.exam.id}`, p.headers);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ _id: w.exam.id, myRole: role, grades: [5, 6, 7, 8] });
    }
    // A teacher of another competition, an outsider and a student of a closed one: 404.
    for (const p of [other.examAdmin, w.outsider, await kit.person({ grade: 6 })]) {
      const res = await kit.call('GET', `/exams/${w.exam.id}`, p.headers);
      expect(res.statusCode).toBe(404);
      expect(codeOf(res)).toBe('NOT_FOUND');
    }
    const missing = await kit.call(
      'GET',
      '/exams/0190a000-0000-7000-8000-000000000000',
      admin.headers,
    );
    expect(codeOf(missing)).toBe('NOT_FOUND');
    const malformed = await kit.call('GET', '/exams/not-a-uuid', admin.headers);
    expect(codeOf(malformed)).toBe('VALIDATION_FAILED');
  });
});

describe('PATCH /exams/{examId}', () => {
  it('lets an exam admin change the competition and its teachers, audited', async () => {
    const w = await kit.world();
    const newcomer = await kit.person({ type: 'teacher' });
    const res = await kit.call('PATCH', `/exams/${w.exam.id}`, w.examAdmin.headers, {
      name: 'Olimpiada Nouă',
      grades: [8, 7],
      description: null,
      staffTeacherIds: [w.staff.id, newcomer.id],
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      name: 'Olimpiada Nouă',
      grades: [7, 8],
      description: null,
      staffTeacherIds: [w.staff.id, newcomer.id],
      adminTeacherIds: [w.examAdmin.id],
    });
    const [row] = await t.database.db.select().from(exams).where(eq(exams.id, w.exam.id));
    expect(row?.nameNormalized).toBe('olimpiada noua');
    const actions = (await auditOf(w.exam.id)).map((e) => e.action);
    expect(actions).toEqual(expect.arrayContaining(['exam.update', 'exam.teachers.staff']));
    // The newcomer now sees it as staff.
    expect((await kit.call('GET', `/exams/${w.exam.id}`, newcomer.headers)).json().myRole).toBe(
      'staff',
    );
  });

  it('is 403 for staff and coordinators, 404 for outsiders, and changes nothing', async () => {
    const w = await kit.world();
    for (const p of [w.staff, w.coordinator]) {
      const res = await kit.call('PATCH', `/exams/${w.exam.id}`, p.headers, {
        name: 'Schimbat de staff',
        adminTeacherIds: [p.id],
      });
      expect(res.statusCode).toBe(403);
      expect(codeOf(res)).toBe('OPERATION_NOT_PERMITTED');
    }
    const outsider = await kit.call('PATCH', `/exams/${w.exam.id}`, w.outsider.headers, {
      name: 'Schimbat',
    });
    expect(outsider.statusCode).toBe(404);
    const student = await kit.call('PATCH', `/exams/${w.exam.id}`, (await kit.person()).headers, {
      name: 'Schimbat',
    });
    expect(student.statusCode).toBe(403);
    const [row] = await t.database.db.select().from(exams).where(eq(exams.id, w.exam.id));
    expect(row?.name).toBe(w.exam.name);
    expect(await linksOf(w.exam.id)).toEqual(
      [`admin:${w.examAdmin.id}`, `staff:${w.staff.id}`].sort(),
    );
  });

  it('refuses inactive or unknown teachers but keeps one already on the list', async () => {
    const w = await kit.world();
    const inactive = await t.createUser({ type: 'teacher', state: 'inactive' });
    const res = await kit.call('PATCH', `/exams/${w.exam.id}`, admin.headers, {
      name: 'Nu se salvează',
      adminTeacherIds: [w.examAdmin.id, inactive.id],
    });
    expect(codeOf(res)).toBe('CLIENT_ERROR');
    expect(detailsOf(res)).toEqual({ adminTeacherIds: ['teacher_not_found'] });
    const [row] = await t.database.db.select().from(exams).where(eq(exams.id, w.exam.id));
    expect(row?.name).toBe(w.exam.name);

    // A staff member made inactive later may stay while the list is edited.
    await t.database.db
      .insert(examTeachers)
      .values({ examId: w.exam.id, teacherId: inactive.id, role: 'staff' });
    const keep = await kit.call('PATCH', `/exams/${w.exam.id}`, admin.headers, {
      staffTeacherIds: [inactive.id],
    });
    expect(keep.statusCode).toBe(200);
    expect(keep.json().staffTeacherIds).toEqual([inactive.id]);
    expect(
      await t.database.db
        .select()
        .from(examTeachers)
        .where(and(eq(examTeachers.examId, w.exam.id), eq(examTeachers.teacherId, w.staff.id))),
    ).toHaveLength(0);
  });

  it('rejects malformed bodies', async () => {
    const w = await kit.world();
    for (const payload of [
      { grades: [] },
      { name: 5 },
      { myRole: 'admin' },
      { staffTeacherIds: 'x' },
    ]) {
      const res = await kit.call('PATCH', `/exams/${w.exam.id}`, admin.headers, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(codeOf(res)).toBe('VALIDATION_FAILED');
    }
  });
});

describe('DELETE /exams/{examId}', () => {
  it('is for platform admins, refused while editions exist, and audited', async () => {
    const w = await kit.world();
    const byExamAdmin = await kit.call('DELETE', `/exams/${w.exam.id}`, w.examAdmin.headers);
    expect(byExamAdmin.statusCode).toBe(403);
    expect(codeOf(byExamAdmin)).toBe('OPERATION_NOT_PERMITTED');
    expect((await kit.call('DELETE', `/exams/${w.exam.id}`, w.outsider.headers)).statusCode).toBe(
      404,
    );

    const withEditions = await kit.call('DELETE', `/exams/${w.exam.id}`, admin.headers);
    expect(withEditions.statusCode).toBe(409);
    expect(codeOf(withEditions)).toBe('EXAM_HAS_EDITIONS');

    const empty = await makeExam(t.database.db, { adminTeacherIds: [w.examAdmin.id] });
    const res = await kit.call('DELETE', `/exams/${empty.id}`, admin.headers);
    expect(res.statusCode).toBe(204);
    const [row] = await t.database.db.select().from(exams).where(eq(exams.id, empty.id));
    expect(row?.deletedAt).toBeInstanceOf(Date);
    expect((await kit.call('GET', `/exams/${empty.id}`, admin.headers)).statusCode).toBe(404);
    expect((await auditOf(empty.id)).map((e) => e.action)).toContain('exam.delete');
    // Still there for the one refused.
    expect((await kit.call('GET', `/exams/${w.exam.id}`, admin.headers)).statusCode).toBe(200);
  });
});
